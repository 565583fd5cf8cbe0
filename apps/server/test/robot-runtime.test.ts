import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { FixedSignalStrategy, type PaperBrokerState } from '@tradebot/robot';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import { rowsOf } from '../src/db/migrate';
import { latestRobotTime, loadPlatformState } from '../src/robot/worker/drizzle-platform-journal';
import {
  demoDepositCents,
  demoUser,
  seedDemo,
  seedDemoTrading,
} from '../src/services/demo-seed.service';
import { PlatformUsersRepository } from '../src/repositories/platform-users.repository';
import { UsersRepository } from '../src/repositories/users.repository';
import { PromoCodesRepository } from '../src/repositories/promo-codes.repository';
import { argon2PasswordHasher } from '../src/repositories/password-hasher';
import { DrizzleExecutionStore } from '../src/robot/worker/drizzle-execution-store';
import {
  getAllData,
  marketTickMs,
  openCount,
  robotOf,
  runMarket,
  storedTrades,
  trader,
  useRobotApp,
} from './helpers/trading';

function sortedState(state: PaperBrokerState) {
  return {
    nextPositionNumber: state.nextPositionNumber,
    accounts: [...state.accounts].sort((a, b) => a.accountId.localeCompare(b.accountId)),
    orders: [...state.orders]
      .map((order) => ({ outcome: order.outcome, closed: order.closed ?? undefined }))
      .sort((a, b) => a.outcome.clientOrderId.localeCompare(b.outcome.clientOrderId)),
  };
}

