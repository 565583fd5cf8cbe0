import type { Category } from '@tradebot/contract';
import { describe, expect, it } from 'vitest';
import type { ExecutionReport } from '../broker/broker-adapter';
import type { ExecutionStore } from '../execution/execution-store';
import type { OrderIntent } from '../execution/trade-record';
import { InMemoryExecutionStore } from '../execution/execution-store';
import { PaperBroker } from '../broker/paper/paper-broker';
import { RecordingEventSink } from '../events/engine-events';
import { TickDispatcher } from '../market-data/market-data-feed';
import { InMemoryAccountSettingsSource } from '../settings/robot-settings';
import { FixedSignalStrategy } from '../strategy/fixed-signal-strategy';
import type { Strategy, StrategyOutlook } from '../strategy/strategy';
import { isMarketOpen } from '../instruments/trading-hours';
import { ManualClock } from '../time/clock';
import { catalogue, createRig, deliveringTwice, robotOn, tuesday } from './engine-test-rig';
import { TradingEngine, noEdgeAfterMs } from './trading-engine';

describe('TradingEngine routing', () => {
  it('sends a tick only to accounts whose robot is on and whose categories include it', async () => {
    const rig = await createRig({
      accounts: {
        fx: robotOn({ forex: true }),
        shares: robotOn({ stocks: true }),
        off: { ...robotOn({ all: true }), bot_on: false },
      },
    });
    await rig.tick('EURUSD', 1.1, 1.1001);
    const touched = rig.events.events
      .filter((e) => e.type === 'OrderSubmitted' || e.type === 'OrderDenied')
      .map((e) => ('accountId' in e ? e.accountId : ''));
    expect(touched).toEqual(['fx']);
    expect(rig.engine.openTrades('fx')).toHaveLength(1);
  });

  it('follows settings changes at once', async () => {
    const rig = await createRig({ accounts: { a: robotOn({ forex: true }) } });
    rig.engine.applySettings('a', robotOn({ stocks: true }));
    await rig.tick('EURUSD', 1.1, 1.1001);
    expect(rig.events.ofType('OrderSubmitted')).toHaveLength(0);
    await rig.tick('AAPL.US', 190, 190.03);
    expect(rig.events.ofType('OrderSubmitted').map((e) => e.symbol)).toEqual(['AAPL.US']);
    expect(rig.events.ofType('SettingsApplied')).toHaveLength(1);
  });
});

describe('TradingEngine signal reports', () => {
  it('publishes one SignalEvaluated per signal, its denials counted by reason', async () => {
    const rig = await createRig({
      accounts: {
        a: robotOn({ forex: true }),
        b: robotOn({ forex: true }),
        s: robotOn({ stocks: true }),
      },
      publishDenials: false,
    });
    await rig.tick('EURUSD', 1.1, 1.1001);
    await rig.tick('EURUSD', 1.1, 1.1001, tuesday + 60_000);
    const [first, second] = rig.events.ofType('SignalEvaluated');
    expect(first).toMatchObject({ symbol: 'EURUSD', category: 'forex', routed: 2, ordered: 2 });
    expect(Object.values(first?.denials ?? {}).every((count) => count === 0)).toBe(true);
    expect(second).toMatchObject({ routed: 2, ordered: 0, at: tuesday + 60_000 });
    expect(second?.denials.POSITION_ALREADY_OPEN).toBe(2);
    // Per-account denial events are a diagnostic, off by default.
    expect(rig.events.ofType('OrderDenied')).toHaveLength(0);
  });

  it('keeps counting an open operation of an account removed and added back', async () => {
    const rig = await createRig({ accounts: { a: robotOn(), b: robotOn() } });
    await rig.tick('EURUSD', 1.1, 1.1001);
    rig.engine.removeAccount('a');
    await rig.tick('USDJPY', 150, 150.01);
    expect(rig.engine.openTrades('a').map((t) => t.symbol)).toEqual(['EURUSD']);
    rig.engine.applySettings('a', robotOn());
    await rig.tick('EURUSD', 1.1, 1.1001, tuesday + 60_000);
    const denied = rig.events.ofType('OrderDenied').map((e) => `${e.accountId} ${e.reason}`);
    expect(denied.sort()).toEqual(['a POSITION_ALREADY_OPEN', 'b POSITION_ALREADY_OPEN']);
    expect(rig.engine.openTrades('a')).toHaveLength(1);
  });
});

