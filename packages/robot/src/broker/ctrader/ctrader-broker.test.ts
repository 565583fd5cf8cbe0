import { afterEach, describe, expect, it } from 'vitest';
import { InstrumentCatalogue } from '../../instruments/catalogue';
import type { Tick } from '../../market-data/tick';
import { tradeGeometry } from '../../risk/trade-geometry';
import type { ExecutionReport, OrderRequest } from '../broker-adapter';
import type { CTraderClient } from './client';
import type { CTraderBroker } from './ctrader-broker';
import {
  FakeCTraderServer,
  type FakeAccount,
  type FakeCTraderOptions,
} from '../../../test-support/ctrader-fake/fake-ctrader-server';
import {
  BRL_ACCOUNT,
  BTCUSD,
  DEMO_ACCOUNT,
  EURUSD,
  USDBRL,
  fakeOptions,
} from '../../../test-support/ctrader-fake/fixtures';
import { connectBroker, until } from '../../../test-support/ctrader-fake/harness';
import { CTraderProtocol } from './protocol';

const protocol = CTraderProtocol.load();
const catalogue = new InstrumentCatalogue();
const ACCOUNT = 'acc-1';
const UNMAPPABLE = { ...EURUSD, symbolId: 99, symbolName: 'ZZZ/QQQ' };
const cleanups: (() => unknown)[] = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function startServer(options: Partial<FakeCTraderOptions> = {}): Promise<FakeCTraderServer> {
  const server = new FakeCTraderServer({
    ...fakeOptions({ symbols: [EURUSD, UNMAPPABLE], ...options }),
    protocol,
  });
  await server.listen();
  cleanups.push(() => server.close());
  return server;
}

async function startBroker(
  server: FakeCTraderServer,
  account: FakeAccount = DEMO_ACCOUNT,
): Promise<{
  broker: CTraderBroker;
  client: CTraderClient;
  reports: ExecutionReport[];
}> {
  const { client, broker, close } = await connectBroker(server, ACCOUNT, {
    catalogue,
    account,
    othersProfitMs: 20,
  });
  const reports: ExecutionReport[] = [];
  broker.onReport((report) => reports.push(report));
  await broker.start();
  cleanups.push(close);
  return { broker, client, reports };
}

function order(overrides: Partial<OrderRequest> = {}): OrderRequest {
  return {
    clientOrderId: 'acc-1/EURUSD/1',
    accountId: ACCOUNT,
    symbol: 'EURUSD',
    side: 'buy',
    units: 12_345,
    takeProfit: 0,
    stopLoss: 0,
    ...overrides,
  };
}

const kinds = (reports: ExecutionReport[]) => reports.map((r) => `${r.kind}:${r.clientOrderId}`);

