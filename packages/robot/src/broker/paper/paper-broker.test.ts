import { describe, expect, it } from 'vitest';
import { InstrumentCatalogue } from '../../instruments/catalogue';
import type { ExecutionReport, OrderRequest } from '../broker-adapter';
import { PaperBroker, settledOrdersKept } from './paper-broker';

const catalogue = new InstrumentCatalogue();
const tuesday = Date.parse('2024-06-11T14:00:00Z'); // every market in the tests is open
const saturday = Date.parse('2024-06-15T12:00:00Z');

function setUp(depositCents = 1_000_000) {
  const broker = new PaperBroker(catalogue);
  const reports: ExecutionReport[] = [];
  broker.onReport((r) => reports.push(r));
  void broker.openAccount('a1', depositCents);
  const tick = (symbol: string, bid: number, ask: number, time = tuesday) => {
    broker.onTick({ symbol, bid, ask, time });
  };
  return { broker, reports, tick };
}

const buyEurUsd: OrderRequest = {
  clientOrderId: 'o1',
  accountId: 'a1',
  symbol: 'EURUSD',
  side: 'buy',
  units: 10_000,
  takeProfit: 1.1003,
  stopLoss: 1.0985,
};

describe('PaperBroker orders', () => {
  it('fills a buy at the ask and a sale at the bid, with margin = notional / leverage', () => {
    const { broker, reports, tick } = setUp();
    tick('EURUSD', 1.1, 1.1001);
    broker.submitOrder(buyEurUsd);
    broker.submitOrder({
      ...buyEurUsd,
      clientOrderId: 'o2',
      side: 'sale',
      takeProfit: 1.0995,
      stopLoss: 1.1015,
    });
    const [buy, sale] = reports;
    expect(buy).toMatchObject({ kind: 'filled', price: 1.1001, marginCents: 36_670 }); // 11,001 / 30
    expect(sale).toMatchObject({ kind: 'filled', price: 1.1, marginCents: 36_667 });
  });

  it('computes equity and free margin from unrealised profit', () => {
    const { broker, tick } = setUp();
    tick('EURUSD', 1.1, 1.1001);
    broker.submitOrder(buyEurUsd);
    tick('EURUSD', 1.1002, 1.1003);
    expect(broker.account('a1')).toMatchObject({
      balanceCents: 1_000_000,
      equityCents: 1_000_000 + 100, // (1.1002 - 1.1001) * 10,000 = $1
      usedMarginCents: 36_670,
      freeMarginCents: 1_000_100 - 36_670,
    });
  });

  it('rejects orders with no price, on a closed market, with stops on the wrong side or too big', () => {
    const { broker, reports, tick } = setUp(10_000);
    broker.submitOrder(buyEurUsd);
    tick('EURUSD', 1.1, 1.1001, saturday);
    broker.submitOrder({ ...buyEurUsd, clientOrderId: 'o2' });
    tick('EURUSD', 1.1, 1.1001);
    broker.submitOrder({ ...buyEurUsd, clientOrderId: 'o3', takeProfit: 1.0999 });
    broker.submitOrder({ ...buyEurUsd, clientOrderId: 'o4' }); // $366 margin on a $100 account
    expect(reports.map((r) => (r.kind === 'rejected' ? r.reason : r.kind))).toEqual([
      'NO_PRICE',
      'MARKET_CLOSED',
      'INVALID_STOPS',
      'INSUFFICIENT_MARGIN',
    ]);
  });

  it('answers a resent client order id with the original report and no second position', () => {
    const { broker, reports, tick } = setUp();
    tick('EURUSD', 1.1, 1.1001);
    broker.submitOrder(buyEurUsd);
    broker.submitOrder(buyEurUsd);
    expect(reports).toHaveLength(2);
    expect(reports[1]).toEqual(reports[0]);
    expect(broker.account('a1')?.openPositions).toBe(1);
  });
});

