import { afterEach, describe, expect, it } from 'vitest';
import { InstrumentCatalogue } from '../instruments/catalogue';
import { tradeGeometry } from '../risk/trade-geometry';
import type { BrokerAdapter, ExecutionReport, OrderRequest } from './broker-adapter';
import { FakeCTraderServer } from '../../test-support/ctrader-fake/fake-ctrader-server';
import { EURUSD, fakeOptions } from '../../test-support/ctrader-fake/fixtures';
import { connectBroker, until } from '../../test-support/ctrader-fake/harness';
import { PaperBroker } from './paper/paper-broker';

/**
 * One contract for the robot's broker port, run against the built-in platform and the cTrader
 * adapter on its local fake: the same orders, the same prices, the same reports.
 */

const catalogue = new InstrumentCatalogue();
const ACCOUNT = 'acc-1';
const TUESDAY = Date.parse('2024-06-11T14:00:00Z');
const SATURDAY = Date.parse('2024-06-15T12:00:00Z');
const cleanups: (() => unknown)[] = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

interface Harness {
  readonly broker: BrokerAdapter;
  readonly reports: ExecutionReport[];
  /** A new EURUSD price, seen by the broker when the promise resolves. */
  price(bid: number, ask: number): Promise<void>;
  closeMarket(): Promise<void>;
  /** The next order fills in parts where the platform can do that (the built-in one cannot). */
  fillNextInParts(): void;
  /**
   * The connection drops just after the platform executed the next order, before its answer
   * arrives (a platform reached over the network); the built-in one has no connection.
   */
  dropAfterNextExecution(): void;
  /** The connection drops and comes back; resolves once the adapter is trading again. */
  reconnect(): Promise<void>;
}

async function paperHarness(): Promise<Harness> {
  const broker = new PaperBroker(catalogue);
  const reports: ExecutionReport[] = [];
  broker.onReport((report) => reports.push(report));
  await broker.openAccount(ACCOUNT, 1_000_000);
  let last = { bid: EURUSD.bid, ask: EURUSD.ask };
  const tick = (time: number) => {
    broker.onTick({ symbol: 'EURUSD', time, ...last });
  };
  tick(TUESDAY);
  return {
    broker,
    reports,
    price: (bid, ask) => {
      last = { bid, ask };
      tick(TUESDAY);
      return Promise.resolve();
    },
    closeMarket: () => {
      tick(SATURDAY);
      return Promise.resolve();
    },
    // The built-in platform fills every order whole, at once, in the robot's own process.
    fillNextInParts: () => undefined,
    dropAfterNextExecution: () => undefined,
    reconnect: () => Promise.resolve(),
  };
}

async function ctraderHarness(): Promise<Harness> {
  const server = new FakeCTraderServer(fakeOptions({ symbols: [EURUSD] }));
  await server.listen();
  const { broker, close } = await connectBroker(server, ACCOUNT, { catalogue });
  const reports: ExecutionReport[] = [];
  broker.onReport((report) => reports.push(report));
  await broker.start();
  cleanups.push(async () => {
    close();
    await server.close();
  });
  await until(() => broker.lastTick('EURUSD') !== undefined, 'the first spot');
  return {
    broker,
    reports,
    price: async (bid, ask) => {
      server.setPrice(EURUSD.symbolId, bid, ask);
      await until(() => broker.lastTick('EURUSD')?.bid === bid, 'the spot');
    },
    closeMarket: () => {
      server.setMarketOpen(false);
      return Promise.resolve();
    },
    fillNextInParts: () => {
      server.failNextOrder('fill-in-parts');
    },
    dropAfterNextExecution: () => {
      server.failNextOrder('drop-after-execution');
    },
    reconnect: async () => {
      const before = server.requests('ProtoOAReconcileReq').length;
      server.dropConnections();
      await until(
        () => server.requests('ProtoOAReconcileReq').length > before,
        'the reconciliation after the reconnection',
      );
      await new Promise((resolve) => setTimeout(resolve, 30));
    },
  };
}

function order(clientOrderId: string): OrderRequest {
  const geometry = tradeGeometry(
    'buy',
    { symbol: 'EURUSD', time: TUESDAY, bid: EURUSD.bid, ask: EURUSD.ask },
    catalogue.require('EURUSD'),
  );
  return {
    clientOrderId,
    accountId: ACCOUNT,
    symbol: 'EURUSD',
    side: 'buy',
    units: 12_000,
    takeProfit: geometry.takeProfit,
    stopLoss: geometry.stopLoss,
  };
}

