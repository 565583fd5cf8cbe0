import type { TradingData } from '@tradebot/contract';
import { sql } from 'drizzle-orm';
import { InstrumentCatalogue } from '@tradebot/robot';
import { afterEach, describe, expect, it } from 'vitest';
import { migrationsFolder } from '../src/app';
import { readMigrations } from '../src/db/migrate';
import { operations, tradingPlatformLinks, users } from '../src/db/schema';
import { TradingRepository } from '../src/repositories/trading.repository';
import { UsersRepository } from '../src/repositories/users.repository';
import { DrizzleExecutionStore } from '../src/robot/worker/drizzle-execution-store';
import { TradingService } from '../src/services/trading.service';
import { v1 } from './helpers/accounts';
import { createTestDatabase, type TestDatabase } from './helpers/database';
import { decidedAt, intent, tradeOf } from './helpers/robot-records';
import { trader, useRobotApp } from './helpers/trading';

/**
 * Every operation keeps its currency (issue 20, decision 103): a user who traded a cTrader
 * account in reais, unlinked it and now trades the built-in platform in dollars reads each
 * former operation in reais, each new one in dollars, and no summary adds the two.
 */

/** A cTrader account in reais, as the broker described it when it was picked. */
const brlAccount = {
  ctidTraderAccountId: 4_400_202,
  live: false,
  brokerName: 'Demo',
  traderLogin: 5_002_000,
  currency: 'BRL',
  leverage: 3_000,
};

interface Data {
  data: TradingData;
}

describe('operations in the currencies of two links', () => {
  const context = useRobotApp();

  /** A closed operation in reais from the former cTrader link and two in dollars. */
  async function history(userId: string): Promise<void> {
    const store = new DrizzleExecutionStore(context.app.database.db);
    const orders = [
      intent(userId, 'BTCUSD', { clientOrderId: `${userId}/BTCUSD/1`, decidedAt }),
      intent(userId, 'ETHUSD', { clientOrderId: `${userId}/ETHUSD/2`, decidedAt: decidedAt + 1 }),
      intent(userId, 'BTCUSD', { clientOrderId: `${userId}/BTCUSD/3`, decidedAt: decidedAt + 2 }),
    ];
    await store.saveIntents(orders);
    const [reais, dollars, more] = orders as [
      (typeof orders)[0],
      (typeof orders)[0],
      (typeof orders)[0],
    ];
    await store.recordFill(tradeOf(reais, 'ct4400101-7', 'BRL'));
    await store.recordFill(tradeOf(dollars, 'P-usd-1', 'USD'));
    await store.recordFill(tradeOf(more, 'P-usd-2', 'USD'));
    const closure = (minutes: number, profitCents: number) => ({
      closedAt: decidedAt + minutes * 60_000,
      closePrice: 101.5,
      closeReason: 'tp' as const,
      profitCents,
    });
    await store.closeTrade('ct4400101-7', closure(1, 50_000));
    await store.closeTrade('P-usd-1', closure(2, 1_250));
    await store.closeTrade('P-usd-2', closure(3, -300));
  }

  it('answers each row in its own currency, on every page of the closed history', async () => {
    const { app } = context;
    const { userId, headers } = await trader(app, { email: 'two-links@example.com', botOn: false });
    await history(userId);

    const all = await app.inject({ url: `${v1}/get-all-data?period=all`, headers });
    expect(all.statusCode).toBe(200);
    const data = all.json<Data>().data;
    expect(data.accountCurrency).toBe('USD');
    const currencies = new Map(data.closed.map((row) => [row.id, row.currency]));
    expect(Object.fromEntries(currencies)).toEqual({
      'ct4400101-7': 'BRL',
      'P-usd-1': 'USD',
      'P-usd-2': 'USD',
    });
    expect(data.closed.find((row) => row.id === 'ct4400101-7')?.Profit).toBe(500);

    // The paging endpoint: one row a page, each in its own currency.
    const page = async (before: string | null): Promise<TradingData> => {
      const cursor = before === null ? '' : `&before=${before}`;
      const response = await app.inject({
        url: `${v1}/get-all-data?period=all&limit=1${cursor}`,
        headers,
      });
      expect(response.statusCode).toBe(200);
      return response.json<Data>().data;
    };
    const seen: Record<string, string | null> = {};
    let before: string | null = null;
    for (let count = 0; count < 4; count++) {
      const { closed, closedPage } = await page(before);
      for (const row of closed) seen[row.id] = row.currency;
      before = closedPage.nextCursor;
      if (before === null) break;
    }
    expect(seen).toEqual({ 'ct4400101-7': 'BRL', 'P-usd-1': 'USD', 'P-usd-2': 'USD' });
  });

  it("sums the day's realised profit in the account's currency only, never reais with dollars", async () => {
    const { app, clock } = context;
    const { userId } = await trader(app, { email: 'two-links-day@example.com', botOn: false });
    await history(userId);
    const db = app.database.db;
    const service = new TradingService(
      new UsersRepository(db),
      new TradingRepository(db),
      new InstrumentCatalogue(),
      clock,
      () => clock.now().getTime(),
      app.robot,
    );
    const figures = await service.dayFigures(userId, decidedAt - 1);
    expect(figures).toMatchObject({ currency: 'USD', closed: 2, won: 1, lost: 1, profit: 9.5 });
  });
});