describe('TradingEngine orders', () => {
  it('sizes an operation at about 10% of free margin at risk 1, with TP/SL from the geometry', async () => {
    const rig = await createRig({ accounts: { a: robotOn() } });
    await rig.tick('EURUSD', 1.1, 1.1001);
    const [trade] = rig.engine.openTrades('a');
    expect(trade).toBeDefined();
    expect(trade?.marginCents).toBeGreaterThan(0.095 * 1_000_000);
    expect(trade?.marginCents).toBeLessThan(0.105 * 1_000_000);
    expect(trade).toMatchObject({
      side: 'buy',
      entryPrice: 1.1001,
      takeProfit: 1.1002,
      stopLoss: 1.099,
    });
  });

  it('uses a deterministic client order id and records the intent before sending', async () => {
    const recordedAtSend: boolean[] = [];
    const rig = await createRig({
      accounts: { a: robotOn() },
      wrapBroker: (broker, store) => ({
        ...deliveringTwice(broker),
        onReport: (listener) => broker.onReport(listener),
        submitOrder: (order) => {
          recordedAtSend.push(
            store.intentList().some((i) => i.clientOrderId === order.clientOrderId),
          );
          broker.submitOrder(order);
        },
      }),
    });
    await rig.tick('EURUSD', 1.1, 1.1001);
    expect(rig.store.intentList().map((i) => i.clientOrderId)).toEqual([`a/EURUSD/${tuesday}`]);
    expect(recordedAtSend).toEqual([true]);
  });

  it('sends no order whose entry price moved against it while its intent was persisted', async () => {
    /** Holds intent writes until the test opens the gate, as a slow database would. */
    class GatedStore extends InMemoryExecutionStore {
      open: () => void = () => undefined;
      private readonly gate = new Promise<void>((resolve) => {
        this.open = resolve;
      });
      override saveIntents(intents: readonly OrderIntent[]): Promise<void> {
        const batch = intents.slice();
        return this.gate.then(() => super.saveIntents(batch));
      }
    }
    const outcomes: Record<string, { positions: number; expired: number }> = {};
    for (const [name, move] of [
      ['against', 0.0003],
      ['in favour', -0.0003],
    ] as const) {
      const store = new GatedStore();
      const rig = await createRig({
        accounts: { a: robotOn() },
        store,
        strategy: new FixedSignalStrategy(0.999, ['buy']),
      });
      rig.feed.publish({ symbol: 'EURUSD', bid: 1.1, ask: 1.1001, time: tuesday });
      // The next quote arrives before the intent is stored: a buy now pays `move` more.
      rig.feed.publish({
        symbol: 'EURUSD',
        bid: 1.1 + move,
        ask: 1.1001 + move,
        time: tuesday + 1000,
      });
      store.open();
      await rig.engine.idle();
      outcomes[name] = {
        positions: rig.broker.openPositions('a').length,
        expired: rig.events.ofType('OrderExpired').length,
      };
    }
    expect(outcomes).toEqual({
      against: { positions: 0, expired: 1 },
      'in favour': { positions: 1, expired: 0 },
    });
  });

  it('denies a second operation on an instrument already held', async () => {
    const rig = await createRig({ accounts: { a: robotOn() } });
    await rig.tick('EURUSD', 1.1, 1.1001);
    await rig.tick('EURUSD', 1.1, 1.1001, tuesday + 60_000);
    expect(rig.events.ofType('OrderDenied').map((e) => e.reason)).toEqual([
      'POSITION_ALREADY_OPEN',
    ]);
  });

  it('stops at the exposure cap: used margin never above 50% of equity', async () => {
    const rig = await createRig({ accounts: { a: robotOn() } });
    const symbols = [
      'EURUSD',
      'GBPUSD',
      'USDCHF',
      'USDCAD',
      'EURGBP',
      'EURCHF',
      'GBPCHF',
      'EURCAD',
      'GBPCAD',
    ];
    for (const symbol of symbols) {
      const price = catalogue.require(symbol).referencePrice;
      await rig.tick(symbol, Number(price.toFixed(5)), Number((price + 0.0001).toFixed(5)));
    }
    const denials = rig.events.ofType('OrderDenied').map((e) => e.reason);
    expect(denials).toContain('EXPOSURE_CAP_REACHED');
    const account = rig.engine.account('a');
    expect(account?.usedMarginCents).toBeLessThanOrEqual(0.5 * (account?.equityCents ?? 0));
    for (const trade of rig.engine.openTrades('a')) {
      expect(trade.usedMarginAfterEntryCents).toBeLessThanOrEqual(0.5 * trade.equityAtEntryCents);
    }
  });

  it('denies with MARKET_CLOSED when a tick arrives outside the market hours', async () => {
    const saturday = Date.parse('2024-06-15T12:00:00Z');
    const rig = await createRig({ accounts: { a: robotOn() } });
    await rig.tick('AAPL.US', 190, 190.03, saturday);
    expect(rig.events.ofType('OrderDenied').map((e) => e.reason)).toEqual(['MARKET_CLOSED']);
  });

  it('applies a fill and a close once even when every report arrives twice', async () => {
    const rig = await createRig({ accounts: { a: robotOn() }, wrapBroker: deliveringTwice });
    await rig.tick('EURUSD', 1.1, 1.1001);
    await rig.tick('EURUSD', 1.1002, 1.1003, tuesday + 60_000); // take-profit, then a new sale
    const fills = rig.events.ofType('OrderFilled').map((e) => e.clientOrderId);
    expect(fills).toEqual([`a/EURUSD/${tuesday}`, `a/EURUSD/${tuesday + 60_000}`]);
    expect(rig.events.ofType('PositionOpened')).toHaveLength(2);
    expect(rig.events.ofType('PositionClosed')).toHaveLength(1);
    const trades = await rig.store.trades();
    expect(trades).toHaveLength(2);
    expect(trades[0]).toMatchObject({
      closeReason: 'tp',
      profitCents: rig.engine.account('a')?.realisedProfitCents,
    });
  });

  it('records a broker rejection once and frees the instrument for the next signal', async () => {
    const rig = await createRig({
      accounts: { a: robotOn() },
      wrapBroker: (broker) => {
        const listeners: ((r: ExecutionReport) => void)[] = [];
        return {
          ...deliveringTwice(broker),
          onReport: (listener) => {
            listeners.push(listener);
            return () => undefined;
          },
          submitOrder: (order) => {
            const rejection: ExecutionReport = {
              kind: 'rejected',
              clientOrderId: order.clientOrderId,
              accountId: order.accountId,
              reason: 'MARKET_CLOSED',
              time: tuesday,
            };
            for (const listener of listeners) {
              listener(rejection);
              listener(rejection);
            }
          },
        };
      },
    });
    await rig.tick('EURUSD', 1.1, 1.1001);
    await rig.tick('EURUSD', 1.1, 1.1001, tuesday + 60_000);
    expect(rig.events.ofType('OrderRejected')).toHaveLength(2); // one per order, not per delivery
    expect(rig.store.intentList().map((i) => i.status)).toEqual(['rejected', 'rejected']);
    expect(rig.events.ofType('OrderDenied')).toHaveLength(0);
    // The instrument is free again, yet a tick seen before decides nothing twice: the same
    // time again, or an older one, gives no order and no client order id a second time.
    rig.feed.publish({ symbol: 'EURUSD', bid: 1.1, ask: 1.1001, time: tuesday + 60_000 });
    rig.feed.publish({ symbol: 'EURUSD', bid: 1.1, ask: 1.1001, time: tuesday + 30_000 });
    await rig.engine.idle();
    expect(rig.store.intentList()).toHaveLength(2);
    expect(rig.events.ofType('SignalEvaluated')).toHaveLength(2);
  });
});

