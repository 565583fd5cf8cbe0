import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Db } from '../src/db/database';
import { rowsOf } from '../src/db/migrate';
import { createTestDatabase, testEngine, type TestDatabase } from './helpers/database';
import {
  holdings,
  ledgerDifferences,
  seedPlatformAccounts,
  startLeasingRobot,
  type LeasingRobot,
  type LeasingRobotOptions,
  type RobotLine,
  robotTimeAt,
} from './helpers/leases';

// Issue 21 (decision 092): several robot processes on one PostgreSQL hold the trading accounts
// by lease. Short leases, so that the whole file stays within a few minutes on a loaded machine.
const leaseMs = 3_000;
const timing = { leaseMs, renewMs: 300, marginMs: 1_000, tickMs: 1_000, speed: 20 };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(
  what: string,
  check: () => Promise<boolean>,
  timeoutMs = 60_000,
  state: () => Promise<unknown> = () => Promise.resolve(''),
) {
  const deadline = performance.now() + timeoutMs;
  while (!(await check())) {
    if (performance.now() > deadline) {
      throw new Error(`timed out waiting for ${what} ${JSON.stringify(await state())}`);
    }
    await sleep(100);
  }
}

/** Samples the lease table every 100 ms: owners and tokens per account, as they went. */
function sampleLeases(db: Db) {
  const last = new Map<string, { owner: string; token: number }>();
  const problems: string[] = [];
  let samples = 0;
  let moves = 0;
  const state = { running: true };
  const done = (async () => {
    while (state.running) {
      let rows: { account_id: string; owner: string; token: string | number }[];
      try {
        rows = rowsOf(await db.execute(sql`select account_id, owner, token from robot_leases`));
      } catch (error) {
        problems.push(`sampling failed: ${String(error)}`);
        break;
      }
      samples++;
      for (const row of rows) {
        const token = Number(row.token);
        const before = last.get(row.account_id);
        if (before) {
          if (token < before.token) problems.push(`${row.account_id}: token went back`);
          if (
            row.owner !== '' &&
            before.owner !== '' &&
            row.owner !== before.owner &&
            token <= before.token
          ) {
            problems.push(`${row.account_id}: a new owner with the same token`);
          }
          if (row.owner !== before.owner && row.owner !== '') moves++;
        }
        last.set(row.account_id, { owner: row.owner, token });
      }
      await sleep(100);
    }
  })();
  return {
    async stop() {
      state.running = false;
      await done;
      return { samples, moves, problems, last };
    },
  };
}