describe('PaperBroker exits', () => {
  it('takes profit on the bid for a buy, at the TP level even through a gap', () => {
    const { broker, reports, tick } = setUp();
    tick('EURUSD', 1.1, 1.1001);
    broker.submitOrder(buyEurUsd);
    tick('EURUSD', 1.1002, 1.1004); // ask above TP, bid below: no exit
    expect(reports).toHaveLength(1);
    tick('EURUSD', 1.101, 1.1011); // gap through the TP
    expect(reports[1]).toMatchObject({
      kind: 'position-closed',
      reason: 'tp',
      closePrice: 1.1003,
      profitCents: 200,
    });
  });

  it('stops a sale on the ask and fills a gap at the worse market price', () => {
    const { broker, reports, tick } = setUp();
    tick('EURUSD', 1.1, 1.1001);
    broker.submitOrder({ ...buyEurUsd, side: 'sale', takeProfit: 1.0995, stopLoss: 1.1015 });
    tick('EURUSD', 1.1019, 1.102);
    expect(reports[1]).toMatchObject({ reason: 'sl', closePrice: 1.102, profitCents: -2_000 });
  });

  it('converts profit in another quote currency to USD cents at the close', () => {
    const { broker, reports, tick } = setUp();
    tick('USDJPY', 150, 150.01);
    broker.submitOrder({
      clientOrderId: 'j',
      accountId: 'a1',
      symbol: 'USDJPY',
      side: 'buy',
      units: 10_000,
      takeProfit: 150.03,
      stopLoss: 149.9,
    });
    tick('USDJPY', 150.03, 150.04);
    // 0.02 JPY * 10,000 = 200 JPY at 150.035 JPY per USD = $1.333 -> 133 cents
    expect(reports[1]).toMatchObject({ reason: 'tp', profitCents: 133 });
  });

  it('closes out the biggest loser when equity falls to 50% of used margin', () => {
    const { broker, reports, tick } = setUp(100_000); // $1,000
    tick('EURUSD', 1.1, 1.1001);
    // 20,000 units: margin $733 on a $1,000 account
    broker.submitOrder({ ...buyEurUsd, units: 20_000, stopLoss: 1.0 });
    tick('EURUSD', 1.0815, 1.0816); // loss $372: equity $628, well above half the margin
    expect(broker.account('a1')?.openPositions).toBe(1);
    tick('EURUSD', 1.07, 1.0701); // loss $602: equity $398 >= $367 still open
    expect(broker.account('a1')?.openPositions).toBe(1);
    tick('EURUSD', 1.068, 1.0681); // loss $642: equity $358 < $367 -> close-out
    expect(reports.at(-1)).toMatchObject({ reason: 'closeout', profitCents: -64_200 });
    expect(broker.account('a1')).toMatchObject({
      openPositions: 0,
      balanceCents: 35_800,
      usedMarginCents: 0,
    });
  });

  it('never lets the balance go below zero, and keeps balance = deposits + realised profit', () => {
    const { broker, tick } = setUp(100_000);
    tick('EURUSD', 1.1, 1.1001);
    broker.submitOrder({ ...buyEurUsd, units: 20_000, stopLoss: 1.0 });
    tick('EURUSD', 0.9, 0.9001, tuesday + 60_000); // a 20% gap: loss $4,002 on a $1,000 account
    const account = broker.account('a1');
    expect(account).toMatchObject({ balanceCents: 0, openPositions: 0 });
    expect(account?.balanceCents).toBe(
      (account?.depositsCents ?? 0) + (account?.realisedProfitCents ?? 0),
    );
  });
});

