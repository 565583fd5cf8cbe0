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
} from './helpers/leases';

// Issue 21, proofs 2 and 3 at their exact moments (decision 092, amended): a robot process is
// made to kill itself with SIGKILL (ROBOT_TEST_ONLY_CRASH_AT, tests only) right after the
// platform recorded a fill the robot has not stored, or right after an intent was stored and
// before it was sent. The next owner reconciles at its takeover.
const timing = { leaseMs: 3_000, renewMs: 300, marginMs: 1_000, tickMs: 1_000, speed: 20 };
const accounts = 10;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(what: string, check: () => Promise<boolean>, timeoutMs = 60_000) {
  const deadline = performance.now() + timeoutMs;
  while (!(await check())) {
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

describe.skipIf(testEngine !== 'postgres')('kill -9 at an exact point of an order', () => {
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
    await seedPlatformAccounts(db, accounts, { trading: true });
  });
  afterEach(async () => {
    for (const robot of robots) {
      robot.child.kill('SIGKILL');
      await robot.exited;
    }
    robots = [];
    await test.drop();
  });

  const start = (owner: string, crashAt?: LeasingRobotOptions['crashAt']) => {
    const robot = startLeasingRobot({ ...options, owner, ...(crashAt ? { crashAt } : {}) });
    robots.push(robot);
    return robot;
  };

  const ids = async (query: ReturnType<typeof sql>) =>
    rowsOf<{ id: string }>(await db.execute(query)).map((row) => row.id);

  /** The crashing process dies by its own SIGKILL; b takes over after the lease and trades. */
  async function crashThenTakeOver(point: NonNullable<LeasingRobotOptions['crashAt']>) {
    const a = start('a', point);
    const signal = await new Promise<NodeJS.Signals | null>((resolve) => {
      a.child.once('exit', (_code, killedBy) => {
        resolve(killedBy);
      });
    });
    robots = robots.filter((robot) => robot !== a);
    expect(signal).toBe('SIGKILL');
    return {
      takeOver: async () => {
        start('b');
        await until(
          'b to hold every account',
          async () => (await holdings(db)).get('b') === accounts,
        );
        await sleep(2_000);
        for (const robot of robots) robot.child.kill('SIGTERM');
        for (const robot of robots) expect(await robot.exited).toBe(0);
        robots = [];
      },
    };
  }

  it('after the platform accepted an order, before the fill was stored: one order, its operation once', async () => {
    const { takeOver } = await crashThenTakeOver('platform-accepted');
    // The moment is the one asked for: fills at the platform without their operation.
    const orphans = await ids(sql`
      select p.client_order_id as id from platform_orders p
      where p.outcome = 'filled'
        and not exists (select 1 from operations o where o.client_order_id = p.client_order_id)`);
    expect(orphans.length).toBeGreaterThan(0);
    await takeOver();
    const list = `{${orphans.join(',')}}`;
    const perOrder = rowsOf<{ id: string; orders: string | number; operations: string | number }>(
      await db.execute(sql`
        select i.client_order_id as id, i.status,
          (select count(*) from platform_orders p where p.client_order_id = i.client_order_id) as orders,
          (select count(*) from operations o where o.client_order_id = i.client_order_id) as operations
        from order_intents i where i.client_order_id = any(${list}::text[])`),
    );
    expect(perOrder).toHaveLength(orphans.length);
    for (const row of perOrder) {
      expect({ ...row, orders: Number(row.orders), operations: Number(row.operations) }).toEqual({
        ...row,
        status: 'filled',
        orders: 1,
        operations: 1,
      });
    }
    expect(await ledgerDifferences(db)).toEqual([]);
  }, 90_000);

  it('between storing an intent and sending it: never sent late, nothing twice', async () => {
    const { takeOver } = await crashThenTakeOver('intent-stored');
    // The moment is the one asked for: intents stored that the platform never received.
    const stranded = await ids(sql`
      select i.client_order_id as id from order_intents i
      where i.status = 'pending'
        and not exists (select 1 from platform_orders p where p.client_order_id = i.client_order_id)`);
    expect(stranded.length).toBeGreaterThan(0);
    await takeOver();
    const list = `{${stranded.join(',')}}`;
    const rows = rowsOf<{ status: string; orders: string | number }>(
      await db.execute(sql`
        select i.status,
          (select count(*) from platform_orders p where p.client_order_id = i.client_order_id) as orders
        from order_intents i where i.client_order_id = any(${list}::text[])`),
    );
    expect(rows).toHaveLength(stranded.length);
    // The next owner expired them (abandoned): the platform never saw them, and never will.
    expect(new Set(rows.map((row) => row.status))).toEqual(new Set(['expired']));
    expect(rows.every((row) => Number(row.orders) === 0)).toBe(true);
    const pending = await ids(
      sql`select client_order_id as id from order_intents where status = 'pending'`,
    );
    expect(pending).toEqual([]);
    expect(await ledgerDifferences(db)).toEqual([]);
  }, 90_000);
});