describe('TradingEngine kill switch', () => {
  it('closes every open position, stops new orders, and trades again after resume', async () => {
    const rig = await createRig({ accounts: { a: robotOn(), b: robotOn() } });
    await rig.tick('EURUSD', 1.1, 1.1001);
    await rig.tick('USDJPY', 150, 150.01);
    expect(rig.engine.openTrades()).toHaveLength(4);
    rig.engine.halt('operator kill switch');
    await rig.engine.idle();
    expect(rig.engine.tradingState).toBe('HALTED');
    expect(rig.engine.openTrades()).toHaveLength(0);
    expect(rig.events.ofType('PositionClosed').every((e) => e.reason === 'kill')).toBe(true);
    await rig.tick('GBPUSD', 1.27, 1.2701);
    expect(rig.events.ofType('OrderSubmitted')).toHaveLength(4);
    rig.engine.resume();
    await rig.tick('GBPUSD', 1.27, 1.2701, tuesday + 60_000);
    expect(rig.events.ofType('OrderSubmitted')).toHaveLength(6);
  });

  it('halts when the execution store fails', async () => {
    const failing: ExecutionStore = Object.assign(new InMemoryExecutionStore(), {
      saveIntents: () => Promise.reject(new Error('disk full')),
    });
    const rig = await createRig({ accounts: { a: robotOn() } });
    // Swap in a failing store through a fresh engine built on the same parts.
    const engine = await TradingEngine.start({
      catalogue,
      feed: rig.feed,
      broker: rig.broker,
      store: failing,
      settings: new InMemoryAccountSettingsSource([{ accountId: 'a', settings: robotOn() }]),
      events: rig.events,
      clock: new ManualClock(tuesday),
      strategy: new FixedSignalStrategy(),
    });
    rig.engine.stop();
    rig.feed.publish({ symbol: 'EURUSD', bid: 1.1, ask: 1.1001, time: tuesday });
    await engine.idle();
    expect(engine.tradingState).toBe('HALTED');
    expect(rig.broker.account('a')?.openPositions).toBe(0);
  });
});

