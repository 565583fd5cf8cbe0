import type { RobotSettingsView } from '@tradebot/contract';
import { settingsRequestSchema } from '@tradebot/contract';
import { describe, expect, it } from 'vitest';
import { applyChange, createSerialSaver, saveWithRollback, settingsRequest } from './settings-save';

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

describe('saving one change at a time, the latest winning (issue 39: arrow keys on the risk)', () => {
  /** A server whose answers the test releases one by one. */
  function slowServer() {
    const calls: { next: RobotSettingsView; answer: (ok: boolean) => void }[] = [];
    const save = (next: RobotSettingsView) =>
      new Promise<RobotSettingsView>((resolve, reject) => {
        calls.push({
          next,
          answer: (ok) => {
            if (ok) resolve(next);
            else reject(new Error('refused'));
          },
        });
      });
    return { calls, save };
  }
  const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

  it('shows each change at once and saves the one made during a save right after it', async () => {
    const server = slowServer();
    const shown: number[] = [];
    const outcomes: unknown[] = [];
    const saver = createSerialSaver({
      saved,
      save: server.save,
      show: (value) => shown.push(value.risk),
      onOutcome: (outcome) => outcomes.push(outcome),
    });
    saver.change((current) => applyChange(current, { kind: 'risk', value: 2 }));
    saver.change((current) => applyChange(current, { kind: 'risk', value: 3 }));
    saver.change((current) => applyChange(current, { kind: 'risk', value: 4 }));
    expect(shown).toEqual([2, 3, 4]);
    expect(saver.saving()).toBe(true);
    expect(server.calls.map((call) => call.next.risk)).toEqual([2]);
    server.calls[0]?.answer(true);
    await tick();
    // The latest state, not every step: 3 was never the one to keep.
    expect(server.calls.map((call) => call.next.risk)).toEqual([2, 4]);
    expect(outcomes).toEqual([]);
    server.calls[1]?.answer(true);
    await tick();
    expect(shown.at(-1)).toBe(4);
    expect(outcomes).toEqual([{ ok: true, value: { ...saved, risk: 4 } }]);
    expect(saver.saving()).toBe(false);
  });

  it('keeps changes of different controls made during a save, and rolls back to the server on failure', async () => {
    const server = slowServer();
    const shown: RobotSettingsView[] = [];
    const outcomes: { ok: boolean }[] = [];
    const saver = createSerialSaver({
      saved,
      save: server.save,
      show: (value) => shown.push(value),
      onOutcome: (outcome) => outcomes.push(outcome),
    });
    saver.change((current) => applyChange(current, { kind: 'risk', value: 5 }));
    saver.change((current) => applyChange(current, { kind: 'bot_on', value: false }));
    server.calls[0]?.answer(true);
    await tick();
    expect(server.calls[1]?.next).toEqual({ ...saved, risk: 5, bot_on: false });
    server.calls[1]?.answer(false);
    await tick();
    // What the server last held: the first save went through, the second did not.
    expect(shown.at(-1)).toEqual({ ...saved, risk: 5 });
    expect(outcomes).toEqual([{ ok: false, error: expect.any(Error) as Error }]);
  });
});