describe('PaperBroker account figures', () => {
  it('gives the latest figures on every call, each a snapshot that does not move', () => {
    const { broker, tick } = setUp();
    const before = broker.account('a1');
    const figuresBefore = broker.accountFigures('a1');
    expect(broker.accountFigures('nobody')).toBeUndefined();
    tick('EURUSD', 1.1, 1.1001);
    broker.submitOrder(buyEurUsd);
    tick('EURUSD', 1.1001, 1.1002, tuesday + 1); // marked to market: equity moves
    const after = broker.account('a1');
    expect(broker.accountFigures('a1')).toMatchObject({
      equityCents: after?.equityCents,
      usedMarginCents: after?.usedMarginCents,
      freeMarginCents: after?.freeMarginCents,
    });
    expect(after?.usedMarginCents).toBeGreaterThan(0);
    expect(before?.usedMarginCents).toBe(0); // the snapshots did not move
    expect(figuresBefore).toEqual({
      equityCents: 1_000_000,
      usedMarginCents: 0,
      freeMarginCents: 1_000_000,
    });
    expect(broker.accountFigures('a1')).not.toBe(broker.accountFigures('a1'));
  });
});

describe('PaperBroker order history', () => {
  it(`keeps the last ${settledOrdersKept.toLocaleString('en-US')} settled orders, and every open one`, async () => {
    const { broker, reports, tick } = setUp();
    tick('EURUSD', 1.1, 1.1001);
    broker.submitOrder(buyEurUsd); // filled, and open throughout
    broker.submitOrder({ ...buyEurUsd, clientOrderId: 'o2', takeProfit: 1.1002 });
    tick('EURUSD', 1.1002, 1.1003, tuesday + 1); // o2 reaches its take-profit, o1 not yet
    expect(reports.map((r) => r.kind)).toEqual(['filled', 'filled', 'position-closed']);
    // Rejections (an account the broker does not know) settle at once.
    const rejected = (n: number) => ({ ...buyEurUsd, clientOrderId: `r${n}`, accountId: 'nobody' });
    for (let n = 1; n < settledOrdersKept; n++) broker.submitOrder(rejected(n));
    expect(await broker.queryOrder('o2')).toMatchObject({
      status: 'filled',
      closed: { reason: 'tp' },
    });
    broker.submitOrder(rejected(settledOrdersKept));
    expect(await broker.queryOrder('o2')).toEqual({ status: 'unknown' });
    expect(await broker.queryOrder('r1')).toMatchObject({ status: 'rejected' });
    broker.submitOrder(rejected(settledOrdersKept + 1));
    expect(await broker.queryOrder('r1')).toEqual({ status: 'unknown' });
    expect(await broker.queryOrder('o1')).toMatchObject({ status: 'filled', closed: undefined });
    expect(broker.snapshot().orders).toHaveLength(settledOrdersKept + 1);
    // A restored broker keeps the same window.
    const restored = PaperBroker.restore(catalogue, {
      ...broker.snapshot(),
      orders: [
        ...broker.snapshot().orders,
        {
          outcome: { ...rejected(0), kind: 'rejected', reason: 'UNKNOWN_ACCOUNT', time: 0 },
          closed: undefined,
        },
      ],
    });
    expect(restored.snapshot().orders).toHaveLength(settledOrdersKept + 1);
    expect(await restored.queryOrder('r2')).toEqual({ status: 'unknown' });
    expect(await restored.queryOrder('o1')).toMatchObject({ status: 'filled' });
  });
});

describe('PaperBroker persistence', () => {
  it('restores accounts, open positions and order history from a snapshot', async () => {
    const { broker, tick } = setUp();
    tick('EURUSD', 1.1, 1.1001);
    broker.submitOrder(buyEurUsd);
    const restored = PaperBroker.restore(catalogue, broker.snapshot());
    expect(restored.account('a1')).toEqual(broker.account('a1'));
    expect(await restored.queryOrder('o1')).toEqual(await broker.queryOrder('o1'));
    const reports: ExecutionReport[] = [];
    restored.onReport((r) => reports.push(r));
    restored.onTick({ symbol: 'EURUSD', bid: 1.1003, ask: 1.1004, time: tuesday });
    expect(reports[0]).toMatchObject({ reason: 'tp' });
  });
});
