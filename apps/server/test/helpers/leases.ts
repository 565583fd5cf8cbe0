import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { Db } from '../../src/db/database';
import { rowsOf } from '../../src/db/migrate';

/**
 * Accounts at the built-in platform, as the robot opens them; `trading` also switches their
 * robot on for crypto (24/7 markets, so a test trades on any day).
 */
export async function seedPlatformAccounts(
  db: Db,
  count: number,
  options: { trading?: boolean } = {},
): Promise<string[]> {
  const ids = Array.from({ length: count }, () => randomUUID());
  const list = `{${ids.join(',')}}`;
  await db.execute(sql`
    insert into users (id, name, last_name, email, password_hash)
    select id, 'Ana', 'Lease', id::text || '@example.com', 'x' from unnest(${list}::uuid[]) as id`);
  await db.execute(sql`
    insert into platform_accounts (account_id, opened_at, deposits_cents, balance_cents)
    select id, now(), 1000000, 1000000 from unnest(${list}::uuid[]) as id`);
  if (options.trading) {
    await db.execute(sql`
      insert into user_settings (user_id, bot_on, risk, categories_enabled, linked, authorized)
      select id, true, 3, '{"cripto": true}'::jsonb, true, true from unnest(${list}::uuid[]) as id`);
  }
  return ids;
}

/** One line a leasing robot process wrote (test/helpers/leasing-robot.ts). */
export interface RobotLine {
  readonly at: number;
  readonly type: string;
  readonly message?: string;
  readonly accounts?: readonly string[];
}

export interface LeasingRobot {
  readonly owner: string;
  readonly child: ChildProcess;
  readonly lines: RobotLine[];
  readonly exited: Promise<number | null>;
  /** Resolves once a line satisfies `test` (already written or to come). */
  waitFor(test: (line: RobotLine) => boolean, timeoutMs?: number): Promise<RobotLine>;
}

export interface LeasingRobotOptions {
  readonly databaseUrl: string;
  readonly schema: string;
  readonly owner: string;
  readonly leaseMs: number;
  readonly renewMs: number;
  readonly marginMs: number;
  readonly tickMs: number;
  /** Wall time the processes of one test share as the robot's time origin. */
  readonly wallOrigin: number;
  /** Simulated milliseconds per wall millisecond (TP and SL are reached sooner). */
  readonly speed: number;
  /** A test-only crash point: the process kills itself with SIGKILL there (decision 092). */
  readonly crashAt?: 'intent-stored' | 'platform-accepted';
  /** The most accounts the process holds (1,000 unless set). */
  readonly capacity?: number;
  /** How long SIGUSR2 keeps the robot's thread busy. */
  readonly busyMs?: number;
}

/** The robot's time at a wall time, for processes started with these options. */
export function robotTimeAt(options: LeasingRobotOptions, wall: number): number {
  return options.wallOrigin + (wall - options.wallOrigin) * options.speed;
}

