import { describe, expect, it } from 'vitest';
import type {
  LiveRobotProcess,
  RobotProcessesStore,
} from '../repositories/robot-processes.repository';
import type { RobotStats } from '../robot/protocol/robot-protocol';
import type { RobotRuntime } from '../robot/link/robot-runtime';
import { RecentErrors } from './recent-errors';
import { SystemStatusService } from './system-status.service';

const start = Date.parse('2026-11-29T03:00:00Z');

function statsOf(claimed: number, run = 'run-1'): RobotStats {
  return {
    run,
    ordersSent: 0,
    ordersFilled: 0,
    ordersRefused: {},
    tickLagMs: 40,
    maxTickLagMs: 40,
    accountsHeld: 3,
    leaseMoves: { claimed, lost: 0, released: 0 },
  } as unknown as RobotStats;
}

function setUp(mode: 'embedded' | 'scaled', rows: LiveRobotProcess[] = []) {
  const clock = { now: start };
  const state = { stats: statsOf(0) as RobotStats | undefined, stored: [] as object[] };
  const robot = {
    stats: () => (state.stats ? Promise.resolve(state.stats) : Promise.reject(new Error('down'))),
  } as unknown as RobotRuntime;
  const store: RobotProcessesStore = {
    storeReport: (_owner, report) => {
      state.stored.push(report);
      return Promise.resolve();
    },
    live: () => Promise.resolve(rows),
    unheld: () => Promise.resolve(2),
  };
  const errors = new RecentErrors(() => clock.now);
  const service = new SystemStatusService(store, {
    owner: 'me',
    mode,
    robot,
    recentErrors: errors,
    now: () => clock.now,
  });
  return { service, state, clock, errors };
}

describe('SystemStatusService', () => {
  it('embedded: this process alone, with its accounts, tick lag and last errors', async () => {
    const { service, errors } = setUp('embedded');
    errors.add('broker connection lost');
    const status = await service.status();
    expect(status.unheldAccounts).toBe(0);
    expect(status.processes).toEqual([
      expect.objectContaining({
        process: 'me',
        self: true,
        accounts: 3,
        tickLagMs: 40,
        errors: [expect.objectContaining({ message: 'broker connection lost' })],
      }),
    ]);
  });

  it('counts lease moves of the last hour only, and not again across reads', async () => {
    const { service, state, clock } = setUp('embedded');
    await service.status();
    state.stats = statsOf(4);
    await service.status();
    state.stats = statsOf(4);
    expect((await service.status()).processes[0]?.leaseMoves.claimed).toBe(4);
    clock.now += 61 * 60 * 1000;
    state.stats = statsOf(5);
    expect((await service.status()).processes[0]?.leaseMoves.claimed).toBe(1);
    // A restarted thread counts from zero again: its counts are not subtracted from the old.
    state.stats = statsOf(2, 'run-2');
    expect((await service.status()).processes[0]?.leaseMoves.claimed).toBe(3);
  });

  it('scaled: other processes from their stored reports, none shown as zeros, unheld counted', async () => {
    const { service } = setUp('scaled', [
      { owner: 'me', report: null, accounts: 3 },
      {
        owner: 'other',
        accounts: 5,
        report: {
          at: '2026-11-29T02:59:50.000Z',
          tickLagMs: 1200,
          leaseMoves: { claimed: 1, lost: 0, released: 0 },
          errors: [],
        },
      },
      { owner: 'silent', report: { something: 'else' }, accounts: 1 },
    ]);
    const status = await service.status();
    expect(status.unheldAccounts).toBe(2);
    expect(status.processes.map((p) => [p.process, p.self, p.accounts, p.tickLagMs])).toEqual([
      ['me', true, 3, 40],
      ['other', false, 5, 1200],
      ['silent', false, 1, null],
    ]);
  });

  it('publishes this process report; without a robot here, nothing', async () => {
    const { service, state } = setUp('scaled');
    await service.publish();
    expect(state.stored).toEqual([expect.objectContaining({ tickLagMs: 40 })]);
    const bare = new SystemStatusService(
      {
        storeReport: () => Promise.reject(new Error('not here')),
        live: () => Promise.resolve([]),
        unheld: () => Promise.resolve(0),
      },
      {
        owner: 'x',
        mode: 'scaled',
        robot: undefined,
        recentErrors: new RecentErrors(),
        now: () => start,
      },
    );
    await expect(bare.publish()).resolves.toBeUndefined();
  });
});
