import { rmSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { getAllDataResponseSchema, type TradingData } from '@tradebot/contract';
import { sql } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import { rowsOf } from '../src/db/migrate';
import { RobotUnavailable } from '../src/robot/link/robot-runtime';
import { allCategoriesEnabled } from '../src/repositories/users.repository';
import { v1 } from './helpers/accounts';
import {
  getAllData,
  openCount,
  postSettings,
  robotOf,
  runMarket,
  storedTrades,
  trader,
  useWorkerRobotApp,
  type RobotTestContext,
} from './helpers/trading';

// Each test starts real worker threads, which compile the robot from source (tsx) first.
vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

function dataOf(response: { json: () => unknown }): TradingData {
  return getAllDataResponseSchema.parse(response.json()).data;
}

const settingsOn = {
  bot_on: true,
  risk: 1,
  categories_enabled: JSON.stringify(allCategoriesEnabled),
};

/** balance = deposits + realised profit, and the robot's books agree with the platform's. */
async function expectBooksHold(context: RobotTestContext): Promise<void> {
  const rows = rowsOf<{ ok: boolean; agrees: boolean }>(
    await context.testDatabase.database.db.execute(sql`
      select a.balance_cents = a.deposits_cents + a.realised_profit_cents as ok,
             a.realised_profit_cents = coalesce((select sum(o.profit_cents) from operations o
               where o.account_id = a.account_id and o.close_reason <> 'open'), 0) as agrees
        from platform_accounts a`),
  );
  expect(rows.length).toBeGreaterThan(0);
  for (const row of rows) expect(row).toEqual({ ok: true, agrees: true });
}

describe('the robot in its worker thread', () => {
  const context = useWorkerRobotApp();

  it('opens and stores operations, applies settings, closes all on the kill switch, stops cleanly', async () => {
    const { headers, userId } = await trader(context.app, { botOn: false });
    const robot = robotOf(context.app);
    // A deposit lands at the platform and in its ledger.
    await robot.deposit(userId, 50_000);
    expect(await robot.account(userId)).toMatchObject({
      depositsCents: 1_050_000,
      balanceCents: 1_050_000,
    });
    await expect(robot.deposit(userId, 0.5)).rejects.toThrow('Deposits are positive cents');
    expect(await runMarket(context, () => false, 5)).toBe(false);
    expect(await storedTrades(context.app, userId)).toHaveLength(0);

    expect((await postSettings(context.app, headers, settingsOn)).statusCode).toBe(200);
    expect(
      await runMarket(context, async () => (await openCount(context.app, userId)) >= 2, 1200),
    ).toBe(true);
    // Stored by the worker, shown by the main thread.
    const stored = await storedTrades(context.app, userId);
    const open = stored.filter((trade) => trade.closedAt === null);
    const data = dataOf(await getAllData(context.app, headers));
    expect(data.trades.map((row) => row.id).sort()).toEqual(
      open.map((trade) => trade.positionId).sort(),
    );
    expect(data.robot.bot_on).toBe(true);

    const kill = await context.app.inject({ method: 'POST', url: `${v1}/robot/kill`, headers });
    expect(kill.statusCode).toBe(200);
    expect(kill.json()).toMatchObject({
      data: { settings: { bot_on: false }, closed: open.length },
    });
    expect(await openCount(context.app, userId)).toBe(0);
    const afterKill = await storedTrades(context.app, userId);
    expect(afterKill.filter((trade) => trade.closedAt === null)).toEqual([]);
    expect(afterKill.filter((trade) => trade.closeReason === 'kill')).toHaveLength(open.length);
    expect(dataOf(await getAllData(context.app, headers)).trades).toEqual([]);

    await context.app.close();
    await expect(robot.settled()).rejects.toBeInstanceOf(RobotUnavailable);
    await expectBooksHold(context);
    // The next test's afterEach closes whatever app is here: one without a robot.
    context.app = await buildApp(
      loadConfig({
        NODE_ENV: 'test',
        LOG_LEVEL: 'silent',
        ROBOT_ENABLED: 'false',
        WEB_DIST_DIR: path.join(os.tmpdir(), 'tradebot-no-web-build'),
      }),
      { database: context.testDatabase.database },
    );
  });
});

describe('a robot worker that dies', () => {
  const marker = path.join(os.tmpdir(), `tradebot-robot-crash-${String(process.pid)}`);
  const context = useWorkerRobotApp({ LOG_LEVEL: 'silent' }, () => {
    rmSync(marker, { force: true });
    process.env.ROBOT_TEST_CRASH_MARKER = marker;
    return { robotWorkerEntry: new URL('./helpers/crashing-robot-worker.ts', import.meta.url) };
  });

  it('halts trading, says so, and trades again once restarted from the database', async () => {
    try {
      const { headers, userId } = await trader(context.app);
      const robot = robotOf(context.app);
      const figures = await robot.account(userId);
      expect(figures?.balanceCents).toBe(1_000_000);

      await expect(robot.advance()).rejects.toBeInstanceOf(RobotUnavailable);
      const halted = dataOf(await getAllData(context.app, headers));
      expect(halted.robot).toEqual({ bot_on: true, trading: false, idleReason: 'TRADING_HALTED' });
      // Figures as last booked while it is down.
      expect(halted.account?.balance).toBe(10_000);
      // The kill switch cannot close anything now: it answers 503 and changes nothing.
      const kill = await context.app.inject({ method: 'POST', url: `${v1}/robot/kill`, headers });
      expect(kill.statusCode).toBe(503);
      expect(dataOf(await getAllData(context.app, headers)).robot.bot_on).toBe(true);
      // Settings are stored, and reach the robot once it is back.
      const settings = {
        bot_on: true,
        risk: 1,
        categories_enabled: JSON.stringify(allCategoriesEnabled),
      };
      expect((await postSettings(context.app, headers, settings)).statusCode).toBe(200);

      // A new worker restores the platform from the database and trades on.
      const deadline = Date.now() + 30_000;
      while ((await robot.account(userId)) === undefined && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(await robot.account(userId)).toMatchObject({ balanceCents: 1_000_000 });
      expect(robot.hasAccount(userId)).toBe(true);
      // Its settings came back from the database: the robot is on and trades.
      expect(
        await runMarket(
          context,
          async () => (await storedTrades(context.app, userId)).length > 0,
          1200,
        ),
      ).toBe(true);
      await expectBooksHold(context);
    } finally {
      delete process.env.ROBOT_TEST_CRASH_MARKER;
      await fs.rm(marker, { force: true });
    }
  });
});
