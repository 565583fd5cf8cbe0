import { describe, expect, it } from 'vitest';
import type { TradingPlatformLinksStore } from '../repositories/trading-platform-links.repository';
import type { SettingsRow, UserRow, UsersStore } from '../repositories/users.repository';
import { NotLinked } from './linking.errors';
import { UnlinkingService } from './unlinking.service';

const now = new Date('2026-11-26T12:00:00.000Z');
const user = { id: 'u1' } as UserRow;
const unlinkedSettings = { userId: 'u1', linked: false } as unknown as SettingsRow;

/** Plain stubs: the steps are written to one log, so the order is what is checked. */
function rig(options: { linked?: boolean; wrongPassword?: boolean; robotDown?: boolean } = {}) {
  const steps: string[] = [];
  const records: unknown[] = [];
  const users = {
    findSettings: () => Promise.resolve({ linked: options.linked ?? true } as SettingsRow),
  } as unknown as UsersStore;
  const links = {
    unlink: (_userId: string, record: unknown, at: Date) => {
      steps.push('unlink');
      records.push({ record, at });
      return Promise.resolve({ settings: unlinkedSettings });
    },
  } as unknown as TradingPlatformLinksStore;
  const service = new UnlinkingService({
    users,
    links,
    clock: { now: () => now },
    verifyPassword: () => {
      steps.push('password');
      return options.wrongPassword ? Promise.reject(new Error('wrong')) : Promise.resolve();
    },
    closeEverything: () => {
      steps.push('close');
      return options.robotDown ? Promise.reject(new Error('robot down')) : Promise.resolve(2);
    },
    openOperations: () => {
      steps.push('open');
      return Promise.resolve(1);
    },
    onUnlinked: (row) => {
      steps.push(`unlinked:${String(row.linked)}`);
      return Promise.resolve();
    },
  });
  return { service, steps, records };
}

describe('UnlinkingService.unlink (decision 091)', () => {
  it('closes first when asked, records closed plus left open, then tells', async () => {
    const { service, steps, records } = rig();
    const result = await service.unlink(user, { password: 'pw', closeOperations: true });
    expect(result).toEqual({ linked: false, closed: 2, leftOpen: 1 });
    expect(steps).toEqual(['password', 'close', 'open', 'unlink', 'unlinked:false']);
    expect(records).toEqual([{ record: { closedPositions: true, openPositions: 3 }, at: now }]);
  });

  it('leaves operations open when not asked to close them', async () => {
    const { service, steps, records } = rig();
    const result = await service.unlink(user, { password: 'pw', closeOperations: false });
    expect(result).toEqual({ linked: false, closed: 0, leftOpen: 1 });
    expect(steps).not.toContain('close');
    expect(records).toEqual([{ record: { closedPositions: false, openPositions: 1 }, at: now }]);
  });

  it('refuses an account that is not linked, and a wrong password, before touching anything', async () => {
    const notLinked = rig({ linked: false });
    await expect(
      notLinked.service.unlink(user, { password: 'pw', closeOperations: true }),
    ).rejects.toBeInstanceOf(NotLinked);
    expect(notLinked.steps).toEqual(['password']);
    const wrong = rig({ wrongPassword: true });
    await expect(
      wrong.service.unlink(user, { password: 'x', closeOperations: true }),
    ).rejects.toThrow('wrong');
    expect(wrong.steps).toEqual(['password']);
  });

  it('keeps the link when the kill switch fails', async () => {
    const { service, steps } = rig({ robotDown: true });
    await expect(service.unlink(user, { password: 'pw', closeOperations: true })).rejects.toThrow(
      'robot down',
    );
    expect(steps).toEqual(['password', 'close']);
  });
});