describe('TradingEngine fan-out writes (group commit)', () => {
  /** A store that counts its intent writes and, when slow, answers a macrotask later. */
  class CountingStore extends InMemoryExecutionStore {
    readonly writes: number[] = [];
    constructor(private readonly slow: boolean) {
      super();
    }
    override saveIntents(intents: readonly OrderIntent[]): Promise<void> {
      this.writes.push(intents.length);
      if (!this.slow) return super.saveIntents(intents);
      return new Promise((resolve) => setImmediate(resolve)).then(() => super.saveIntents(intents));
    }
  }

  async function waveOf(accounts: number, slow: boolean) {
    const ids = Array.from({ length: accounts }, (_, i) => `u${i}`);
    const broker = new PaperBroker(catalogue);
    for (const id of ids) void broker.openAccount(id, 1_000_000);
    const store = new CountingStore(slow);
    const sentUnrecorded: string[] = [];
    const engine = await TradingEngine.start({
      catalogue,
      feed: new TickDispatcher(),
      broker: {
        ...deliveringTwice(broker),
        onReport: (listener) => broker.onReport(listener),
        submitOrder: (order) => {
          if (!store.intentList().some((i) => i.clientOrderId === order.clientOrderId)) {
            sentUnrecorded.push(order.clientOrderId);
          }
          broker.submitOrder(order);
        },
      },
      store,
      settings: new InMemoryAccountSettingsSource(
        ids.map((accountId) => ({ accountId, settings: robotOn({ forex: true }) })),
      ),
      events: new RecordingEventSink(),
      clock: new ManualClock(tuesday),
      strategy: new FixedSignalStrategy(),
    });
    const tick = { symbol: 'EURUSD', bid: 1.1, ask: 1.1001, time: tuesday };
    broker.onTick(tick);
    await engine.onTick(tick);
    await engine.idle();
    return { writes: store.writes, sentUnrecorded, open: engine.openTrades().length };
  }

  it('writes every 256 accounts when the store answers at once', async () => {
    const wave = await waveOf(600, false);
    expect(wave.writes).toEqual([256, 256, 88]);
    expect(wave.open).toBe(600);
    expect(wave.sentUnrecorded).toEqual([]);
  });

  it('gathers decisions while a slow write is in flight: a wave in two writes', async () => {
    const wave = await waveOf(600, true);
    expect(wave.writes).toEqual([256, 344]);
    expect(wave.open).toBe(600);
    expect(wave.sentUnrecorded).toEqual([]); // still never sent before it is recorded
  });
});

