/**
 * `npm run bench:lease-throughput` (decision 092, amended): orders per second and server CPU per
 * account with 1, 2 and 3 leasing robot processes on one PostgreSQL, in one run, at each number
 * of accounts. For each (accounts, processes): a schema of its own on PostgreSQL (DATABASE_URL,
 * default the local `test` database; dropped after), ACCOUNTS trading accounts (default "1000";
 * a list, e.g. "1000,10000"), PROCESSES leasing robot processes (default "1,2,3";
 * test/helpers/leasing-robot.ts: a strategy that signals on every tick, market ×20, 15 s leases
 * renewed every second; CAPACITY "share", the default, gives each process a capacity of its
 * share, ceil(accounts / processes), so the first to start cannot take every account and hand
 * them over a tenth of a share a round; "all" gives each the whole set, as before). No ANALYZE:
 * the schema is as fresh as a new database's, statistics or not (decision 092, amended).
 * Once every account is held and shared, and SETTLE_MS later (default
 * 30 s: a fresh account first opens operations up to its exposure cap), for WINDOW_MS (20 s):
 * platform orders settled per second, CPU time of the robot processes and of the PostgreSQL
 * backends serving them (user + system, from /proc; PostgreSQL must run on this machine), and
 * rows PostgreSQL wrote in the schema (pg_stat_user_tables). The first process count
 * of each account count is the baseline its ratios are measured against; the run's first
 * measurement is the baseline of the `…VsFirst` ratios (per account, across account counts).
 */
import fs from 'node:fs';
import { sql } from 'drizzle-orm';

process.env.TEST_DB_ENGINE = 'postgres';
process.env.TEST_DATABASE_URL ??=
  process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const { createTestDatabase } = await import('../test/helpers/database');
const { holdings, seedPlatformAccounts, startLeasingRobot } =
  await import('../test/helpers/leases');
const { rowsOf } = await import('../src/db/migrate');