describe('the equity curve of a broker account', () => {
  const context = useRobotApp();

  it("never draws the built-in platform's dollars in the series of an account in reais", async () => {
    const { app, clock } = context;
    const email = 'ledger-then-brl@example.com';
    const { userId } = await trader(app, { email, botOn: false });
    const db = app.database.db;
    const users = new UsersRepository(db);
    const user = await users.findByEmail(email);
    if (!user) throw new Error('no user');
    const service = new TradingService(
      users,
      new TradingRepository(db),
      new InstrumentCatalogue(),
      clock,
      () => clock.now().getTime(),
      undefined,
    );
    // On the built-in platform: its ledger, from the USD 10,000.00 deposit.
    const before = await service.equityCurve(user, 'all');
    expect(before.map((point) => point.value)).toContain(10_000);

    // Now linked to a cTrader account in reais; no robot reads it in this process.
    const linked = {
      platform: 'ctrader',
      platformAccountId: '4400202',
      linkedAt: new Date(decidedAt),
      brokerAccount: brlAccount,
    };
    await db
      .insert(tradingPlatformLinks)
      .values({ userId, ...linked })
      .onConflictDoUpdate({ target: tradingPlatformLinks.userId, set: linked });
    expect(await service.equityCurve(user, 'all')).toEqual([]);
  });
});

describe('migration 0023 on the operations stored before it', () => {
  let test: TestDatabase | undefined;
  afterEach(async () => {
    await test?.drop();
  });

  it("fills USD for the built-in platform, the current link's currency for its own positions, and leaves a former link's unknown", async () => {
    test = await createTestDatabase();
    const { db } = test.database;
    const [user] = await db
      .insert(users)
      .values({ name: 'Ana', lastName: 'Test', email: 'ana@example.com', passwordHash: 'x' })
      .returning({ id: users.id });
    if (!user) throw new Error('no user');
    await db.insert(tradingPlatformLinks).values({
      userId: user.id,
      platform: 'ctrader',
      platformAccountId: '4400202',
      linkedAt: new Date(decidedAt),
      brokerAccount: brlAccount,
    });
    const store = new DrizzleExecutionStore(db);
    const stored = [
      ['P-9', 'BTCUSD'],
      ['ct4400202-5', 'EURUSD'],
      ['ct4400101-7', 'EURUSD'],
    ] as const;
    for (const [positionId, symbol] of stored) {
      const order = intent(user.id, symbol, { clientOrderId: `${user.id}/${positionId}` });
      await store.saveIntents([order]);
      // As stored before migration 0023: no currency.
      await store.recordFill(tradeOf(order, positionId, null));
    }

    const migration = (await readMigrations(migrationsFolder)).find(
      (entry) => entry.tag === '0023_operation_currency',
    );
    if (!migration) throw new Error('migration 0023 not found');
    // Its statements after the column's: the fill.
    for (const statement of migration.statements.slice(1)) await db.execute(sql.raw(statement));

    const rows = await db
      .select({ positionId: operations.positionId, currency: operations.currency })
      .from(operations)
      .orderBy(operations.positionId);
    expect(Object.fromEntries(rows.map((row) => [row.positionId, row.currency]))).toEqual({
      'P-9': 'USD',
      'ct4400202-5': 'BRL',
      'ct4400101-7': null,
    });
  });
});
