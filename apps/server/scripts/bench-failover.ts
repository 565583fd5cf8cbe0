/**
 * `npm run bench:failover` (decision 092): how long the accounts of a robot process killed with
 * SIGKILL go without an order. Two leasing robot processes (test/helpers/leasing-robot.ts, the
 * production lease timings unless LEASE_MS, RENEW_MS, MARGIN_MS say otherwise) share ACCOUNTS
 * (default 100) trading accounts on PostgreSQL (DATABASE_URL, default the local `test`
 * database, in a schema of its own, dropped after); one is killed, a new one takes its place,
 * KILLS times (default 3). For each account the killed process held: wall time from the kill to
 * the first order the platform settled for it afterwards. Prints p50, p99 and max against the
 * lease time.
 */
import { sql } from 'drizzle-orm';

process.env.TEST_DB_ENGINE = 'postgres';
process.env.TEST_DATABASE_URL ??=
  process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const { createTestDatabase } = await import('../test/helpers/database');
const { holdings, seedPlatformAccounts, startLeasingRobot } =
  await import('../test/helpers/leases');
const { rowsOf } = await import('../src/db/migrate');

const accounts = Number(process.env.ACCOUNTS ?? 100);
const kills = Number(process.env.KILLS ?? 3);
const leaseMs = Number(process.env.LEASE_MS ?? 15_000);
const timing = {
  leaseMs,
  renewMs: Number(process.env.RENEW_MS ?? 3_000),
  marginMs: Number(process.env.MARGIN_MS ?? 5_000),
  tickMs: 1_000,
  speed: 20,
};
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const test = await createTestDatabase();
const db = test.database.db;
const options = {
  databaseUrl: process.env.TEST_DATABASE_URL,
  schema: test.schema,
  wallOrigin: Date.now(),
  ...timing,
};
const toWall = (robot: number) => options.wallOrigin + (robot - options.wallOrigin) / options.speed;
const samples: number[] = [];
const robots = new Map<string, ReturnType<typeof startLeasingRobot>>();
const start = (owner: string) => {
  const robot = startLeasingRobot({ ...options, owner });
  robots.set(owner, robot);
  return robot;
};
async function until(check: () => Promise<boolean>, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await sleep(100);
  }
}
try {
  await seedPlatformAccounts(db, accounts, { trading: true });
  start('p0');
  await until(async () => (await holdings(db)).get('p0') === accounts, 120_000);
  start('p1');
  const half = Math.floor(accounts / 2);
  const shared = async () => [...(await holdings(db)).values()].every((n) => n >= half);
  for (let kill = 0; kill < kills; kill++) {
    await until(async () => (await holdings(db)).size === 2 && (await shared()), 180_000);
    await sleep(2_000);
    const [victimName] = [...robots.keys()];
    const victim = victimName ? robots.get(victimName) : undefined;
    if (!victimName || !victim) throw new Error('no process to kill');
    const held = rowsOf<{ account_id: string }>(
      await db.execute(sql`select account_id from robot_leases where owner = ${victimName}`),
    ).map((row) => row.account_id);
    const killedAt = Date.now();
    victim.child.kill('SIGKILL');
    await victim.exited;
    robots.delete(victimName);
    start(`p${String(kill + 2)}`);
    await sleep(leaseMs + 15_000);
    const firsts = rowsOf<{ account_id: string; first: Date | string | null }>(
      await db.execute(sql`
        select account_id, min(settled_at) as first from platform_orders
        where account_id = any(${`{${held.join(',')}}`}::uuid[])
          and settled_at > ${new Date(options.wallOrigin + (killedAt - options.wallOrigin) * options.speed).toISOString()}::timestamptz
        group by account_id`),
    );
    for (const row of firsts) {
      if (row.first) samples.push(toWall(new Date(row.first).getTime()) - killedAt);
    }
    const missing = held.length - firsts.length;
    console.log(
      `kill ${String(kill + 1)}: ${String(held.length)} accounts moved, ${String(firsts.length)} traded again` +
        (missing > 0 ? `, ${String(missing)} without an order yet` : ''),
    );
  }
} finally {
  for (const robot of robots.values()) {
    robot.child.kill('SIGKILL');
    await robot.exited;
  }
  await test.drop();
}
samples.sort((a, b) => a - b);
const at = (q: number) =>
  samples[Math.min(samples.length - 1, Math.floor(q * samples.length))] ?? NaN;
console.log(
  JSON.stringify({
    accounts,
    kills,
    leaseMs,
    renewMs: timing.renewMs,
    marginMs: timing.marginMs,
    samples: samples.length,
    p50Ms: Math.round(at(0.5)),
    p99Ms: Math.round(at(0.99)),
    maxMs: Math.round(samples.at(-1) ?? NaN),
    p99MinusLeaseMs: Math.round(at(0.99) - leaseMs),
  }),
);
process.exit(0);
