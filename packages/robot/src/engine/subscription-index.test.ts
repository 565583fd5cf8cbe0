import { describe, expect, it } from 'vitest';
import { defaultRobotSettings, type RobotSettings } from '../settings/robot-settings';
import { SubscriptionIndex } from './subscription-index';

const settings = (
  patch: Partial<RobotSettings['categories_enabled']>,
  botOn = true,
): RobotSettings => ({
  ...defaultRobotSettings,
  bot_on: botOn,
  categories_enabled: { ...defaultRobotSettings.categories_enabled, ...patch },
});
const ids = (iterable: Iterable<{ accountId: string }>) => [...iterable].map((a) => a.accountId);

describe('SubscriptionIndex', () => {
  it('routes a category only to accounts whose robot is on and whose toggle includes it', () => {
    const index = new SubscriptionIndex<{ accountId: string }>();
    index.update({ accountId: 'fx' }, settings({ forex: true }));
    index.update({ accountId: 'all' }, settings({ all: true }));
    index.update({ accountId: 'off' }, settings({ all: true }, false));
    expect(ids(index.subscribers('forex')).sort()).toEqual(['all', 'fx']);
    expect(ids(index.subscribers('cripto'))).toEqual(['all']);
  });

  it('follows settings changes', () => {
    const index = new SubscriptionIndex<{ accountId: string }>();
    const account = { accountId: 'a' };
    index.update(account, settings({ stocks: true }));
    index.update(account, settings({ index: true }));
    expect(index.count('stocks')).toBe(0);
    expect(ids(index.subscribers('index'))).toEqual(['a']);
    index.update(account, settings({ index: true }, false));
    expect(index.count('index')).toBe(0);
  });
});
