import type { TradingData } from '@tradebot/contract';
import { InstrumentCatalogue } from '@tradebot/robot';
import { describe, expect, it } from 'vitest';
import { TradingRepository } from '../src/repositories/trading.repository';
import { UsersRepository } from '../src/repositories/users.repository';
import { DrizzleExecutionStore } from '../src/robot/drizzle-execution-store';
import { TradingService } from '../src/services/trading.service';
import { v1 } from './helpers/accounts';
import { decidedAt, intent, tradeOf } from './helpers/robot-records';
import { trader, useRobotApp } from './helpers/trading';

/**
 * Every operation keeps its currency (issue 20, decision 103): a user who traded a cTrader
 * account in reais, unlinked it and now trades the built-in platform in dollars reads each
 * former operation in reais, each new one in dollars, and no summary adds the two.
 */

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
    const seen: Record<string, string | null> = {};
    let before: string | null = null;
    for (let page = 0; page < 4; page++) {
      const url: string = `${v1}/get-all-data?period=all&limit=1${before === null ? '' : `&before=${before}`}`;
      const response = await app.inject({ url, headers });
      expect(response.statusCode).toBe(200);
      const { closed, closedPage }: TradingData = response.json<Data>().data;
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
