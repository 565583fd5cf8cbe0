import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { BrokerAdapter, ExecutionReport } from '../broker/broker-adapter';
import { PaperBroker } from '../broker/paper/paper-broker';
import { CountingEventSink } from '../events/engine-events';
import {
  InMemoryExecutionStore,
  type ExecutionStore,
  type ExecutionStoreSnapshot,
} from '../execution/execution-store';
import { MarketSimulator } from '../market-data/market-simulator';
import { InMemoryAccountSettingsSource } from '../settings/robot-settings';
import { FixedSignalStrategy } from '../strategy/fixed-signal-strategy';
import { ManualClock } from '../time/clock';
import { catalogue, createRig, robotOn, tuesday } from './engine-test-rig';
import { TradingEngine } from './trading-engine';

describe('restart after a crash', () => {
  it('expires an intent that was recorded but never reached the broker', async () => {
    const broker = new PaperBroker(catalogue);
    void broker.openAccount('a', 1_000_000);
    const first = await createRig({
      accounts: { a: robotOn() },
      broker,
      // The process dies after persisting the intent, before the order leaves.
      wrapBroker: (b) => ({ ...viewOf(b), submitOrder: () => undefined }),
    });
    await first.tick('EURUSD', 1.1, 1.1001);
    first.engine.stop();
    const snapshot = first.store.snapshot();
    expect(snapshot.intents.map((i) => i.status)).toEqual(['pending']);

    const second = await createRig({ accounts: { a: robotOn() }, broker, storeSnapshot: snapshot });
    expect(second.store.intentList().map((i) => i.status)).toEqual(['expired']);
    expect(broker.account('a')?.openPositions).toBe(0);
    await second.tick('EURUSD', 1.1, 1.1001, tuesday + 60_000);
    expect(broker.account('a')?.openPositions).toBe(1); // the instrument was freed
  });

  it("keeps the day's loss-limit base: a restart gives no fresh allowance", async () => {
    const broker = new PaperBroker(catalogue);
    void broker.openAccount('a', 1_000_000);
    const first = await createRig({ accounts: { a: robotOn() }, broker });
    await first.tick('EURUSD', 1.1, 1.1001); // a buy worth about 30x its 10% margin
    await first.tick('EURUSD', 1.078, 1.0781, tuesday + 60_000); // a 2% gap through the stop
    const equity = broker.account('a')?.equityCents ?? 0;
    expect(equity).toBeLessThan(950_000); // more than the 5% a day that level 1 allows
    expect(first.events.ofType('OrderDenied').map((e) => e.reason)).toEqual(['DAILY_LOSS_LIMIT']);
    first.engine.stop();

    const second = await createRig({
      accounts: { a: robotOn() },
      broker,
      storeSnapshot: first.store.snapshot(),
    });
    await second.tick('GBPUSD', 1.27, 1.2701, tuesday + 120_000);
    expect(second.events.ofType('OrderSubmitted')).toHaveLength(0);
    expect(second.events.ofType('OrderDenied').map((e) => e.reason)).toEqual(['DAILY_LOSS_LIMIT']);
    // The next UTC day starts from the equity the account has then.
    await second.tick('GBPUSD', 1.27, 1.2701, tuesday + 86_400_000);
    expect(second.events.ofType('OrderSubmitted')).toHaveLength(1);
  });

  it('adopts a fill the engine never heard about, exactly once', async () => {
    const broker = new PaperBroker(catalogue);
    void broker.openAccount('a', 1_000_000);
    const first = await createRig({
      accounts: { a: robotOn() },
      broker,
      // The broker fills, but the process dies before the report is processed.
      wrapBroker: (b) => ({ ...viewOf(b), onReport: () => () => undefined }),
    });
    await first.tick('EURUSD', 1.1, 1.1001);
    first.engine.stop();

    const second = await createRig({
      accounts: { a: robotOn() },
      broker,
      storeSnapshot: first.store.snapshot(),
    });
    expect(await second.store.openTrades()).toHaveLength(1);
    expect(broker.account('a')?.openPositions).toBe(1);
    await second.tick('EURUSD', 1.1002, 1.1003, tuesday + 60_000); // TP, then a new sale
    const trades = await second.store.trades();
    expect(trades.map((t) => t.closeReason)).toEqual(['tp', 'open']);
  });

  it('records a close that happened at the broker while the engine was down', async () => {
    const broker = new PaperBroker(catalogue);
    void broker.openAccount('a', 1_000_000);
    const first = await createRig({ accounts: { a: robotOn() }, broker });
    await first.tick('EURUSD', 1.1, 1.1001);
    first.engine.stop();
    broker.onTick({ symbol: 'EURUSD', bid: 1.0985, ask: 1.0986, time: tuesday + 60_000 }); // SL

    const second = await createRig({
      accounts: { a: robotOn() },
      broker,
      storeSnapshot: first.store.snapshot(),
    });
    const trades = await second.store.trades();
    expect(trades).toMatchObject([{ closeReason: 'sl', closePrice: 1.0985 }]);
    expect(trades[0]?.profitCents).toBe(broker.account('a')?.realisedProfitCents);
  });

  it('loses and duplicates nothing when stopped at any point of a simulated run', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 120 }),
        fc.integer({ min: 0, max: 6 }),
        fc.integer({ min: 0, max: 1000 }),
        async (crashStep, macrotasksBeforeCrash, seed) => {
          const outcome = await runWithCrash(crashStep, macrotasksBeforeCrash, seed);
          const { broker, store } = outcome;
          const brokerOrders = broker.snapshot().orders;
          const brokerFills = brokerOrders.flatMap((o) => (o.outcome.kind === 'filled' ? [o] : []));
          const trades = await store.trades();
          // No duplicate: one trade per position, one position per client order id.
          expect(new Set(trades.map((t) => t.positionId)).size).toBe(trades.length);
          expect(new Set(trades.map((t) => t.clientOrderId)).size).toBe(trades.length);
          // No loss: every position the broker opened is a trade, with the broker's outcome.
          expect(trades).toHaveLength(brokerFills.length);
          const byPosition = new Map(trades.map((t) => [t.positionId, t]));
          for (const { outcome: fill, closed } of brokerFills) {
            if (fill.kind !== 'filled') continue;
            const trade = byPosition.get(fill.positionId);
            expect(trade?.clientOrderId).toBe(fill.clientOrderId);
            expect(trade?.closeReason).toBe(closed?.reason ?? 'open');
            expect(trade?.profitCents ?? null).toBe(closed?.profitCents ?? null);
          }
        },
      ),
      { numRuns: 12 },
    );
  });
});

