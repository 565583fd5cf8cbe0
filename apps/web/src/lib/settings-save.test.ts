import type { RobotSettingsView } from '@tradebot/contract';
import { settingsRequestSchema } from '@tradebot/contract';
import { describe, expect, it } from 'vitest';
import { applyChange, saveWithRollback, settingsRequest } from './settings-save';

const saved: RobotSettingsView = {
  bot_on: true,
  risk: 1,
  categories_enabled: {
    forex: true,
    cripto: false,
    stocks: true,
    index: false,
    commodities: false,
    all: false,
  },
};

describe('robot settings changes (spec §4)', () => {
  it('change one thing at a time', () => {
    expect(applyChange(saved, { kind: 'bot_on', value: false })).toEqual({
      ...saved,
      bot_on: false,
    });
    expect(applyChange(saved, { kind: 'risk', value: 4 }).risk).toBe(4);
    expect(
      applyChange(saved, { kind: 'category', category: 'cripto', value: true }).categories_enabled,
    ).toEqual({ ...saved.categories_enabled, cripto: true });
    expect(saved.categories_enabled.cripto).toBe(false);
  });

  it('are sent as spec §7 says, which the contract accepts', () => {
    const body = settingsRequest(saved);
    expect(typeof body.categories_enabled).toBe('string');
    expect(JSON.parse(body.categories_enabled)).toEqual(saved.categories_enabled);
    expect(settingsRequestSchema.parse(body)).toMatchObject({
      bot_on: true,
      risk: 1,
      categories_enabled: saved.categories_enabled,
    });
  });
});

describe('saving with rollback', () => {
  it('shows the change at once, then what the server answered', async () => {
    const shown: boolean[] = [];
    const outcome = await saveWithRollback(
      true,
      false,
      (next) => Promise.resolve(next),
      (value) => shown.push(value),
    );
    expect(outcome).toEqual({ ok: true, value: false });
    expect(shown).toEqual([false, false]);
  });

  it('shows the server value when it differs from what was asked', async () => {
    const shown: number[] = [];
    await saveWithRollback(
      1,
      9,
      () => Promise.resolve(5),
      (value) => shown.push(value),
    );
    expect(shown).toEqual([9, 5]);
  });

  it('returns to the previous value when the save fails, and hands back the error', async () => {
    const shown: RobotSettingsView[] = [];
    const failure = new Error('offline');
    const next = applyChange(saved, { kind: 'bot_on', value: false });
    const outcome = await saveWithRollback(
      saved,
      next,
      () => Promise.reject(failure),
      (value) => shown.push(value),
    );
    expect(outcome).toEqual({ ok: false, error: failure });
    expect(shown).toEqual([next, saved]);
  });
});