/** Starts a leasing robot process (node itself, tsx as a loader: the pid signalled is its own). */
export function startLeasingRobot(options: LeasingRobotOptions): LeasingRobot {
  const script = path.resolve(import.meta.dirname, 'leasing-robot.ts');
  const child = spawn(process.execPath, ['--import', 'tsx', script], {
    env: {
      ...process.env,
      DATABASE_URL: options.databaseUrl,
      SCHEMA: options.schema,
      OWNER: options.owner,
      LEASE_MS: String(options.leaseMs),
      RENEW_MS: String(options.renewMs),
      MARGIN_MS: String(options.marginMs),
      TICK_MS: String(options.tickMs),
      ORIGIN: String(options.wallOrigin),
      WALL_ORIGIN: String(options.wallOrigin),
      SPEED: String(options.speed),
      ...(options.crashAt ? { CRASH_AT: options.crashAt } : {}),
      ...(options.capacity ? { CAPACITY: String(options.capacity) } : {}),
      ...(options.busyMs ? { BUSY_MS: String(options.busyMs) } : {}),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: RobotLine[] = [];
  const waiters: { test: (line: RobotLine) => boolean; resolve: (line: RobotLine) => void }[] = [];
  let buffered = '';
  child.stdout.on('data', (chunk: Buffer) => {
    buffered += chunk.toString();
    let end: number;
    while ((end = buffered.indexOf('\n')) >= 0) {
      const text = buffered.slice(0, end);
      buffered = buffered.slice(end + 1);
      let line: RobotLine;
      try {
        line = JSON.parse(text) as RobotLine;
      } catch {
        continue;
      }
      lines.push(line);
      for (const waiter of [...waiters]) {
        if (!waiter.test(line)) continue;
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(line);
      }
    }
  });
  let errors = '';
  child.stderr.on('data', (chunk: Buffer) => {
    errors += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => {
    child.on('exit', (code) => {
      if (errors.trim() !== '' && code !== 0 && code !== null) {
        process.stderr.write(`${options.owner}: ${errors}\n`);
      }
      resolve(code);
    });
  });
  return {
    owner: options.owner,
    child,
    lines,
    exited,
    waitFor(test, timeoutMs = 30_000) {
      const found = lines.find(test);
      if (found) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          reject(new Error(`${options.owner}: no such line within ${String(timeoutMs)} ms`));
        }, timeoutMs);
        waiters.push({
          test,
          resolve: (line) => {
            clearTimeout(timer);
            resolve(line);
          },
        });
      });
    },
  };
}

/** How many accounts each owner holds now. */
export async function holdings(db: Db): Promise<Map<string, number>> {
  const rows = rowsOf<{ owner: string; n: string | number }>(
    await db.execute(sql`
      select owner, count(*) as n from robot_leases
      where owner <> '' and lease_until > now() group by owner`),
  );
  return new Map(rows.map((row) => [row.owner, Number(row.n)]));
}

/**
 * The books of the robot and of the platform, compared: every order the platform filled has
 * exactly one operation and every operation one filled order, closed alike with the same
 * profit; every intent marked filled has its operation; and each platform account's balance is
 * its deposits plus the profit of its closed orders. Returns what differs (empty: exact).
 */
export async function ledgerDifferences(db: Db): Promise<string[]> {
  const differences: string[] = [];
  const count = async (query: ReturnType<typeof sql>) =>
    Number(rowsOf<{ n: string | number }>(await db.execute(query))[0]?.n ?? 0);
  const checks: [string, ReturnType<typeof sql>][] = [
    [
      'filled platform orders without an operation',
      sql`select count(*) as n from platform_orders p where p.outcome = 'filled'
        and not exists (select 1 from operations o where o.client_order_id = p.client_order_id)`,
    ],
    [
      'operations without a filled platform order',
      sql`select count(*) as n from operations o where not exists (
        select 1 from platform_orders p
        where p.client_order_id = o.client_order_id and p.outcome = 'filled'
          and p.position_id = o.position_id and p.account_id = o.account_id)`,
    ],
    [
      'closures that differ between the robot and the platform',
      sql`select count(*) as n from operations o join platform_orders p
        on p.client_order_id = o.client_order_id
        where (o.close_reason = 'open') <> (p.closed_at is null)
          or (p.closed_at is not null and o.profit_cents <> p.close_profit_cents)`,
    ],
    [
      'intents marked filled without an operation',
      sql`select count(*) as n from order_intents i where i.status = 'filled'
        and not exists (select 1 from operations o where o.client_order_id = i.client_order_id)`,
    ],
    [
      'operations whose intent is not marked filled',
      sql`select count(*) as n from operations o join order_intents i
        on i.client_order_id = o.client_order_id where i.status <> 'filled'`,
    ],
    [
      'platform orders without an intent',
      sql`select count(*) as n from platform_orders p where not exists (
        select 1 from order_intents i where i.client_order_id = p.client_order_id)`,
    ],
    [
      'accounts whose balance is not deposits plus closed profit',
      sql`select count(*) as n from platform_accounts a where a.balance_cents <>
        a.deposits_cents + coalesce((select sum(close_profit_cents) from platform_orders p
          where p.account_id = a.account_id and p.closed_at is not null), 0)`,
    ],
  ];
  for (const [what, query] of checks) {
    const n = await count(query);
    if (n > 0) differences.push(`${String(n)} ${what}`);
  }
  return differences;
}