describe.each([
  ['the built-in platform', paperHarness],
  ['cTrader on the local fake', ctraderHarness],
])('broker port contract: %s', (_name, start) => {
  it('opens with the published take-profit and stop-loss and reports once, by client order id', async () => {
    const { broker, reports } = await start();
    const request = order('c-1');
    broker.submitOrder(request);
    await until(() => reports.length === 1, 'the fill');
    expect(reports[0]).toMatchObject({
      kind: 'filled',
      clientOrderId: 'c-1',
      accountId: ACCOUNT,
      symbol: 'EURUSD',
      side: 'buy',
      units: 12_000,
      price: EURUSD.ask,
      takeProfit: request.takeProfit,
      stopLoss: request.stopLoss,
    });
    expect(broker.openPositions(ACCOUNT)).toMatchObject([{ clientOrderId: 'c-1', units: 12_000 }]);
    expect(await broker.queryOrder('c-1')).toMatchObject({ status: 'filled' });
  });

  it('hands out account figures as snapshots the caller may keep', async () => {
    const { broker, reports } = await start();
    const kept = broker.accountFigures(ACCOUNT);
    const copy = { ...kept };
    broker.submitOrder(order('c-1'));
    await until(() => reports.length === 1, 'the fill');
    const now = broker.accountFigures(ACCOUNT);
    expect(now?.usedMarginCents).toBeGreaterThan(0);
    expect(kept).toEqual(copy);
    expect(broker.accountFigures(ACCOUNT)).not.toBe(now);
  });

  it('closes at the take-profit with one pip of profit', async () => {
    const harness = await start();
    const request = order('c-1');
    harness.broker.submitOrder(request);
    await until(() => harness.reports.length === 1, 'the fill');
    await harness.price(request.takeProfit, request.takeProfit + 0.00012);
    await until(() => harness.reports.length === 2, 'the close');
    expect(harness.reports[1]).toMatchObject({
      kind: 'position-closed',
      clientOrderId: 'c-1',
      reason: 'tp',
      profitCents: 120,
    });
    expect(harness.broker.openPositions(ACCOUNT)).toEqual([]);
    expect(harness.broker.account(ACCOUNT)?.balanceCents).toBe(1_000_120);
  });

  it('closes on request with the engine reason', async () => {
    const { broker, reports } = await start();
    broker.submitOrder(order('c-1'));
    await until(() => reports.length === 1, 'the fill');
    const fill = reports[0];
    if (fill?.kind !== 'filled') throw new Error('no fill');
    broker.closePosition(ACCOUNT, fill.positionId, 'kill');
    await until(() => reports.length === 2, 'the close');
    expect(reports[1]).toMatchObject({
      kind: 'position-closed',
      clientOrderId: 'c-1',
      reason: 'kill',
    });
  });

  it('rejects on a closed market', async () => {
    const harness = await start();
    await harness.closeMarket();
    harness.broker.submitOrder(order('c-1'));
    await until(() => harness.reports.length === 1, 'the rejection');
    expect(harness.reports[0]).toMatchObject({
      kind: 'rejected',
      clientOrderId: 'c-1',
      reason: 'MARKET_CLOSED',
    });
    expect(await harness.broker.queryOrder('c-1')).toMatchObject({ status: 'rejected' });
  });

  it('opens one position for a client order id sent twice', async () => {
    const { broker, reports } = await start();
    broker.submitOrder(order('c-1'));
    broker.submitOrder(order('c-1'));
    await until(() => reports.length >= 1, 'the fill');
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(broker.openPositions(ACCOUNT)).toHaveLength(1);
    expect(new Set(reports.map((r) => r.kind))).toEqual(new Set(['filled']));
  });

  it('reports an order filled in parts once, whole, with the margin of all of it', async () => {
    const harness = await start();
    const { broker, reports } = harness;
    harness.fillNextInParts();
    broker.submitOrder(order('c-1'));
    await until(() => reports.length >= 1, 'the fill');
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(reports).toHaveLength(1);
    expect(reports[0]).toMatchObject({ kind: 'filled', clientOrderId: 'c-1', units: 12_000 });
    const [position] = broker.openPositions(ACCOUNT);
    expect(position).toMatchObject({ clientOrderId: 'c-1', units: 12_000 });
    expect(broker.accountFigures(ACCOUNT)?.usedMarginCents).toBe(position?.marginCents);
  });

  it('reports an order once when the connection drops after the platform executed it, and never sends it twice', async () => {
    const harness = await start();
    const { broker, reports } = harness;
    harness.dropAfterNextExecution();
    broker.submitOrder(order('c-1'));
    await until(() => reports.length >= 1, 'the fill, reconciled');
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(reports).toHaveLength(1);
    expect(reports[0]).toMatchObject({ kind: 'filled', clientOrderId: 'c-1' });
    expect(broker.openPositions(ACCOUNT)).toHaveLength(1);
  });

  it('after a reconnection, reconciles by client order id: nothing reported twice, the same id not opened again', async () => {
    const harness = await start();
    const { broker, reports } = harness;
    broker.submitOrder(order('c-1'));
    await until(() => reports.length === 1, 'the fill');
    await harness.reconnect();
    expect(reports).toHaveLength(1);
    // Sent again (a retry): the platform answers with the same fill, and opens nothing more.
    broker.submitOrder(order('c-1'));
    await new Promise((resolve) => setTimeout(resolve, 30));
    const positionId = reports[0]?.kind === 'filled' ? reports[0].positionId : undefined;
    for (const report of reports) expect(report).toMatchObject({ kind: 'filled', positionId });
    expect(broker.openPositions(ACCOUNT)).toMatchObject([{ clientOrderId: 'c-1', units: 12_000 }]);
    expect(await broker.queryOrder('c-1')).toMatchObject({ status: 'filled' });
  });
});