describe('the robot in the server', () => {
  const context = useRobotApp();

  it('keeps the platform in the database: rebuilt from it, it equals the live one', async () => {
    const first = await trader(context.app, { email: 'first@example.com' });
    const second = await trader(context.app, {
      email: 'second@example.com',
      depositCents: 250_000,
    });
    const robot = robotOf(context.app);
    const closed = async () =>
      (await storedTrades(context.app)).filter((trade) => trade.closedAt !== null).length;
    expect(await runMarket(context, async () => (await closed()) >= 5, 2000)).toBe(true);
    await robot.settled();

    const live = await robot.snapshot();
    const stored = await loadPlatformState(context.app.database.db, { settledSince: 0 });
    expect(sortedState(stored)).toEqual(sortedState(live));
    expect(live.accounts.map((a) => a.accountId).sort()).toEqual(
      [first.userId, second.userId].sort(),
    );

    // The ledger identity, exactly, and the robot's own records agree with the platform's.
    const ledger = rowsOf<{ account_id: string; ok: boolean; realised: string; booked: string }>(
      await context.app.database.db.execute(sql`
        select a.account_id,
               a.balance_cents = a.deposits_cents + a.realised_profit_cents as ok,
               a.realised_profit_cents as realised,
               coalesce((select sum(o.profit_cents) from operations o
                          where o.account_id = a.account_id and o.close_reason <> 'open'), 0) as booked
          from platform_accounts a`),
    );
    expect(ledger).toHaveLength(2);
    for (const row of ledger) {
      expect(row.ok).toBe(true);
      expect(Number(row.booked)).toBe(Number(row.realised));
    }
    const [duplicates] = rowsOf<{ n: number }>(
      await context.app.database.db.execute(
        sql`select count(*)::int as n from (select client_order_id from operations group by client_order_id having count(*) > 1) d`,
      ),
    );
    expect(duplicates?.n).toBe(0);
  });

  it('stops cleanly and a new start continues where it stopped', async () => {
    const { userId } = await trader(context.app);
    const robot = robotOf(context.app);
    expect(await runMarket(context, async () => (await openCount(context.app, userId)) >= 3)).toBe(
      true,
    );
    await robot.settled();
    const before = await robot.snapshot();
    const openPositionIds = async (runtime: typeof robot) =>
      ((await runtime.projection(userId))?.trades ?? []).map((open) => open.id).sort();
    const openBefore = await openPositionIds(robot);
    await context.app.close();

    context.clock.advance(marketTickMs);
    const again = await buildApp(
      loadConfig({
        NODE_ENV: 'test',
        LOG_LEVEL: 'silent',
        WEB_DIST_DIR: path.join(os.tmpdir(), 'tradebot-no-web-build'),
        MARKET_TICK_MS: String(marketTickMs),
        MARKET_SEED: '12',
        // As in the first start (test/helpers/app.ts): no robot's own account (decision 060).
        TRACK_RECORD_ENABLED: 'false',
      }),
      {
        database: context.testDatabase.database,
        clock: context.clock,
        robotTimers: false,
        robotStrategy: new FixedSignalStrategy(0.999, ['buy']),
      },
    );
    context.app = again;
    const restarted = robotOf(again);
    const after = await restarted.snapshot();
    expect(sortedState(after)).toEqual(sortedState(before));
    expect(await openPositionIds(restarted)).toEqual(openBefore);
    // The market continues from the quotes it saved on stop.
    const btc = before.lastTicks.find((tick) => tick.symbol === 'BTCUSD');
    const btcNow = after.lastTicks.find((tick) => tick.symbol === 'BTCUSD');
    expect(btc).toBeDefined();
    expect(Math.abs((btcNow?.bid ?? 0) / (btc?.bid ?? 1) - 1)).toBeLessThan(0.01);
    // And it trades on.
    expect(
      await runMarket(
        { ...context, app: again },
        async () => (await storedTrades(again, userId)).length > before.orders.length,
      ),
    ).toBe(true);
  });

  it('starts a sped-up clock after the latest time the robot recorded', async () => {
    const { userId } = await trader(context.app);
    expect(
      await runMarket(context, async () => (await storedTrades(context.app, userId)).length > 0),
    ).toBe(true);
    await context.app.close();
    const db = context.testDatabase.database.db;
    const latest = await latestRobotTime(db);
    const intents = await new DrizzleExecutionStore(db).intents();
    const decided = Math.max(...intents.map((intent) => intent.decidedAt));
    expect(latest).toBeGreaterThanOrEqual(decided);

    // The same wall time as before: a sped-up clock would otherwise replay decision times.
    const fast = await buildApp(
      loadConfig({
        NODE_ENV: 'test',
        LOG_LEVEL: 'silent',
        WEB_DIST_DIR: path.join(os.tmpdir(), 'tradebot-no-web-build'),
        MARKET_SPEED: '60',
        ROBOT_WARM_UP_MS: '0',
      }),
      { database: context.testDatabase.database, clock: context.clock, robotTimers: false },
    );
    context.app = fast;
    const start = robotOf(fast).now();
    expect(start).toBeGreaterThan(latest);
    context.clock.advance(1_000);
    expect(robotOf(fast).now() - start).toBe(60_000);
  });

  it('starts the market at MARKET_START: its first quotes carry the pinned instant (issue 41)', async () => {
    await context.app.close();
    // The test's clock reads Saturday 2026-11-21 noon UTC, when forex is closed; the market is
    // pinned to the Wednesday after, mid-session.
    const pinned = Date.parse('2026-11-25T15:00:00Z');
    const app = await buildApp(
      loadConfig({
        NODE_ENV: 'test',
        LOG_LEVEL: 'silent',
        WEB_DIST_DIR: path.join(os.tmpdir(), 'tradebot-no-web-build'),
        MARKET_TICK_MS: String(marketTickMs),
        MARKET_SEED: '11',
        MARKET_START: '2026-11-25T15:00:00Z',
        ROBOT_WARM_UP_MS: '0',
        TRACK_RECORD_ENABLED: 'false',
      }),
      { database: context.testDatabase.database, clock: context.clock, robotTimers: false },
    );
    context.app = app;
    const robot = robotOf(app);
    expect(robot.now()).toBe(pinned);
    await robot.advance();
    await robot.settled();
    const ticks = (await robot.snapshot()).lastTicks;
    expect(Math.min(...ticks.map((tick) => tick.time))).toBe(pinned);
    // Forex quotes: the market keeps the pinned Wednesday's hours, not the clock's Saturday.
    expect(ticks.find((tick) => tick.symbol === 'EURUSD')?.time).toBe(pinned);
    context.clock.advance(marketTickMs);
    expect(robot.now()).toBe(pinned + marketTickMs);
  });

  it('runs the built-in platform on recorded quotes when told, weekdays lined up, and says so (decision 140)', async () => {
    await context.app.close();
    // Wednesday 7 May 2014, 14:59:58-15:00:03 UTC: a loop of one week.
    const dir = await mkdtemp(path.join(os.tmpdir(), 'recorded-'));
    const recorded = Date.parse('2014-05-07T14:59:58Z');
    await writeFile(
      path.join(dir, 'EURUSD.csv'),
      'time,bid,ask\n' +
        [0, 1, 2, 3, 4, 5]
          .map((s) => `${String(recorded + s * 1000)},1.3900${String(s)},1.3901${String(s)}`)
          .join('\n') +
        '\n',
    );
    try {
      const pinned = Date.parse('2026-11-25T15:00:00Z');
      const app = await buildApp(
        loadConfig({
          NODE_ENV: 'test',
          LOG_LEVEL: 'silent',
          WEB_DIST_DIR: path.join(os.tmpdir(), 'tradebot-no-web-build'),
          MARKET_TICK_MS: String(marketTickMs),
          MARKET_START: '2026-11-25T15:00:00Z',
          MARKET_SOURCE: 'recorded',
          MARKET_QUOTES_DIR: dir,
          MARKET_QUOTES_NAME: 'OANDA',
          TRACK_RECORD_ENABLED: 'false',
        }),
        { database: context.testDatabase.database, clock: context.clock, robotTimers: false },
      );
      context.app = app;
      const robot = robotOf(app);
      expect(robot.builtInMarket()).toEqual({
        kind: 'recorded',
        source: 'OANDA',
        from: '2014-05-07',
        to: '2014-05-07',
      });
      const { headers } = await trader(app, { email: 'recorded@example.com' });
      await robot.advance();
      await robot.settled();
      // Wednesday 15:00:00 UTC plays the recorded Wednesday 15:00:00, whole weeks later.
      const eurusd = (await robot.snapshot()).lastTicks.find((tick) => tick.symbol === 'EURUSD');
      expect(eurusd).toMatchObject({ time: pinned, bid: 1.39002, ask: 1.39012 });
      expect((pinned - recorded - 2_000) % (7 * 86_400_000)).toBe(0);
      const data = (await getAllData(app, headers)).json<{ data: { prices: unknown } }>().data;
      expect(data.prices).toEqual({
        kind: 'recorded',
        source: 'OANDA',
        from: '2014-05-07',
        to: '2014-05-07',
      });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('gives the demo user a platform account that trades, once', async () => {
    const db = context.app.database.db;
    const users = new UsersRepository(db);
    await seedDemo(users, new PromoCodesRepository(db), argon2PasswordHasher);
    const robot = robotOf(context.app);
    const platformUsers = new PlatformUsersRepository(db);
    expect(await seedDemoTrading(users, platformUsers, robot, context.clock.now())).toBe(true);
    expect(await seedDemoTrading(users, platformUsers, robot, context.clock.now())).toBe(false);
    const demo = await users.findByEmail(demoUser.email);
    if (!demo) throw new Error('no demo user');
    expect(await robot.account(demo.id)).toMatchObject({ depositsCents: demoDepositCents });
    expect(await users.findSettings(demo.id)).toMatchObject({
      botOn: true,
      authorized: true,
      linked: true,
    });
    expect(
      await runMarket(context, async () => (await storedTrades(context.app, demo.id)).length > 0),
    ).toBe(true);
  });
});