describe.skipIf(testEngine !== 'postgres')('account leases with several robot processes', () => {
  let test: TestDatabase;
  let db: Db;
  let robots: LeasingRobot[] = [];
  let options: Omit<LeasingRobotOptions, 'owner'>;

  beforeEach(async () => {
    test = await createTestDatabase();
    db = test.database.db;
    options = {
      databaseUrl: process.env.TEST_DATABASE_URL ?? '',
      schema: test.schema,
      wallOrigin: Date.now(),
      ...timing,
    };
  });
  afterEach(async () => {
    for (const robot of robots) {
      robot.child.kill('SIGCONT');
      robot.child.kill('SIGKILL');
      await robot.exited;
    }
    robots = [];
    await test.drop();
  });

  const start = (owner: string) => {
    const robot = startLeasingRobot({ ...options, owner });
    robots.push(robot);
    return robot;
  };

  const stopAll = async () => {
    // A process still loading (slow on a loaded machine) has no SIGTERM handler yet, and would
    // die of the signal rather than stop: signal each once it is ready, or it has ended.
    await Promise.all(
      robots.map((robot) =>
        Promise.race([robot.waitFor((line) => line.type === 'ready', 90_000), robot.exited]),
      ),
    );
    for (const robot of robots) robot.child.kill('SIGTERM');
    for (const robot of robots) expect(await robot.exited).toBe(0);
    robots = [];
  };

  it('three processes share 300 accounts: one owner each, tokens only grow, the books agree', async () => {
    await seedPlatformAccounts(db, 300, { trading: true });
    const sampler = sampleLeases(db);
    const a = start('a');
    await until('a to hold every account', async () => (await holdings(db)).get('a') === 300);
    start('b');
    start('c');
    // The newcomers take their share from a, gradually.
    await until(
      'the accounts to be shared',
      async () => {
        const held = await holdings(db);
        return ['a', 'b', 'c'].every((owner) => (held.get(owner) ?? 0) >= 95);
      },
      90_000,
      async () => [...(await holdings(db))],
    );
    // Trading goes on once shared.
    await sleep(3_000);
    await stopAll();
    const { samples, moves, problems } = await sampler.stop();
    expect(problems).toEqual([]);
    expect(samples).toBeGreaterThan(50);
    expect(moves).toBeGreaterThanOrEqual(190);
    expect(a.lines.some((line) => line.message?.startsWith('leases: released') === true)).toBe(
      true,
    );
    const traded = rowsOf<{ n: string | number; accounts: string | number }>(
      await db.execute(
        sql`select count(*) as n, count(distinct account_id) as accounts from operations`,
      ),
    )[0];
    expect(Number(traded?.n)).toBeGreaterThan(300);
    expect(Number(traded?.accounts)).toBeGreaterThan(250);
    expect(await ledgerDifferences(db)).toEqual([]);
    // Every lease went back at SIGTERM.
    expect((await holdings(db)).size).toBe(0);
  }, 180_000);

  it('a process paused past its lease sends nothing for the accounts it lost, and says so', async () => {
    const ids = await seedPlatformAccounts(db, 30, { trading: true });
    const a = start('a');
    await until('a to hold every account', async () => (await holdings(db)).get('a') === 30);
    start('b');
    await until('a and b to share', async () => {
      const held = await holdings(db);
      return held.get('a') === 15 && held.get('b') === 15;
    });
    const ofA = new Set(
      rowsOf<{ account_id: string }>(
        await db.execute(sql`select account_id from robot_leases where owner = 'a'`),
      ).map((row) => row.account_id),
    );
    await sleep(1_000);
    a.child.kill('SIGSTOP');
    const pausedAt = Date.now();
    await until('b to take every account', async () => (await holdings(db)).get('b') === 30);
    await sleep(leaseMs);
    a.child.kill('SIGCONT');
    const lost = await a.waitFor(
      (line) => line.message?.startsWith('leases: stopped trading accounts') === true,
    );
    expect(new Set(lost.accounts)).toEqual(ofA);
    // a goes on, with a share of its own again later; b's orders and a's are told apart by the
    // blocks their runs number positions from.
    await sleep(2_000);
    await stopAll();
    const blocksOfA = a.lines.flatMap((line) => {
      const match = /^leases: run (\d+) /.exec(line.message ?? '');
      return match ? [Number(match[1])] : [];
    });
    expect(blocksOfA.length).toBeGreaterThan(0);
    // Nothing a's runs from before the pause settled after it, for any account.
    const lastRunBeforePause = a.lines.filter(
      (line) => line.at < pausedAt && (line.message ?? '').startsWith('leases: run '),
    );
    const block = Number(/^leases: run (\d+) /.exec(lastRunBeforePause.at(-1)?.message ?? '')?.[1]);
    const late = rowsOf<{ n: string | number }>(
      await db.execute(sql`
        select count(*) as n from platform_orders
        where position_number between ${block * 1_000_000_000} and ${(block + 1) * 1_000_000_000 - 1}
          and settled_at > ${new Date(robotTimeAt({ ...options, owner: 'a' }, pausedAt)).toISOString()}::timestamptz`),
    )[0];
    expect(Number(late?.n)).toBe(0);
    const traded = rowsOf<{ n: string | number; closed: string | number }>(
      await db.execute(sql`
        select count(*) as n, count(*) filter (where close_reason <> 'open') as closed
        from operations where account_id = any(${`{${ids.join(',')}}`}::uuid[])`),
    )[0];
    expect(Number(traded?.n)).toBeGreaterThan(30);
    expect(Number(traded?.closed)).toBeGreaterThan(0);
    expect(await ledgerDifferences(db)).toEqual([]);
  }, 120_000);

  it('a robot thread busy for twice the lease keeps its leases: the keeper renews on its own thread', async () => {
    await seedPlatformAccounts(db, 30, { trading: true });
    const a = startLeasingRobot({ ...options, owner: 'a', busyMs: 2 * leaseMs });
    robots.push(a);
    await until('a to hold every account', async () => (await holdings(db)).get('a') === 30);
    // (Generous waits: a loaded machine starts a process slowly, which is not what is tested.)
    await a.waitFor((line) => line.type === 'ready', 90_000);
    a.child.kill('SIGUSR2');
    const busy = await a.waitFor((line) => line.type === 'busy', 30_000);
    // b starts and wants its share; only a's own release (by its busy thread) would give it one.
    start('b');
    // While a's robot thread spins, its 30 leases stay valid in the database and b claims none.
    const samples: (number | undefined)[] = [];
    const spin: { free?: RobotLine } = {};
    const freed = a
      .waitFor((line) => line.type === 'free', 20_000)
      .then((line) => {
        spin.free = line;
        return line;
      });
    while (!spin.free) {
      const held = await holdings(db);
      samples.push(held.get('a'));
      expect(held.get('b') ?? 0).toBe(0);
      await sleep(200);
    }
    const free = await freed;
    expect(free.at - busy.at).toBeGreaterThanOrEqual(2 * leaseMs - 100);
    expect(samples.length).toBeGreaterThan(10);
    expect(samples.every((count) => count === 30)).toBe(true);
    // Nothing was lost: a never fenced itself out of an account during the spin.
    const lostDuringSpin = a.lines.filter(
      (line) =>
        line.at >= busy.at &&
        line.at <= free.at + 1_000 &&
        (line.message ?? '').startsWith('leases: stopped trading accounts'),
    );
    expect(lostDuringSpin).toEqual([]);
    await stopAll();
    expect(await ledgerDifferences(db)).toEqual([]);
  }, 180_000);

  it('kill -9 while trading: the next owner reconciles, nothing is sent twice or lost', async () => {
    await seedPlatformAccounts(db, 60, { trading: true });
    const a = start('a');
    await until('a to hold every account', async () => (await holdings(db)).get('a') === 60);
    start('b');
    await until('a and b to share', async () => {
      const held = await holdings(db);
      return held.get('a') === 30 && held.get('b') === 30;
    });
    // a dies mid-wave: orders sent, fills and intents in flight (issue 21 proofs 2 and 3).
    await sleep(1_500);
    a.child.kill('SIGKILL');
    await a.exited;
    robots = robots.filter((robot) => robot !== a);
    await until('b to take every account', async () => (await holdings(db)).get('b') === 60);
    await sleep(2_000);
    await stopAll();
    expect(await ledgerDifferences(db)).toEqual([]);
    // Every intent a left was settled by b's reconciliation: filled once, or abandoned.
    const pending = rowsOf<{ n: string | number }>(
      await db.execute(sql`select count(*) as n from order_intents where status = 'pending'`),
    )[0];
    expect(Number(pending?.n)).toBe(0);
  }, 120_000);
});