describe('TradingEngine ports carry plain data', () => {
  it('gives the broker and the store objects that JSON keeps whole', async () => {
    const sent: unknown[] = [];
    const saved: unknown[] = [];
    const rig = await createRig({
      accounts: { a: robotOn() },
      wrapBroker: (broker, store) => {
        const originalSave = store.saveIntents.bind(store);
        store.saveIntents = (intents) => {
          saved.push(...intents.map((intent) => JSON.parse(JSON.stringify(intent)) as unknown));
          return originalSave(intents);
        };
        return {
          ...deliveringTwice(broker),
          submitOrder: (order) => {
            sent.push(JSON.parse(JSON.stringify(order)));
            broker.submitOrder(order);
          },
        };
      },
    });
    await rig.tick('EURUSD', 1.1, 1.1001);
    const [intent] = rig.store.intentList();
    expect(sent).toEqual([
      {
        clientOrderId: `a/EURUSD/${String(tuesday)}`,
        accountId: 'a',
        symbol: 'EURUSD',
        side: intent?.side,
        units: intent?.units,
        takeProfit: intent?.takeProfit,
        stopLoss: intent?.stopLoss,
      },
    ]);
    expect(saved).toEqual([{ ...intent, status: 'pending' }]);
    expect(Object.keys(saved[0] ?? {}).sort()).toEqual(
      [
        'clientOrderId',
        'accountId',
        'symbol',
        'category',
        'side',
        'units',
        'takeProfit',
        'stopLoss',
        'decidedAt',
        'decisionBid',
        'decisionAsk',
        'probability',
        'breakEvenProbability',
        'estimatedMarginCents',
        'equityAtEntryCents',
        'freeMarginAtEntryCents',
        'status',
      ].sort(),
    );
  });
});

describe('TradingEngine per-account kill switch', () => {
  it('closes every open position of one account only, and says how many', async () => {
    const rig = await createRig({ accounts: { a: robotOn(), b: robotOn() } });
    await rig.tick('EURUSD', 1.1, 1.1001);
    await rig.tick('USDJPY', 150, 150.01);
    expect(rig.engine.closeAllPositions('a')).toBe(2);
    await rig.engine.idle();
    expect(rig.engine.openTrades('a')).toEqual([]);
    expect(rig.engine.openTrades('b')).toHaveLength(2);
    const closed = rig.events
      .ofType('PositionClosed')
      .map((e) => `${e.trade.accountId} ${e.reason}`);
    expect(closed).toEqual(['a kill', 'a kill']);
    expect(rig.engine.closeAllPositions('a')).toBe(0);
    expect(rig.engine.closeAllPositions('nobody')).toBe(0);
    expect(rig.engine.tradingState).toBe('ACTIVE');
  });
});

describe('TradingEngine closing one operation (decision 152)', () => {
  it('closes that position only, by the user (manual), and only while it is open', async () => {
    const rig = await createRig({ accounts: { a: robotOn(), b: robotOn() } });
    await rig.tick('EURUSD', 1.1, 1.1001);
    await rig.tick('USDJPY', 150, 150.01);
    const [first, second] = rig.engine.openTrades('a');
    const other = rig.engine.openTrades('b')[0];
    if (!first?.positionId || !second?.positionId || !other?.positionId) {
      throw new Error('the rig opened no positions');
    }
    expect(rig.engine.closePosition('a', first.positionId)).toBe(true);
    await rig.engine.idle();
    expect(rig.engine.openTrades('a').map((t) => t.positionId)).toEqual([second.positionId]);
    expect(rig.events.ofType('PositionClosed').map((e) => e.reason)).toEqual(['manual']);
    // Already closed, or another account's position: nothing is asked of the platform.
    expect(rig.engine.closePosition('a', first.positionId)).toBe(false);
    expect(rig.engine.closePosition('a', other.positionId)).toBe(false);
    await rig.engine.idle();
    expect(rig.engine.openTrades('b')).toHaveLength(2);
    expect(rig.events.ofType('PositionClosed')).toHaveLength(1);
  });
});

