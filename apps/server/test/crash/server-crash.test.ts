import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, pgliteDirectory } from '../../src/db/database';
import { rowsOf } from '../../src/db/migrate';

/**
 * The real server process, killed with SIGKILL while the robot trades, restarted, 20 times
 * (issue 9, "A crash test against the real server process"). Runs on its own
 * (`npm run test:crash -w @tradebot/server`): it takes a few minutes.
 */
const serverDir = path.resolve(import.meta.dirname, '../..');
const crashes = Number(process.env.CRASHES ?? 20);

let dataDir: string;
let port = 18_600 + Math.floor(Math.random() * 300);

function start(): { child: ChildProcess; listening: Promise<void> } {
  port += 1;
  const child = spawn(process.execPath, [path.join(serverDir, 'dist/main.js')], {
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: String(port),
      LOG_LEVEL: 'error',
      ROBOT_WARM_UP_MS: '600000',
      WEB_DIST_DIR: path.join(os.tmpdir(), 'tradebot-no-web-build'),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const listening = new Promise<void>((resolve, reject) => {
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('listening on')) resolve();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.once('exit', (code) => {
      reject(new Error(`server exited (${String(code)}) before listening:\n${output}`));
    });
  });
  return { child, listening };
}

function exited(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else
      child.once('exit', () => {
        resolve();
      });
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('the server killed while the robot trades', () => {
  beforeAll(async () => {
    const built = spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: serverDir });
    if (built.status !== 0) throw new Error(built.stderr.toString());
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'tradebot-crash-'));
  });
  afterAll(async () => {
    await fs.rm(dataDir, { recursive: true, force: true });
  });

  it(`loses nothing and books nothing twice across ${String(crashes)} kill -9 restarts`, async () => {
    for (let round = 0; round < crashes; round++) {
      const { child, listening } = start();
      await listening;
      // Somewhere in the robot's work: a tick, its writes, the journal.
      await sleep(500 + Math.floor(Math.random() * 2_500));
      child.kill('SIGKILL');
      await exited(child);
    }
    // A last start reconciles what the last crash left pending, then stops cleanly.
    const { child, listening } = start();
    await listening;
    await sleep(3_000);
    child.kill('SIGTERM');
    await exited(child);
    expect(child.exitCode).toBe(0);

    const database = await openDatabase({ pgliteDir: pgliteDirectory(dataDir) });
    try {
      const one = async <T>(query: ReturnType<typeof sql>) =>
        rowsOf<T>(await database.db.execute(query))[0];
      const counts = await one<{ operations: number; closed: number; orders: number }>(sql`
        select (select count(*)::int from operations) as operations,
               (select count(*)::int from operations where close_reason <> 'open') as closed,
               (select count(*)::int from platform_orders) as orders`);
      // The robot traded across the crashes.
      expect(counts?.operations).toBeGreaterThan(0);

      const twice = await one<{ n: number }>(sql`
        select count(*)::int as n from (
          select client_order_id from operations group by client_order_id having count(*) > 1
        ) duplicated`);
      expect(twice?.n).toBe(0);

      // Every order the platform filled has its operation, and the robot's intent knows it.
      const missing = await one<{ n: number }>(sql`
        select count(*)::int as n from platform_orders p
         where p.outcome = 'filled'
           and not exists (select 1 from operations o where o.client_order_id = p.client_order_id)`);
      expect(missing?.n).toBe(0);
      const unsettled = await one<{ n: number }>(sql`
        select count(*)::int as n from order_intents i
          join platform_orders p on p.client_order_id = i.client_order_id
         where i.status = 'pending'`);
      expect(unsettled?.n).toBe(0);

      // balance = deposits + realised profit, exactly, by the account's figures and by its rows;
      // and the robot's closed operations booked the same profit as the platform.
      const ledgers = rowsOf<{
        balance: string;
        deposits: string;
        realised: string;
        deposited: string;
        booked: string;
        recorded: string;
      }>(
        await database.db.execute(sql`
          select a.balance_cents as balance, a.deposits_cents as deposits,
                 a.realised_profit_cents as realised,
                 (select coalesce(sum(d.cents), 0) from platform_deposits d
                   where d.account_id = a.account_id) as deposited,
                 (select coalesce(sum(p.close_profit_cents), 0) from platform_orders p
                   where p.account_id = a.account_id and p.closed_at is not null) as booked,
                 (select coalesce(sum(o.profit_cents), 0) from operations o
                   where o.account_id = a.account_id and o.close_reason <> 'open') as recorded
            from platform_accounts a`),
      );
      expect(ledgers.length).toBeGreaterThan(0);
      for (const ledger of ledgers) {
        const [balance, deposits, realised, deposited, booked, recorded] = [
          ledger.balance,
          ledger.deposits,
          ledger.realised,
          ledger.deposited,
          ledger.booked,
          ledger.recorded,
        ].map(BigInt);
        expect(balance).toBe((deposits ?? 0n) + (realised ?? 0n));
        expect(deposits).toBe(deposited);
        expect(realised).toBe(booked);
        expect(recorded).toBe(booked);
      }
      const reasons = rowsOf<{ close_reason: string; n: number }>(
        await database.db.execute(
          sql`select close_reason, count(*)::int as n from operations group by close_reason order by 1`,
        ),
      );
      console.log(`after ${String(crashes)} crashes:`, counts, reasons);
    } finally {
      await database.close();
    }
  });
});