const list = (text: string) => text.split(',').map((part) => Number(part.trim()));
const accountCounts = list(process.env.ACCOUNTS ?? '1000');
const processCounts = list(process.env.PROCESSES ?? '1,2,3');
const windowMs = Number(process.env.WINDOW_MS ?? 20_000);
const settleMs = Number(process.env.SETTLE_MS ?? 30_000);
const capacityMode = process.env.CAPACITY ?? 'share';
if (capacityMode !== 'share' && capacityMode !== 'all') throw new Error('CAPACITY: share or all');
const timing = { leaseMs: 15_000, renewMs: 1_000, marginMs: 5_000, tickMs: 1_000, speed: 20 };
const clockTicks = 100; // getconf CLK_TCK on Linux
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** CPU seconds (user + system) a process has used so far, from /proc/<pid>/stat. */
function cpuSeconds(pid: number): number {
  const stat = fs.readFileSync(`/proc/${String(pid)}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // Fields 14 and 15 of the file (utime, stime): 11 and 12 after the name.
  return (Number(fields[11]) + Number(fields[12])) / clockTicks;
}

async function until(what: string, check: () => Promise<boolean>, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(250);
  }
}

interface Result {
  accounts: number;
  processes: number;
  ordersPerSecond: number;
  cpuCores: number;
  cpuMsPerAccountSecond: number;
  cpuMsPerOrder: number;
  /** CPU of PostgreSQL's backends serving the robot processes, in cores. */
  postgresCores: number;
  postgresMsPerOrder: number;
  pgRowsPerSecond: number;
  startMs: number;
  /** Accounts the processes lost (self-fenced: a renewal not back in time), start to end. */
  accountsLost: number;
}

async function measure(accounts: number, processes: number): Promise<Result> {
  const test = await createTestDatabase();
  const db = test.database.db;
  const robots: ReturnType<typeof startLeasingRobot>[] = [];
  let application = '';
  try {
    await seedPlatformAccounts(db, accounts, { trading: true });
    // The robot processes' PostgreSQL backends are told apart by their application name.
    application = `lease-bench-${test.schema}`;
    const databaseUrl = new URL(process.env.TEST_DATABASE_URL ?? '');
    databaseUrl.searchParams.set('application_name', application);
    const options = {
      databaseUrl: databaseUrl.toString(),
      schema: test.schema,
      wallOrigin: Date.now(),
      capacity: capacityMode === 'share' ? Math.ceil(accounts / processes) : accounts,
      ...timing,
    };
    const started = Date.now();
    for (let i = 0; i < processes; i++) {
      robots.push(startLeasingRobot({ ...options, owner: `p${String(i + 1)}` }));
    }
    // Shares are ceil(accounts / processes): the last process may hold a few less.
    const fair = Math.floor(accounts / processes) - processes;
    await until(
      'every account held and shared',
      async () => {
        const held = [...(await holdings(db)).values()];
        const total = held.reduce((sum, n) => sum + n, 0);
        return held.length === processes && total === accounts && held.every((n) => n >= fair);
      },
      600_000,
    );
    const startMs = Date.now() - started;
    console.error(
      `${String(accounts)} accounts, ${String(processes)} processes: shared in ${String(startMs)} ms`,
    );
    // Runs restart as accounts move, and a fresh account first opens operations up to its
    // exposure cap: measure the steady state after that burst.
    await sleep(settleMs);
    const orders = async () =>
      Number(
        rowsOf<{ n: string | number }>(
          await db.execute(sql`select count(*) as n from platform_orders`),
        )[0]?.n ?? 0,
      );
    const rowsWritten = async () =>
      Number(
        rowsOf<{ n: string | number }>(
          await db.execute(sql`
            select coalesce(sum(n_tup_ins + n_tup_upd + n_tup_del), 0) as n
            from pg_stat_user_tables where schemaname = ${test.schema}`),
        )[0]?.n ?? 0,
      );
    const cpu = () => robots.reduce((sum, robot) => sum + cpuSeconds(robot.child.pid ?? 0), 0);
    // PostgreSQL's CPU for these processes: their backends' (on this machine), each backend's
    // last reading kept if it ends during the window.
    const backends = new Map<number, number>();
    const postgresCpu = async () => {
      const pids = rowsOf<{ pid: number }>(
        await db.execute(
          sql`select pid from pg_stat_activity where application_name = ${application}`,
        ),
      );
      for (const { pid } of pids) {
        try {
          backends.set(pid, cpuSeconds(pid));
        } catch {
          // ended between the query and the read: its last reading stays
        }
      }
      return [...backends.values()].reduce((sum, seconds) => sum + seconds, 0);
    };
    const reading = async () => ({
      at: Date.now(),
      orders: await orders(),
      rows: await rowsWritten(),
      cpu: cpu(),
      postgres: await postgresCpu(),
    });
    const before = await reading();
    await sleep(windowMs);
    const after = await reading();
    const seconds = (after.at - before.at) / 1000;
    const cpuCores = (after.cpu - before.cpu) / seconds;
    const postgresCores = (after.postgres - before.postgres) / seconds;
    return {
      accounts,
      processes,
      ordersPerSecond: (after.orders - before.orders) / seconds,
      cpuCores,
      cpuMsPerAccountSecond: (cpuCores * 1000) / accounts,
      cpuMsPerOrder: ((after.cpu - before.cpu) * 1000) / Math.max(1, after.orders - before.orders),
      postgresCores,
      postgresMsPerOrder:
        ((after.postgres - before.postgres) * 1000) / Math.max(1, after.orders - before.orders),
      pgRowsPerSecond: (after.rows - before.rows) / seconds,
      startMs,
      accountsLost: robots
        .flatMap((robot) => robot.lines)
        .filter((line) => line.message?.startsWith('leases: stopped trading accounts') ?? false)
        .reduce((sum, line) => sum + (line.accounts?.length ?? 0), 0),
    };
  } finally {
    for (const robot of robots) {
      robot.child.kill('SIGKILL');
      await robot.exited;
    }
    // A killed process's backend may still be in a statement (holding locks the schema's drop
    // would wait for, or deadlock with): end them first.
    await until(
      'the robot processes to leave PostgreSQL',
      async () => {
        const left = rowsOf(
          await db.execute(sql`
            select pg_terminate_backend(pid) from pg_stat_activity
            where application_name = ${application}`),
        );
        return left.length === 0;
      },
      30_000,
    );
    await test.drop();
  }
}

const results: Result[] = [];
for (const accounts of accountCounts) {
  for (const processes of processCounts) {
    const result = await measure(accounts, processes);
    results.push(result);
    const base = results.find((r) => r.accounts === accounts);
    const first = results[0];
    const ratio = (value: number, baseline: number | undefined) =>
      baseline ? (value / baseline).toFixed(2) : 'n/a';
    console.log(
      JSON.stringify({
        ...result,
        ordersPerSecond: Math.round(result.ordersPerSecond * 10) / 10,
        cpuCores: Math.round(result.cpuCores * 100) / 100,
        cpuMsPerAccountSecond: Math.round(result.cpuMsPerAccountSecond * 1000) / 1000,
        cpuMsPerOrder: Math.round(result.cpuMsPerOrder * 100) / 100,
        postgresCores: Math.round(result.postgresCores * 100) / 100,
        postgresMsPerOrder: Math.round(result.postgresMsPerOrder * 100) / 100,
        pgRowsPerSecond: Math.round(result.pgRowsPerSecond),
        ordersRatio: ratio(result.ordersPerSecond, base?.ordersPerSecond),
        cpuPerAccountRatio: ratio(result.cpuMsPerAccountSecond, base?.cpuMsPerAccountSecond),
        ordersPerAccountVsFirst: ratio(
          result.ordersPerSecond / result.accounts,
          first && first.ordersPerSecond / first.accounts,
        ),
        cpuPerAccountVsFirst: ratio(result.cpuMsPerAccountSecond, first?.cpuMsPerAccountSecond),
        postgresMsPerOrderVsFirst: ratio(result.postgresMsPerOrder, first?.postgresMsPerOrder),
      }),
    );
  }
}
process.exit(0);