describe('TradingEngine account status', () => {
  const saturday = Date.parse('2024-06-15T12:00:00Z');

  it('says in words why an account is idle, or null while it may trade', async () => {
    const rig = await createRig({
      accounts: {
        trading: robotOn({ forex: true }),
        off: { ...robotOn(), bot_on: false },
        none: robotOn({ all: false }),
        crypto: robotOn({ cripto: true }),
      },
    });
    const status = (id: string) => rig.engine.accountStatus(id).idleReason;
    // Decision 093: "no edge" only after watching noEdgeAfterMs without a signal in the
    // account's categories; a robot that just started is still looking.
    expect(status('trading')).toBeNull();
    expect(status('crypto')).toBeNull();
    await rig.tick('EURUSD', 1.1, 1.1001, tuesday);
    expect(status('trading')).toBeNull();
    expect(status('off')).toBe('ROBOT_OFF');
    expect(status('nobody')).toBe('ROBOT_OFF');
    expect(status('none')).toBe('NO_CATEGORY_ENABLED');
    rig.clock.set(tuesday + noEdgeAfterMs);
    expect(status('trading')).toBeNull();
    expect(status('crypto')).toBeNull();
    rig.clock.set(tuesday + noEdgeAfterMs + 1);
    expect(status('trading')).toBe('NO_EDGE');
    expect(status('crypto')).toBe('NO_EDGE'); // a forex signal is no edge in crypto
    rig.clock.set(saturday);
    expect(status('trading')).toBe('MARKET_CLOSED');
    await rig.tick('BTCUSD', 62_000, 62_010, saturday);
    expect(status('crypto')).toBeNull(); // crypto trades at weekends
    rig.engine.halt('test');
    expect(status('crypto')).toBe('TRADING_HALTED');
  });

  it('reports the exposure cap and the daily loss limit once reached', async () => {
    const rig = await createRig({ accounts: { a: robotOn({ all: true }, 5) } });
    const status = () => rig.engine.accountStatus('a').idleReason;
    // Risk 5 commits a large share of free margin per order: a few instruments reach the cap.
    let time = tuesday;
    for (const [symbol, bid, ask] of [
      ['EURUSD', 1.1, 1.1001],
      ['USDJPY', 150, 150.01],
      ['GBPUSD', 1.27, 1.2701],
      ['AUDUSD', 0.66, 0.6601],
      ['USDCHF', 0.89, 0.8901],
    ] as const) {
      await rig.tick(symbol, bid, ask, (time += 1_000));
    }
    expect(status()).toBe('EXPOSURE_CAP_REACHED');
    // The next signal is a sale (the strategy alternates): a jump up stops it out far enough
    // for the daily loss limit.
    rig.engine.closeAllPositions('a');
    await rig.tick('EURUSD', 1.1, 1.1001, (time += 1_000));
    expect(rig.engine.openTrades('a').map((t) => t.side)).toEqual(['sale']);
    await rig.tick('EURUSD', 1.15, 1.1501, (time += 1_000));
    expect(status()).toBe('DAILY_LOSS_LIMIT');
  });
});