describe('cTrader broker adapter against the local fake', () => {
  it('maps the broker symbols to our instruments, lists the others, and streams their prices', async () => {
    const server = await startServer();
    const { broker } = await startBroker(server);
    expect(broker.unmappedSymbols(ACCOUNT)).toEqual(['ZZZ/QQQ']);
    await until(() => broker.lastTick('EURUSD') !== undefined, 'the first spot');
    expect(broker.lastTick('EURUSD')).toMatchObject({ bid: 1.085, ask: 1.08512 });
    const ticks: Tick[] = [];
    broker.subscribe((tick) => ticks.push(tick));
    server.setPrice(EURUSD.symbolId, 1.0861, 1.08618);
    await until(() => ticks.length === 1, 'a tick');
    expect(ticks[0]).toMatchObject({ symbol: 'EURUSD', bid: 1.0861, ask: 1.08618 });
    expect(broker.accountFigures(ACCOUNT)).toEqual({
      equityCents: 1_000_000,
      usedMarginCents: 0,
      freeMarginCents: 1_000_000,
    });
  });

  it('sends a market order with the published geometry in the broker units and a client order id', async () => {
    const server = await startServer();
    const { broker, reports } = await startBroker(server);
    await until(() => broker.lastTick('EURUSD') !== undefined, 'the first spot');
    const tick = broker.lastTick('EURUSD');
    if (tick === undefined) throw new Error('no tick');
    broker.submitOrder(order());
    await until(() => reports.length === 1, 'the fill');

    const [sent] = server.requests('ProtoOANewOrderReq');
    expect(sent?.body).toMatchObject({
      orderType: 'MARKET',
      tradeSide: 'BUY',
      volume: 1_200_000, // 12,345 units floored to the 1,000-unit step, in cents of a unit
      relativeTakeProfit: 10, // one pip (0.0001) in 1/100000
      relativeStopLoss: 12 + 5 * (12 + 10), // the spread, plus five times spread + 1 pip
      clientOrderId: 'acc-1/EURUSD/1',
      label: 'acc-1/EURUSD/1',
    });
    const geometry = tradeGeometry('buy', tick, catalogue.require('EURUSD'));
    expect(reports[0]).toMatchObject({
      kind: 'filled',
      clientOrderId: 'acc-1/EURUSD/1',
      symbol: 'EURUSD',
      side: 'buy',
      units: 12_000,
      price: 1.08512,
      takeProfit: geometry.takeProfit,
      stopLoss: geometry.stopLoss,
    });
    // Margin from the broker: 12,000 x 1.08512 / 100 = $130.21.
    expect(broker.accountFigures(ACCOUNT)?.usedMarginCents).toBe(13_021);

    server.setPrice(EURUSD.symbolId, geometry.takeProfit, geometry.takeProfit + 0.00012);
    await until(() => reports.length === 2, 'the close');
    expect(reports[1]).toMatchObject({
      kind: 'position-closed',
      clientOrderId: 'acc-1/EURUSD/1',
      reason: 'tp',
      profitCents: 120, // one pip on 12,000 units
    });
    expect(broker.account(ACCOUNT)?.balanceCents).toBe(1_000_120);
    expect(broker.openPositions(ACCOUNT)).toEqual([]);
  });

  it('trades a crypto symbol in its own units, on any day: volume in hundredths of a bitcoin, a pip of a dollar', async () => {
    const server = await startServer({ symbols: [BTCUSD] });
    const { broker, reports } = await startBroker(server);
    await until(() => broker.lastTick('BTCUSD') !== undefined, 'the first spot');
    broker.submitOrder(order({ symbol: 'BTCUSD', units: 0.0537 }));
    await until(() => reports.length === 1, 'the fill');
    expect(server.requests('ProtoOANewOrderReq')[0]?.body).toMatchObject({
      symbolId: BTCUSD.symbolId,
      volume: 5, // 0.05 BTC: 0.0537 floored to the 0.01 step
      relativeTakeProfit: 100_000, // one pip, $1
      relativeStopLoss: 3_100_000 + 5 * (3_100_000 + 100_000), // $31 spread, plus 5 x (spread + pip)
    });
    expect(reports[0]).toMatchObject({
      kind: 'filled',
      units: 0.05,
      price: 62_031,
      takeProfit: 62_032,
      stopLoss: 62_031 - 31 - 5 * 32,
    });
    server.setPrice(BTCUSD.symbolId, 62_032, 62_063);
    await until(() => reports.length === 2, 'the close');
    expect(reports[1]).toMatchObject({ kind: 'position-closed', reason: 'tp', profitCents: 5 });
    expect(broker.account(ACCOUNT)?.balanceCents).toBe(1_000_005);
  });

  it('closes at the stop-loss, and on request with the engine reason', async () => {
    const server = await startServer();
    const { broker, reports } = await startBroker(server);
    await until(() => broker.lastTick('EURUSD') !== undefined, 'the first spot');
    broker.submitOrder(order({ side: 'sale' }));
    await until(() => reports.length === 1, 'the fill');
    const sale = reports[0];
    if (sale?.kind !== 'filled') throw new Error('no fill');
    server.setPrice(EURUSD.symbolId, sale.stopLoss - 0.00012, sale.stopLoss);
    await until(() => reports.length === 2, 'the stop-loss');
    expect(reports[1]).toMatchObject({
      kind: 'position-closed',
      clientOrderId: 'acc-1/EURUSD/1',
      reason: 'sl',
      profitCents: -Math.round((sale.stopLoss - sale.price) * 12_000 * 100),
    });
    broker.submitOrder(order({ clientOrderId: 'acc-1/EURUSD/2' }));
    await until(() => reports.length === 3, 'the second fill');
    const buy = reports.find((r) => r.clientOrderId === 'acc-1/EURUSD/2');
    if (buy?.kind !== 'filled') throw new Error('no fill');
    broker.closePosition(ACCOUNT, buy.positionId, 'kill');
    await until(() => reports.length === 4, 'the requested close');
    expect(server.requests('ProtoOAClosePositionReq')[0]?.body.volume).toBe(1_200_000);
    expect(reports[3]).toMatchObject({
      kind: 'position-closed',
      clientOrderId: 'acc-1/EURUSD/2',
      reason: 'kill',
    });
  });

  it('keeps all open operations under half the equity by the broker margin figures', async () => {
    const server = await startServer();
    const { broker, reports } = await startBroker(server);
    await until(() => broker.lastTick('EURUSD') !== undefined, 'the first spot');
    broker.submitOrder(order({ units: 1_000_000 }));
    await until(() => reports.length === 1, 'the fill');
    // $5,000 of margin at 1:100 and 1.08512 a unit: 460,778 units, 460,000 at the step.
    expect(server.requests('ProtoOANewOrderReq')[0]?.body.volume).toBe(46_000_000);
    broker.submitOrder(order({ clientOrderId: 'acc-1/EURUSD/2', units: 100_000 }));
    await until(() => reports.length === 2, 'the refusal');
    expect(reports[1]).toMatchObject({ kind: 'rejected', reason: 'INSUFFICIENT_MARGIN' });
    expect(server.requests('ProtoOANewOrderReq')).toHaveLength(1);
  });

  it('refuses below the minimum volume and reports the broker rejections with their reason', async () => {
    const server = await startServer();
    const { broker, reports } = await startBroker(server);
    await until(() => broker.lastTick('EURUSD') !== undefined, 'the first spot');
    broker.submitOrder(order({ units: 999 }));
    expect(reports[0]).toMatchObject({ kind: 'rejected', reason: 'INVALID_SIZE' });
    server.setMarketOpen(false);
    broker.submitOrder(order({ clientOrderId: 'acc-1/EURUSD/2' }));
    await until(() => reports.length === 2, 'the rejection');
    expect(reports[1]).toMatchObject({
      kind: 'rejected',
      reason: 'MARKET_CLOSED',
      brokerCode: 'MARKET_CLOSED',
    });
    broker.submitOrder(order({ clientOrderId: 'acc-1/EURUSD/3', symbol: 'GBPUSD' }));
    expect(reports[2]).toMatchObject({ kind: 'rejected', reason: 'UNKNOWN_INSTRUMENT' });
    expect(server.requests('ProtoOANewOrderReq')).toHaveLength(1);
  });

  it('never sends one client order id twice', async () => {
    const server = await startServer();
    const { broker, reports } = await startBroker(server);
    await until(() => broker.lastTick('EURUSD') !== undefined, 'the first spot');
    broker.submitOrder(order());
    broker.submitOrder(order());
    await until(() => reports.length >= 1, 'the fill');
    broker.submitOrder(order());
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(server.requests('ProtoOANewOrderReq')).toHaveLength(1);
    expect(server.orders).toHaveLength(1);
    expect(await broker.queryOrder('acc-1/EURUSD/1')).toMatchObject({ status: 'filled' });
  });

  it('reconciles an order whose connection dropped after the broker executed it: reported once, not resent', async () => {
    const server = await startServer();
    const { broker, reports } = await startBroker(server);
    await until(() => broker.lastTick('EURUSD') !== undefined, 'the first spot');
    server.failNextOrder('drop-after-execution');
    broker.submitOrder(order());
    await until(() => reports.length === 1, 'the reconciled fill');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(kinds(reports)).toEqual(['filled:acc-1/EURUSD/1']);
    expect(server.requests('ProtoOANewOrderReq')).toHaveLength(1);
    expect(server.orders).toHaveLength(1);
    expect(broker.openPositions(ACCOUNT)).toMatchObject([
      { clientOrderId: 'acc-1/EURUSD/1', units: 12_000 },
    ]);
  });

  it('resends, once, an order the broker never executed before the connection dropped', async () => {
    const server = await startServer();
    const { broker, reports } = await startBroker(server);
    await until(() => broker.lastTick('EURUSD') !== undefined, 'the first spot');
    server.failNextOrder('drop-before-execution');
    broker.submitOrder(order());
    await until(() => reports.length === 1, 'the fill after the resend');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(kinds(reports)).toEqual(['filled:acc-1/EURUSD/1']);
    expect(server.orders).toHaveLength(1);
    expect(server.requests('ProtoOANewOrderReq')).toHaveLength(2);
  });

  it('learns of a close that happened while disconnected', async () => {
    const server = await startServer();
    const { broker, reports } = await startBroker(server);
    await until(() => broker.lastTick('EURUSD') !== undefined, 'the first spot');
    broker.submitOrder(order());
    await until(() => reports.length === 1, 'the fill');
    const fill = reports[0];
    if (fill?.kind !== 'filled') throw new Error('no fill');
    const port = server.port;
    await server.pause();
    server.setPrice(EURUSD.symbolId, fill.takeProfit, fill.takeProfit + 0.00012);
    await server.resume(port);
    await until(() => reports.length === 2, 'the reconciled close');
    expect(reports[1]).toMatchObject({
      kind: 'position-closed',
      clientOrderId: 'acc-1/EURUSD/1',
      reason: 'tp',
      closePrice: fill.takeProfit,
      profitCents: 120,
    });
    expect(broker.openPositions(ACCOUNT)).toEqual([]);
    expect(broker.account(ACCOUNT)?.balanceCents).toBe(
      server.balance(DEMO_ACCOUNT.ctidTraderAccountId),
    );
  });

  it('after a restart, finds its open positions by client order id and leaves the user trades alone', async () => {
    const server = await startServer();
    const first = await startBroker(server);
    await until(() => first.broker.lastTick('EURUSD') !== undefined, 'the first spot');
    first.broker.submitOrder(order());
    await until(() => first.reports.length === 1, 'the fill');
    first.broker.stop();
    first.client.close();

    const second = await startBroker(server);
    expect(second.broker.openPositions(ACCOUNT)).toMatchObject([
      { clientOrderId: 'acc-1/EURUSD/1', symbol: 'EURUSD', side: 'buy', units: 12_000 },
    ]);
    expect(await second.broker.queryOrder('acc-1/EURUSD/1')).toMatchObject({ status: 'filled' });
    second.broker.submitOrder(order());
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(server.orders).toHaveLength(1);
  });

  it('an order half filled whose rest the broker cancels is reported once, with the half, and its margin counts', async () => {
    const server = await startServer();
    const { broker, reports } = await startBroker(server);
    await until(() => broker.lastTick('EURUSD') !== undefined, 'the first spot');
    server.failNextOrder('part-then-cancel');
    broker.submitOrder(order());
    await until(() => reports.length >= 1, 'the fill');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(kinds(reports)).toEqual(['filled:acc-1/EURUSD/1']);
    expect(reports[0]).toMatchObject({ units: 6_000 });
    const [atBroker] = server.openPositions(DEMO_ACCOUNT.ctidTraderAccountId);
    expect(atBroker?.volume).toBe(600_000);
    expect(broker.openPositions(ACCOUNT)).toMatchObject([{ units: 6_000 }]);
    expect(broker.accountFigures(ACCOUNT)?.usedMarginCents).toBe(atBroker?.usedMargin);
    expect(await broker.queryOrder('acc-1/EURUSD/1')).toMatchObject({ status: 'filled' });
  });

  it("works out a round turn's commission per unit from the broker's symbol, and none it cannot read", async () => {
    const server = await startServer({
      symbols: [
        {
          ...EURUSD,
          // 35 USD a million on each side, at least 2 USD a trade.
          commission: {
            commissionType: 'USD_PER_MILLION_USD',
            preciseTradingCommissionRate: 35 * 1e8,
            preciseMinCommission: 2 * 1e8,
          },
        },
        // 5 USD a lot (1 BTC) on each side.
        {
          ...BTCUSD,
          commission: { commissionType: 'USD_PER_LOT', preciseTradingCommissionRate: 5e8 },
        },
        // Only the deprecated field: its scale is not documented, so no trading on it.
        { ...UNMAPPABLE, symbolId: 7, symbolName: 'XAUUSD', commission: { commission: 12 } },
      ],
    });
    const { broker } = await startBroker(server);
    await until(() => broker.lastTick('EURUSD') !== undefined, 'the first spot');
    const price = 1.085;
    // An order of 10% of the $10,000 equity in margin, at the lower of the account's 1:100 and
    // our catalogue's leverage: there the 2 USD minimum weighs more than 35 a million.
    const leverage = Math.min(100, catalogue.require('EURUSD').leverage);
    const units = (0.1 * 10_000) / (price / leverage);
    const byRate = 2 * 35e-6 * price;
    const expected = Math.max(byRate, (2 * 2) / units);
    expect((2 * 2) / units).toBeGreaterThan(byRate);
    expect(broker.roundTurnCost(ACCOUNT, 'EURUSD', price)).toBeCloseTo(expected, 12);
    expect(broker.roundTurnCost(ACCOUNT, 'BTCUSD', 60_000)).toBeCloseTo(10, 12);
    expect(broker.unmappedSymbols(ACCOUNT)).not.toContain('XAUUSD');
    expect(broker.roundTurnCost(ACCOUNT, 'XAUUSD', 2_000)).toBeUndefined();
    expect(broker.roundTurnCost(ACCOUNT, 'GBPUSD', 1.27)).toBeUndefined(); // not at this broker
  });

  it("shows an open operation's profit net of the commission it will pay, and books the round turn the broker charged at its close", async () => {
    const commission = {
      commissionType: 'USD_PER_MILLION_USD',
      preciseTradingCommissionRate: 35e8,
    };
    const server = await startServer({ symbols: [{ ...EURUSD, commission }] });
    const { broker, reports } = await startBroker(server);
    await until(() => broker.lastTick('EURUSD') !== undefined, 'the first spot');
    broker.submitOrder(order());
    await until(() => reports.length === 1, 'the fill');
    const fill = reports[0];
    if (fill?.kind !== 'filled') throw new Error('no fill');
    // 12,000 units at 1.08512 are $13,021.44: 35 a million is $0.46 a side.
    const side = Math.round((35 * 12_000 * 1.08512 * 100) / 1_000_000);
    expect(side).toBe(46);
    const [open] = broker.openPositions(ACCOUNT);
    const byPrice = Math.round((1.085 - 1.08512) * 12_000 * 100);
    expect(open?.unrealisedProfitCents).toBe(byPrice - side);
    expect(broker.accountFigures(ACCOUNT)?.equityCents).toBe(1_000_000 + byPrice - side);

    server.setPrice(EURUSD.symbolId, fill.takeProfit, fill.takeProfit + 0.00012);
    await until(() => reports.length === 2, 'the close');
    // One pip on 12,000 units, less both sides.
    expect(reports[1]).toMatchObject({
      kind: 'position-closed',
      reason: 'tp',
      profitCents: 120 - 2 * side,
    });
    expect(broker.account(ACCOUNT)?.balanceCents).toBe(
      server.balance(DEMO_ACCOUNT.ctidTraderAccountId),
    );
    expect(broker.account(ACCOUNT)?.balanceCents).toBe(1_000_000 + 120 - 2 * side);
  });

  it("positions the user or another app opens on the account are never the robot's: not reported, listed or closed by it, but their margin counts, live and after a restart", async () => {
    const server = await startServer();
    const first = await startBroker(server);
    await until(() => first.broker.lastTick('EURUSD') !== undefined, 'the first spot');
    const ctid = DEMO_ACCOUNT.ctidTraderAccountId;
    // By hand in cTrader (no label), and by another app with a label of its own that looks
    // like a client order id.
    const byHand = server.openElsewhere(ctid, EURUSD.symbolId, 'SELL', 1_000_000);
    const otherApp = server.openElsewhere(
      ctid,
      EURUSD.symbolId,
      'BUY',
      2_000_000,
      'bot-7/EURUSD/1',
    );
    const marginOf = (positionId: number) =>
      server.openPositions(ctid).find((p) => p.positionId === positionId)?.usedMargin ?? NaN;
    const theirs = marginOf(byHand) + marginOf(otherApp);
    await until(
      () => first.broker.accountFigures(ACCOUNT)?.usedMarginCents === theirs,
      'their margin counted',
    );
    first.broker.submitOrder(order());
    await until(() => first.reports.length === 1, 'the robot fill');
    expect(kinds(first.reports)).toEqual(['filled:acc-1/EURUSD/1']);
    expect(first.broker.openPositions(ACCOUNT).map((p) => p.clientOrderId)).toEqual([
      'acc-1/EURUSD/1',
    ]);
    const ours = first.broker.openPositions(ACCOUNT)[0]?.marginCents ?? NaN;
    expect(first.broker.accountFigures(ACCOUNT)?.usedMarginCents).toBe(theirs + ours);

    // After a restart: the same, from the broker's list of open positions.
    first.broker.stop();
    first.client.close();
    const second = await startBroker(server);
    expect(second.broker.openPositions(ACCOUNT).map((p) => p.clientOrderId)).toEqual([
      'acc-1/EURUSD/1',
    ]);
    expect(second.reports.filter((r) => r.clientOrderId !== 'acc-1/EURUSD/1')).toEqual([]);
    expect(second.broker.accountFigures(ACCOUNT)?.usedMarginCents).toBe(theirs + ours);

    // The price moves (within every protection): their profit, as the broker reports it, is in
    // the equity with ours.
    server.setPrice(EURUSD.symbolId, 1.0849, 1.08502);
    await until(() => second.broker.lastTick('EURUSD')?.bid === 1.0849, 'the spot');
    const balance = second.broker.account(ACCOUNT)?.balanceCents ?? NaN;
    // Sold 10,000 at 1.085, closing at 1.08502; bought 20,000 at 1.08512, closing at 1.0849.
    const theirProfit =
      Math.round(-(1.08502 - 1.085) * 10_000 * 100) + Math.round((1.0849 - 1.08512) * 20_000 * 100);
    const ourProfit = () => second.broker.openPositions(ACCOUNT)[0]?.unrealisedProfitCents ?? NaN;
    expect(ourProfit()).toBe(Math.round((1.0849 - 1.08512) * 12_000 * 100));
    await until(
      () =>
        second.broker.accountFigures(ACCOUNT)?.equityCents === balance + theirProfit + ourProfit(),
      'their profit in the equity',
    );

    // The user closes their own trade: its margin goes; the robot books nothing.
    server.closePart(byHand, 1_000_000);
    await until(
      () => second.broker.accountFigures(ACCOUNT)?.usedMarginCents === marginOf(otherApp) + ours,
      'their margin released',
    );
    expect(second.reports.filter((r) => r.kind === 'position-closed')).toEqual([]);
    expect(server.openPositions(ctid).map((p) => p.positionId)).toContain(otherApp);
  });

  it('after a restart, books from the deal list an operation that closed at its take-profit while no process listened: once, with the broker price and profit', async () => {
    const server = await startServer();
    const first = await startBroker(server);
    await until(() => first.broker.lastTick('EURUSD') !== undefined, 'the first spot');
    first.broker.submitOrder(order());
    await until(() => first.reports.length === 1, 'the fill');
    const fill = first.reports[0];
    if (fill?.kind !== 'filled') throw new Error('no fill');
    first.broker.stop();
    first.client.close();
    // The take-profit is hit at the broker while no process is connected.
    server.setPrice(EURUSD.symbolId, fill.takeProfit, fill.takeProfit + 0.00012);
    expect(server.openPositions(DEMO_ACCOUNT.ctidTraderAccountId)).toEqual([]);

    const second = await startBroker(server);
    const result = await second.broker.queryOrder('acc-1/EURUSD/1');
    if (result.status !== 'filled') throw new Error('not found in the history');
    expect(result.fill).toMatchObject({
      positionId: fill.positionId,
      price: fill.price,
      takeProfit: fill.takeProfit,
      stopLoss: fill.stopLoss,
      units: 12_000,
    });
    expect(result.closed).toMatchObject({
      kind: 'position-closed',
      positionId: fill.positionId,
      reason: 'tp',
      closePrice: fill.takeProfit,
      profitCents: 120, // the fake's deal: one pip on 12,000 units
    });
    expect(second.broker.account(ACCOUNT)?.balanceCents).toBe(
      server.balance(DEMO_ACCOUNT.ctidTraderAccountId),
    );
    expect(second.broker.account(ACCOUNT)?.balanceCents).toBe(1_000_120);
    expect(second.broker.openPositions(ACCOUNT)).toEqual([]);
    expect(kinds(second.reports)).toEqual([
      'filled:acc-1/EURUSD/1',
      'position-closed:acc-1/EURUSD/1',
    ]);

    // Reconciled again (a reconnection): the history is read again and nothing is booked twice.
    const reads = server.requests('ProtoOADealListReq').length;
    server.dropConnections();
    await until(
      () => server.requests('ProtoOADealListReq').length > reads,
      'the next history read',
    );
    await second.broker.queryOrder('acc-1/EURUSD/1');
    expect(kinds(second.reports)).toEqual([
      'filled:acc-1/EURUSD/1',
      'position-closed:acc-1/EURUSD/1',
    ]);
    expect(second.broker.account(ACCOUNT)?.balanceCents).toBe(1_000_120);
  });

  it('after a restart, finds in the history an order whose fill the dead process never heard of, filled and closed since', async () => {
    const server = await startServer();
    // No reconnection: the process dies with the connection.
    const first = await connectBroker(server, ACCOUNT, {
      catalogue,
      client: { backoffInitialMs: 60_000, backoffMaxMs: 60_000 },
    });
    cleanups.push(first.close);
    const heard: ExecutionReport[] = [];
    first.broker.onReport((report) => heard.push(report));
    await first.broker.start();
    await until(() => first.broker.lastTick('EURUSD') !== undefined, 'the first spot');
    server.failNextOrder('drop-after-execution');
    first.broker.submitOrder(order({ side: 'sale' }));
    await until(() => server.orders.length === 1, 'the execution');
    first.close();
    expect(heard).toEqual([]);
    const [position] = server.openPositions(DEMO_ACCOUNT.ctidTraderAccountId);
    if (position === undefined) throw new Error('no position');
    server.setPrice(EURUSD.symbolId, position.stopLoss - 0.00012, position.stopLoss);

    const second = await startBroker(server);
    const result = await second.broker.queryOrder('acc-1/EURUSD/1');
    if (result.status !== 'filled') throw new Error('not found in the history');
    expect(result.fill).toMatchObject({ price: position.price, stopLoss: position.stopLoss });
    const loss = Math.round((position.stopLoss - position.price) * 12_000 * 100);
    expect(result.closed).toMatchObject({
      reason: 'sl',
      closePrice: position.stopLoss,
      profitCents: -loss,
    });
    expect(second.broker.account(ACCOUNT)?.balanceCents).toBe(1_000_000 - loss);
    expect(server.requests('ProtoOANewOrderReq')).toHaveLength(1);
  });

  describe('a position the user closes in part at the broker', () => {
    /** 12,000 EURUSD units bought at 1.08512 (take-profit 1.08522); the market at 1.08520. */
    async function opened(
      server: FakeCTraderServer,
      broker: CTraderBroker,
      reports: ExecutionReport[],
    ) {
      await until(() => broker.lastTick('EURUSD') !== undefined, 'the first spot');
      broker.submitOrder(order());
      await until(() => reports.length === 1, 'the fill');
      const fill = reports[0];
      if (fill?.kind !== 'filled') throw new Error('no fill');
      server.setPrice(EURUSD.symbolId, 1.0852, 1.08532);
      return Number(fill.positionId);
    }
    // 4,000 units closed at 1.08520 (+$0.32), the 8,000 left at the take-profit (+$0.80).
    const whole = {
      kind: 'position-closed',
      clientOrderId: 'acc-1/EURUSD/1',
      reason: 'tp',
      closePrice: 1.08521, // (4,000 x 1.08520 + 8,000 x 1.08522) / 12,000
      profitCents: 32 + 80,
    };

    it('is booked closed once, with every part, when its last part closes', async () => {
      const server = await startServer();
      const { broker, reports } = await startBroker(server);
      const positionId = await opened(server, broker, reports);
      server.closePart(positionId, 400_000);
      await until(() => broker.account(ACCOUNT)?.balanceCents === 1_000_032, 'the part booked');
      expect(broker.openPositions(ACCOUNT)).toMatchObject([{ units: 8_000 }]);
      expect(kinds(reports)).toEqual(['filled:acc-1/EURUSD/1']);
      server.setPrice(EURUSD.symbolId, 1.08522, 1.08534);
      await until(() => reports.length === 2, 'the close');
      expect(reports[1]).toMatchObject(whole);
      expect(broker.account(ACCOUNT)?.balanceCents).toBe(
        server.balance(DEMO_ACCOUNT.ctidTraderAccountId),
      );
    });

    it('a part closed while disconnected is found in the deals and booked with the last part', async () => {
      const server = await startServer();
      const { broker, reports } = await startBroker(server);
      const positionId = await opened(server, broker, reports);
      const port = server.port;
      await server.pause();
      server.closePart(positionId, 400_000);
      await server.resume(port);
      await until(() => broker.openPositions(ACCOUNT)[0]?.units === 8_000, 'the reconciled part');
      server.setPrice(EURUSD.symbolId, 1.08522, 1.08534);
      await until(() => reports.length === 2, 'the close');
      expect(reports[1]).toMatchObject(whole);
      expect(broker.account(ACCOUNT)?.balanceCents).toBe(1_000_112);
    });

    it('after a restart, both parts closed while no process listened are booked as one close', async () => {
      const server = await startServer();
      const first = await startBroker(server);
      const positionId = await opened(server, first.broker, first.reports);
      first.broker.stop();
      first.client.close();
      server.closePart(positionId, 400_000);
      server.setPrice(EURUSD.symbolId, 1.08522, 1.08534);
      const second = await startBroker(server);
      const result = await second.broker.queryOrder('acc-1/EURUSD/1');
      expect(result).toMatchObject({ status: 'filled', closed: whole });
      expect(kinds(second.reports)).toEqual([
        'filled:acc-1/EURUSD/1',
        'position-closed:acc-1/EURUSD/1',
      ]);
      expect(second.broker.account(ACCOUNT)?.balanceCents).toBe(1_000_112);
    });
  });

  it('follows deposits and withdrawals made at the broker', async () => {
    const server = await startServer();
    const { broker } = await startBroker(server);
    server.depositOrWithdraw(DEMO_ACCOUNT.ctidTraderAccountId, 50_000); // $500.00
    await until(() => broker.account(ACCOUNT)?.balanceCents === 1_050_000, 'the deposit');
    server.depositOrWithdraw(DEMO_ACCOUNT.ctidTraderAccountId, -20_000);
    await until(() => broker.account(ACCOUNT)?.balanceCents === 1_030_000, 'the withdrawal');
    expect(broker.accountFigures(ACCOUNT)?.equityCents).toBe(1_030_000);
  });

  it('stops opening once the broker says the grant expired', async () => {
    const server = await startServer();
    const { broker, reports } = await startBroker(server);
    await until(() => broker.lastTick('EURUSD') !== undefined, 'the first spot');
    server.expireToken(DEMO_ACCOUNT.accessToken);
    await until(() => !broker.authorised(ACCOUNT), 'the invalidation');
    broker.submitOrder(order());
    expect(reports).toMatchObject([{ kind: 'rejected', reason: 'NOT_AUTHORISED' }]);
    expect(server.requests('ProtoOANewOrderReq')).toHaveLength(0);
  });
});

