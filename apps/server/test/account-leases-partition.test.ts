import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Db } from '../src/db/database';
import { rowsOf } from '../src/db/migrate';
import { createTestDatabase, testEngine, type TestDatabase } from './helpers/database';
import {
  holdings,
  ledgerDifferences,
  robotTimeAt,
  seedPlatformAccounts,
  startLeasingRobot,
  type LeasingRobot,
  type LeasingRobotOptions,
} from './helpers/leases';
import { startTcpProxy, type TcpProxy } from './helpers/tcp-proxy';

// Issue 21, proof 5 (decision 092, amended): a robot process cut off from PostgreSQL by a
// network partition (a loopback proxy holding its packets) stops sending orders before its
// lease can lapse, another process claims the accounts once it has, and the partitioned one's
// writes, delivered when the network heals, change 0 rows. Short leases keep the file short.
const leaseMs = 3_000;
const timing = { leaseMs, renewMs: 300, marginMs: 1_000, tickMs: 1_000, speed: 20 };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(what: string, check: () => Promise<boolean>, timeoutMs = 60_000) {
  const deadline = performance.now() + timeoutMs;
  while (!(await check())) {
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

describe.skipIf(testEngine !== 'postgres')('a robot process cut off from PostgreSQL', () => {
  let test: TestDatabase;
  let db: Db;
  let proxy: TcpProxy;
  let robots: LeasingRobot[] = [];
  let options: Omit<LeasingRobotOptions, 'owner'>;

  beforeEach(async () => {
    test = await createTestDatabase();
    db = test.database.db;
    const url = new URL(process.env.TEST_DATABASE_URL ?? '');
    proxy = await startTcpProxy({ host: url.hostname, port: Number(url.port || 5432) });
    options = {
      databaseUrl: process.env.TEST_DATABASE_URL ?? '',
      schema: test.schema,
      wallOrigin: Date.now(),
      ...timing,
    };
  });
  afterEach(async () => {
    for (const robot of robots) {
      robot.child.kill('SIGKILL');
      await robot.exited;
    }
    robots = [];
    await proxy.close();
    await test.drop();
  });

  const start = (owner: string, databaseUrl = options.databaseUrl) => {
    const robot = startLeasingRobot({ ...options, databaseUrl, owner });
    robots.push(robot);
    return robot;
  };

  it('stops in time, loses its accounts to another after the lease, and its late writes change 0 rows', async () => {
    await seedPlatformAccounts(db, 30, { trading: true });
    // a reaches PostgreSQL only through the proxy; b directly.
    const a = start('a', proxy.url(options.databaseUrl));
    await until('a to hold every account', async () => (await holdings(db)).get('a') === 30);
    const b = start('b');
    await until('a and b to share', async () => {
      const held = await holdings(db);
      return held.get('a') === 15 && held.get('b') === 15;
    });
    const ofA = new Set(
      rowsOf<{ account_id: string }>(
        await db.execute(sql`select account_id from robot_leases where owner = 'a'`),
      ).map((row) => row.account_id),
    );
    // Cut while a trades: its latest run (accounts settle in steps, a run each) has orders.
    const runOf = (robot: LeasingRobot) =>
      Number(
        /^leases: run (\d+) /.exec(
          robot.lines.filter((line) => line.message?.startsWith('leases: run ') === true).at(-1)
            ?.message ?? '',
        )?.[1] ?? 0,
      );
    await until('a to trade in its latest run', async () => {
      const block = runOf(a);
      const orders = rowsOf<{ n: string | number }>(
        await db.execute(sql`
          select count(*) as n from platform_orders
          where position_number between ${block * 1_000_000_000} and ${(block + 1) * 1_000_000_000 - 1}`),
      )[0];
      return Number(orders?.n) >= 5 && runOf(a) === block;
    });

    // The partition begins as a sends an order intent: that write is in flight, held back.
    const cutAt = await proxy.holdAt('insert into "order_intents"');
    // a's round hangs on the held packets; its own clock stops it before the lease can lapse.
    const stopped = await a.waitFor(
      (line) =>
        line.at >= cutAt &&
        line.message?.startsWith('leases: stopped trading accounts') === true &&
        (line.accounts ?? []).some((id) => ofA.has(id)),
      leaseMs * 3,
    );
    expect(new Set(stopped.accounts)).toEqual(ofA);
    expect(stopped.at - cutAt).toBeLessThan(leaseMs);
    // b claims them once the lease has lapsed, after a stopped.
    await until('b to take every account', async () => (await holdings(db)).get('b') === 30);
    const claimed = b.lines.filter(
      (line) =>
        line.at >= cutAt &&
        line.message === 'leases: claimed accounts' &&
        (line.accounts ?? []).some((id) => ofA.has(id)),
    );
    expect(claimed.length).toBeGreaterThan(0);
    expect(Math.min(...claimed.map((line) => line.at))).toBeGreaterThanOrEqual(stopped.at);
    await sleep(1_000);

    // The network heals: what a sent during the partition reaches PostgreSQL now, too late.
    const healedAt = Date.now();
    proxy.pass();
    const refused = await a.waitFor(
      (line) =>
        line.at >= healedAt &&
        (line.message ?? '').endsWith(' not written: a lease of this run has moved on'),
      20_000,
    );
    expect(Number(/^leases: (\d+) /.exec(refused.message ?? '')?.[1])).toBeGreaterThan(0);
    // No order of the run a had at the cut settled at the platform after the cut (b closes the
    // positions it took over; those closures are b's).
    const runs = a.lines.filter(
      (line) => line.at < cutAt && (line.message ?? '').startsWith('leases: run '),
    );
    const block = Number(/^leases: run (\d+) /.exec(runs.at(-1)?.message ?? '')?.[1]);
    expect(block).toBeGreaterThan(0);
    const cutRobotTime = new Date(robotTimeAt({ ...options, owner: 'a' }, cutAt)).toISOString();
    const late = rowsOf<{ n: string | number }>(
      await db.execute(sql`
        select count(*) as n from platform_orders
        where position_number between ${block * 1_000_000_000} and ${(block + 1) * 1_000_000_000 - 1}
          and settled_at > ${cutRobotTime}::timestamptz`),
    )[0];
    expect(Number(late?.n)).toBe(0);

    // a comes back to work: it takes a share again and trades, and the books are exact.
    await until('a and b to share again', async () => {
      const held = await holdings(db);
      return held.get('a') === 15 && held.get('b') === 15;
    });
    await sleep(1_500);
    for (const robot of robots) robot.child.kill('SIGTERM');
    for (const robot of robots) expect(await robot.exited).toBe(0);
    robots = [];
    expect(await ledgerDifferences(db)).toEqual([]);
    const pending = rowsOf<{ n: string | number }>(
      await db.execute(sql`select count(*) as n from order_intents where status = 'pending'`),
    )[0];
    expect(Number(pending?.n)).toBe(0);
  }, 120_000);
});
