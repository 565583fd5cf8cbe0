import { afterEach, describe, expect, it } from 'vitest';
import type { ExecutionReport, OrderRequest } from '../broker-adapter';
import { CTraderMarketClosedError } from './errors';
import {
  ALWAYS_OPEN,
  FakeCTraderServer,
} from '../../../test-support/ctrader-fake/fake-ctrader-server';
import {
  BTCUSD,
  closedFor,
  DEMO_ACCOUNT,
  EURUSD,
  FOREX_HOURS,
  fakeOptions,
} from '../../../test-support/ctrader-fake/fixtures';
import { connectBroker, until } from '../../../test-support/ctrader-fake/harness';
import { CTraderProtocol } from './protocol';

/**
 * The broker's own trading hours (decision 096, addendum on hours): the adapter reads each
 * symbol's schedule and holidays from the broker, sends nothing outside them, and holds a symbol
 * closed when the broker refuses an order as closed, so nothing is sent again in a loop.
 */
const protocol = CTraderProtocol.load();
const ACCOUNT = 'acc-hours';
const cleanups: (() => unknown)[] = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function start(symbols = [EURUSD, BTCUSD]) {
  const server = new FakeCTraderServer({ ...fakeOptions({ symbols }), protocol });
  await server.listen();
  cleanups.push(() => server.close());
  const { client, broker, close } = await connectBroker(server, ACCOUNT);
  const reports: ExecutionReport[] = [];
  broker.onReport((report) => reports.push(report));
  await broker.start();
  cleanups.push(close);
  await until(() => broker.lastTick('EURUSD') !== undefined, 'the first spot');
  return { server, client, broker, reports };
}

function order(clientOrderId: string, symbol = 'EURUSD'): OrderRequest {
  return {
    clientOrderId,
    accountId: ACCOUNT,
    symbol,
    side: 'buy',
    units: symbol === 'EURUSD' ? 10_000 : 0.05,
    takeProfit: 0,
    stopLoss: 0,
  };
}

describe("cTrader adapter: the broker's trading hours", () => {
  it('reads each symbol schedule, time zone and holidays from the broker', async () => {
    const { broker } = await start([{ ...EURUSD, hours: FOREX_HOURS }, BTCUSD]);
    const saturday = Date.parse('2026-07-18T12:00:00Z');
    const tuesday = Date.parse('2026-07-14T12:00:00Z');
    const rollover = Date.parse('2026-07-14T21:02:00Z');
    const christmas = Date.parse('2026-12-25T15:00:00Z');
    expect(broker.session(ACCOUNT, 'EURUSD', tuesday)).toBe('open');
    expect(broker.session(ACCOUNT, 'EURUSD', rollover)).toBe('closed');
    expect(broker.session(ACCOUNT, 'EURUSD', saturday)).toBe('closed');
    expect(broker.session(ACCOUNT, 'EURUSD', christmas)).toBe('holiday');
    // The broker's crypto trades every second of the week, Christmas included.
    for (const time of [saturday, rollover, christmas])
      expect(broker.marketOpen(ACCOUNT, 'BTCUSD', time)).toBe(true);
    expect(broker.session(ACCOUNT, 'GBPUSD', tuesday)).toBeUndefined();
  });

  it('sends nothing while the session is closed, and trades once the broker reopens it', async () => {
    const { server, broker, reports } = await start();
    server.setHours(EURUSD.symbolId, closedFor(10));
    await until(() => !broker.marketOpen(ACCOUNT, 'EURUSD', Date.now()), 'the new hours');
    broker.submitOrder(order('h:1'));
    expect(reports).toMatchObject([
      { kind: 'rejected', clientOrderId: 'h:1', reason: 'MARKET_CLOSED' },
    ]);
    expect(server.requests('ProtoOANewOrderReq')).toHaveLength(0);
    // Another symbol of the same broker keeps its own hours.
    broker.submitOrder(order('h:2', 'BTCUSD'));
    await until(() => reports.length === 2, 'the bitcoin fill');
    expect(reports[1]).toMatchObject({ kind: 'filled', clientOrderId: 'h:2' });

    server.setHours(EURUSD.symbolId, ALWAYS_OPEN);
    await until(() => broker.marketOpen(ACCOUNT, 'EURUSD', Date.now()), 'the reopening');
    broker.submitOrder(order('h:3'));
    await until(() => reports.length === 3, 'the fill');
    expect(reports[2]).toMatchObject({ kind: 'filled', clientOrderId: 'h:3' });
  });

  it('the fake refuses an order outside its hours with the real error codes', async () => {
    const { server, client } = await start();
    const request = {
      ctidTraderAccountId: DEMO_ACCOUNT.ctidTraderAccountId,
      symbolId: EURUSD.symbolId,
      orderType: 'MARKET',
      tradeSide: 'BUY',
      volume: 100_000,
    };
    server.setHours(EURUSD.symbolId, closedFor(10));
    await expect(client.request('ProtoOANewOrderReq', request)).rejects.toMatchObject({
      constructor: CTraderMarketClosedError,
      code: 'MARKET_CLOSED',
    });
    const today = Math.floor(Date.now() / 86_400_000);
    server.setHours(EURUSD.symbolId, {
      ...ALWAYS_OPEN,
      holidays: [
        {
          name: 'Today',
          timeZone: 'UTC',
          holidayDate: today,
          isRecurring: false,
          startSecond: 0,
          endSecond: 86_400,
        },
      ],
    });
    await expect(client.request('ProtoOANewOrderReq', request)).rejects.toMatchObject({
      constructor: CTraderMarketClosedError,
      code: 'SYMBOL_HAS_HOLIDAY',
    });
    expect(server.orders).toHaveLength(0);
  });

  it('a refusal as closed holds the symbol closed: shown with its reason, not sent again', async () => {
    const { server, broker, reports } = await start();
    // The broker closes for maintenance while its published hours still say open.
    server.setMarketOpen(false);
    broker.submitOrder(order('h:1'));
    await until(() => reports.length === 1, 'the rejection');
    expect(reports[0]).toMatchObject({ reason: 'MARKET_CLOSED', brokerCode: 'MARKET_CLOSED' });
    expect(broker.marketOpen(ACCOUNT, 'EURUSD', Date.now())).toBe(false);
    broker.submitOrder(order('h:2'));
    broker.submitOrder(order('h:3'));
    expect(reports.slice(1)).toMatchObject([
      { clientOrderId: 'h:2', reason: 'MARKET_CLOSED' },
      { clientOrderId: 'h:3', reason: 'MARKET_CLOSED' },
    ]);
    expect(server.requests('ProtoOANewOrderReq')).toHaveLength(1);
    // Bitcoin was not refused: it is not held.
    expect(broker.marketOpen(ACCOUNT, 'BTCUSD', Date.now())).toBe(true);

    // The broker says the symbol changed: its hours are read again and the hold ends.
    server.setMarketOpen(true);
    server.setHours(EURUSD.symbolId, ALWAYS_OPEN);
    await until(() => broker.marketOpen(ACCOUNT, 'EURUSD', Date.now()), 'the reopening');
    broker.submitOrder(order('h:4'));
    await until(() => reports.length === 4, 'the fill');
    expect(reports[3]).toMatchObject({ kind: 'filled', clientOrderId: 'h:4' });
  });
});