function viewOf(broker: PaperBroker): BrokerAdapter {
  return {
    submitOrder: (order) => {
      broker.submitOrder(order);
    },
    closePosition: (accountId, positionId, reason) => {
      broker.closePosition(accountId, positionId, reason);
    },
    onReport: (listener) => broker.onReport(listener),
    account: (id) => broker.account(id),
    accountFigures: (id) => broker.accountFigures(id),
    openPositions: (id) => broker.openPositions(id),
    queryOrder: (id) => broker.queryOrder(id),
  };
}

/**
 * A process that can die: after `crash()`, nothing it does reaches the broker or the database,
 * and nothing reaches it. Store writes land one macrotask later, as a database's would.
 */
class Process {
  dead = false;

  broker(inner: PaperBroker): BrokerAdapter {
    return {
      ...viewOf(inner),
      submitOrder: (order) => {
        if (!this.dead) inner.submitOrder(order);
      },
      closePosition: (accountId, positionId, reason) => {
        if (!this.dead) inner.closePosition(accountId, positionId, reason);
      },
      onReport: (listener) =>
        inner.onReport((report: ExecutionReport) => {
          if (!this.dead) listener(report);
        }),
    };
  }

  store(inner: InMemoryExecutionStore): ExecutionStore {
    const later = async <T>(write: () => Promise<T>): Promise<T> => {
      await new Promise((resolve) => setImmediate(resolve));
      if (this.dead) return new Promise<T>(() => undefined); // never answers: the process is gone
      return write();
    };
    return {
      saveIntents: (intents) => later(() => inner.saveIntents(intents)),
      updateIntentStatus: (id, status, reason) =>
        later(() => inner.updateIntentStatus(id, status, reason)),
      recordFill: (trade) => later(() => inner.recordFill(trade)),
      closeTrade: (id, closure) => later(() => inner.closeTrade(id, closure)),
      recordDayStart: (id, day, equity) => later(() => inner.recordDayStart(id, day, equity)),
      dayStarts: (day) => inner.dayStarts(day),
      pendingIntents: () => inner.pendingIntents(),
      openTrades: () => inner.openTrades(),
      trades: (filter) => inner.trades(filter),
    };
  }
}

async function runWithCrash(crashStep: number, macrotasksBeforeCrash: number, seed: number) {
  const start = tuesday;
  const accounts = ['a', 'b', 'c'];
  const symbols = ['EURUSD', 'USDJPY', 'XAUUSD', 'BTCUSD', 'AAPL.US', 'US500'];
  const market = new MarketSimulator({
    instruments: symbols.map((s) => catalogue.require(s)),
    seed,
    startTime: start,
    tickIntervalMs: 60_000,
  });
  const broker = new PaperBroker(catalogue);
  for (const id of accounts) void broker.openAccount(id, 1_000_000);
  market.subscribe((tick) => {
    broker.onTick(tick);
  });
  const clock = new ManualClock(start);
  const settings = new InMemoryAccountSettingsSource(
    accounts.map((accountId) => ({ accountId, settings: robotOn() })),
  );
  const boot = async (snapshot: ExecutionStoreSnapshot | undefined) => {
    const process = new Process();
    const durable = new InMemoryExecutionStore(snapshot);
    const engine = await TradingEngine.start({
      catalogue,
      feed: market,
      broker: process.broker(broker),
      store: process.store(durable),
      settings,
      events: new CountingEventSink(),
      clock,
      strategy: new FixedSignalStrategy(0.999),
    });
    return { process, durable, engine };
  };

  let running = await boot(undefined);
  const steps = 180;
  let restartedIntents = 0;
  for (let step = 0; step < steps; step++) {
    const t = start + step * 60_000;
    clock.set(t);
    market.advanceTo(t);
    if (step === crashStep) {
      for (let i = 0; i < macrotasksBeforeCrash; i++) await new Promise((r) => setImmediate(r));
      running.process.dead = true;
      running.engine.stop();
      const snapshot = running.durable.snapshot();
      restartedIntents = snapshot.intents.filter((i) => i.status === 'pending').length;
      running = await boot(snapshot);
    } else {
      await running.engine.idle();
    }
  }
  await running.engine.idle();
  return { broker, store: running.durable, restartedIntents };
}