describe('cTrader broker adapter on an account in reais (decision 097)', () => {
  const brlServer = () =>
    startServer({ accounts: [DEMO_ACCOUNT, BRL_ACCOUNT], symbols: [EURUSD, USDBRL] });

  it('reads the deposit currency from the asset list and its amounts with their money digits', async () => {
    const server = await brlServer();
    const { broker } = await startBroker(server, BRL_ACCOUNT);
    expect(broker.accountCurrency(ACCOUNT)).toBe('BRL');
    expect(broker.account(ACCOUNT)).toMatchObject({ currency: 'BRL', balanceCents: 2_000_000 });
    expect(server.requests('ProtoOASymbolsForConversionReq')[0]?.body).toMatchObject({
      firstAssetId: 15, // EURUSD's quote, USD
      lastAssetId: BRL_ACCOUNT.depositAssetId,
    });
    // USDBRL's mid, (5.000 + 5.002) / 2, and it follows the broker's price.
    await until(() => broker.quoteToAccount(ACCOUNT, 'EURUSD') !== undefined, 'USDBRL spot');
    expect(broker.quoteToAccount(ACCOUNT, 'EURUSD')).toBeCloseTo(5.001, 10);
    expect(broker.quoteToAccount(ACCOUNT, 'USDBRL')).toBe(1);
    server.setPrice(USDBRL.symbolId, 5.2, 5.2);
    await until(() => broker.quoteToAccount(ACCOUNT, 'EURUSD') === 5.2, 'the new USDBRL');
  });

  it('caps the margin at half the equity in reais, converted at the broker USDBRL', async () => {
    const server = await brlServer();
    const { broker, reports } = await startBroker(server, BRL_ACCOUNT);
    await until(() => broker.quoteToAccount(ACCOUNT, 'EURUSD') !== undefined, 'the spots');
    broker.submitOrder(order({ units: 1_000_000 }));
    await until(() => reports.length === 1, 'the fill');
    // R$ 10,000 of margin at 1:100, each unit 1.08512 USD × 5.001 BRL: 184,274 units, 184,000 at
    // the step. Read as dollars, the same balance would have bought 921,000.
    expect(server.requests('ProtoOANewOrderReq')[0]?.body.volume).toBe(18_400_000);
    // The broker's own margin, in centavos: 184,000 × 1.08512 × 5.001 / 100 = R$ 9,985.10.
    expect(broker.accountFigures(ACCOUNT)?.usedMarginCents).toBe(998_510);
    broker.submitOrder(order({ clientOrderId: 'acc-1/EURUSD/2', units: 100_000 }));
    await until(() => reports.length === 2, 'the refusal');
    expect(reports[1]).toMatchObject({ kind: 'rejected', reason: 'INSUFFICIENT_MARGIN' });
    // A profit in dollars is marked in reais (short of the take-profit, 1.08522):
    // 0.00008 × 184,000 × 5.001 = R$ 73.61.
    server.setPrice(EURUSD.symbolId, 1.0852, 1.08532);
    await until(() => broker.lastTick('EURUSD')?.bid === 1.0852, 'the new price');
    expect(broker.openPositions(ACCOUNT)[0]?.unrealisedProfitCents).toBe(7_361);
    expect(broker.accountFigures(ACCOUNT)?.equityCents).toBe(2_007_361);
  });

  it('does not trade a symbol it cannot value in the account currency, and says so', async () => {
    const server = await startServer({ accounts: [BRL_ACCOUNT], symbols: [EURUSD] });
    const { broker, reports } = await startBroker(server, BRL_ACCOUNT);
    expect(broker.unconvertibleSymbols(ACCOUNT)).toEqual(['EURUSD']);
    expect(server.requests('ProtoOASubscribeSpotsReq')).toHaveLength(0);
    broker.submitOrder(order());
    expect(reports).toMatchObject([{ kind: 'rejected', reason: 'UNKNOWN_INSTRUMENT' }]);
    expect(server.requests('ProtoOANewOrderReq')).toHaveLength(0);
  });
});