describe('what the robot does per category (decision 147)', () => {
  const saturday = Date.parse('2024-06-15T12:00:00Z');

  /** A strategy that signals nothing and says what the test tells it to, per category. */
  class OutlookStrategy implements Strategy {
    readonly outlooks = new Map<Category, StrategyOutlook>();
    onTick(): undefined {
      return undefined;
    }
    outlook(category: Category): StrategyOutlook {
      return this.outlooks.get(category) ?? {};
    }
  }

  const activityOf = (engine: TradingEngine, accountId: string) =>
    engine.accountStatus(accountId).activity?.categories ?? [];

  it('says when a closed market opens, per chosen category only', async () => {
    const rig = await createRig({
      accounts: { a: robotOn({ stocks: true, cripto: true }) },
      strategy: new OutlookStrategy(),
    });
    rig.clock.set(saturday);
    const [crypto, stocks, ...others] = activityOf(rig.engine, 'a');
    expect(others).toEqual([]);
    expect(crypto).toMatchObject({ category: 'cripto' });
    expect(crypto?.state).not.toBe('MARKET_CLOSED');
    expect(stocks).toMatchObject({ category: 'stocks', state: 'MARKET_CLOSED' });
    const opensAt = stocks?.state === 'MARKET_CLOSED' ? stocks.opensAt : null;
    if (opensAt === null) throw new Error('the catalogue knows when shares open');
    // The first stock exchange to open after the weekend: closed everywhere a minute before.
    const opening = Date.parse(opensAt);
    expect(opening).toBeGreaterThan(saturday);
    expect(opening - saturday).toBeLessThan(2 * 86_400_000);
    const open = (time: number) =>
      catalogue.inCategory('stocks').some((i) => isMarketOpen(i.schedule, time));
    expect(open(opening)).toBe(true);
    expect(open(opening - 60_000)).toBe(false);
  });

  it('says how much a learning model has learned of what it needs', async () => {
    const strategy = new OutlookStrategy();
    strategy.outlooks.set('forex', { learning: { outcomes: 120, outcomesNeeded: 3_000 } });
    const rig = await createRig({ accounts: { a: robotOn({ forex: true }) }, strategy });
    await rig.tick('EURUSD', 1.1, 1.1001, tuesday + 5_000);
    expect(activityOf(rig.engine, 'a')).toEqual([
      {
        category: 'forex',
        state: 'LEARNING',
        outcomes: 120,
        outcomesNeeded: 3_000,
        openOperations: 0,
        evaluatedAt: new Date(tuesday + 5_000).toISOString(),
      },
    ]);
  });

  it('says no edge at once, with the best forecast against what it needs', async () => {
    const strategy = new OutlookStrategy();
    const forecast = {
      symbol: 'EURUSD',
      probability: 0.51,
      breakEvenProbability: 0.53,
      requiredProbability: 0.54,
      time: tuesday,
    };
    strategy.outlooks.set('forex', { best: forecast });
    const rig = await createRig({ accounts: { a: robotOn({ forex: true }) }, strategy });
    await rig.tick('EURUSD', 1.1, 1.1001, tuesday);
    const status = rig.engine.accountStatus('a');
    // The account as a whole still says nothing for hours (decision 093); the category does.
    expect(status.idleReason).toBeNull();
    expect(status.activity).toEqual({
      asOf: new Date(tuesday).toISOString(),
      categories: [
        {
          category: 'forex',
          state: 'NO_EDGE',
          best: {
            symbol: 'EURUSD',
            probability: 0.51,
            breakEvenProbability: 0.53,
            requiredProbability: 0.54,
          },
          openOperations: 0,
          evaluatedAt: new Date(tuesday).toISOString(),
        },
      ],
    });
    // A forecast that reaches what it needs is trading, and so is one with operations open.
    strategy.outlooks.set('forex', { best: { ...forecast, probability: 0.55 } });
    await rig.tick('EURUSD', 1.1, 1.1001, tuesday + 1_000);
    expect(activityOf(rig.engine, 'a')[0]?.state).toBe('TRADING');
  });

  it('counts the operations open in the category while it trades', async () => {
    const rig = await createRig({ accounts: { a: robotOn({ forex: true, index: true }) } });
    await rig.tick('EURUSD', 1.1, 1.1001, tuesday + 1_000);
    await rig.tick('USDJPY', 150, 150.01, tuesday + 2_000);
    const [forex, index] = activityOf(rig.engine, 'a');
    expect(forex).toMatchObject({
      category: 'forex',
      state: 'TRADING',
      openOperations: 2,
      evaluatedAt: new Date(tuesday + 2_000).toISOString(),
      best: { symbol: 'USDJPY', probability: 0.999 },
    });
    // Indexes: open, nothing evaluated yet, nothing to show.
    expect(index).toEqual({
      category: 'index',
      state: 'NO_EDGE',
      best: null,
      openOperations: 0,
      evaluatedAt: null,
    });
  });

  it('says nothing per category while the robot is off or halted', async () => {
    const rig = await createRig({
      accounts: { off: { ...robotOn(), bot_on: false }, on: robotOn({ forex: true }) },
    });
    expect(rig.engine.accountStatus('off').activity).toBeUndefined();
    expect(rig.engine.accountStatus('on').activity?.categories).toHaveLength(1);
    rig.engine.halt('test');
    expect(rig.engine.accountStatus('on').activity).toBeUndefined();
  });
});
