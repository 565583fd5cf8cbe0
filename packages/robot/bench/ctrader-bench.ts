/**
 * `npm run bench:ctrader` (decision 096): on the fake cTrader server (127.0.0.1, the official
 * protocol over TCP), with the built-in platform's figure measured in the same run.
 *
 * 1. Tick to order sent: from the moment a price is published (the fake writes its spot event;
 *    the built-in platform's dispatcher publishes its tick) to the moment the engine hands the
 *    order to the broker port (`submitOrder`), through the same engine, strategy (one that
 *    signals on every tick), risk gate and in-memory store. One account, one instrument; after
 *    each order the position is closed, so the next tick may open again. The cTrader figure
 *    includes the socket, the frame decoding and the adapter.
 * 2. Reconnect to trading again: the fake drops every connection; from the drop to the first
 *    order sent after the client reconnected (production backoff: 250 ms first, doubling),
 *    re-authorised, resubscribed and reconciled, with a price every 10 ms.
 *
 * SAMPLES (default 300) and DROPS (default 20) set the counts.
 */
import { performance } from 'node:perf_hooks';
import type { BrokerAdapter, ExecutionReport } from '../src/broker/broker-adapter';
import { CTraderClient } from '../src/broker/ctrader/client';
import { CTraderBroker } from '../src/broker/ctrader/ctrader-broker';
import { DEMO_ACCOUNT, EURUSD, FAKE_APP, fakeOptions } from '../test-support/ctrader-fake/fixtures';
import { FakeCTraderServer } from '../test-support/ctrader-fake/fake-ctrader-server';
import { PaperBroker } from '../src/broker/paper/paper-broker';
import { TradingEngine } from '../src/engine/trading-engine';
import { CountingEventSink } from '../src/events/engine-events';
import { InMemoryExecutionStore } from '../src/execution/execution-store';
import { InstrumentCatalogue } from '../src/instruments/catalogue';
import { TickDispatcher, type MarketDataFeed } from '../src/market-data/market-data-feed';
import { InMemoryAccountSettingsSource } from '../src/settings/robot-settings';
import { FixedSignalStrategy } from '../src/strategy/fixed-signal-strategy';

const samples = Number(process.env.SAMPLES ?? 300);
const drops = Number(process.env.DROPS ?? 20);
const accountId = 'bench-account';
const settings = {
  bot_on: true,
  risk: 2,
  categories_enabled: {
    forex: true,
    cripto: false,
    stocks: false,
    index: false,
    commodities: false,
    all: false,
  },
};
/** Where EURUSD trades now: it only rises, a step per sample. */
let base = EURUSD.bid;
/** Whether the strategy signals on the next price (see engineOn). */
let armed = true;
const signals = new FixedSignalStrategy(0.999, ['buy']);
let sequence = 0;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? Number.NaN;
}

/**
 * The engine on a feed and a broker, with `submitOrder` timed. `open` gates orders as the
 * server's cTrader runs do (decision 096): while it says no, an order is rejected, not queued.
 */
async function engineOn(
  feed: MarketDataFeed,
  broker: BrokerAdapter,
  catalogue: InstrumentCatalogue,
  open: () => boolean = () => true,
) {
  const sent: number[] = [];
  const submit = broker.submitOrder.bind(broker);
  const listeners: ((report: ExecutionReport) => void)[] = [];
  const onReport = broker.onReport.bind(broker);
  broker.onReport = (listener) => {
    listeners.push(listener);
    return onReport(listener);
  };
  broker.submitOrder = (order) => {
    if (!open()) {
      const rejection: ExecutionReport = {
        kind: 'rejected',
        clientOrderId: order.clientOrderId,
        accountId: order.accountId,
        reason: 'BROKER_REJECTED',
        brokerCode: 'BROKER_DISCONNECTED',
        time: Date.now(),
      };
      for (const listener of listeners) listener(rejection);
      return;
    }
    sent.push(performance.now());
    submit(order);
  };
  const engine = await TradingEngine.start({
    catalogue,
    feed,
    broker,
    store: new InMemoryExecutionStore(),
    settings: new InMemoryAccountSettingsSource([{ accountId, settings }]),
    events: new CountingEventSink(),
    clock: { now: Date.now },
    strategy: {
      // Signals on the measured prices only, not on those that take the position to its TP.
      onTick: (tick, instrument) => (armed ? signals.onTick(tick, instrument) : undefined),
    },
  });
  return { engine, sent };
}

async function until(check: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!check()) {
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/**
 * The price rises past the take-profit (one pip above the entry), so the position closes at a
 * small profit (closing at a loss every time would reach the daily loss limit), and waits until
 * the engine saw it closed. The next sample trades from the new price.
 */
async function flat(
  broker: BrokerAdapter,
  engine: TradingEngine,
  setPrice: (bid: number) => void,
): Promise<void> {
  base += 0.0003;
  armed = false;
  setPrice(base);
  await until(() => broker.openPositions(accountId).length === 0, 'the position to close');
  await engine.idle();
  await until(() => engine.openTrades(accountId).length === 0, 'the engine to see it closed');
  armed = true;
}

async function builtIn(): Promise<number[]> {
  const catalogue = new InstrumentCatalogue();
  const feed = new TickDispatcher();
  const broker = new PaperBroker(catalogue, { clock: { now: Date.now } });
  await broker.openAccount(accountId, 1_000_000);
  const { engine, sent } = await engineOn(feed, broker, catalogue);
  const latencies: number[] = [];
  const setPrice = (bid: number) => {
    const tick = { symbol: 'EURUSD', time: Date.now() + ++sequence, bid, ask: bid + 0.00012 };
    broker.onTick(tick);
    feed.publish(tick);
  };
  base = EURUSD.bid;
  for (let i = 0; i < samples + 20; i++) {
    const before = sent.length;
    const t0 = performance.now();
    setPrice(base + 0.00001);
    await until(() => sent.length > before, 'a built-in order');
    if (i >= 20) latencies.push((sent[before] ?? t0) - t0);
    await until(() => broker.openPositions(accountId).length > 0, 'the built-in fill');
    await engine.idle();
    await flat(broker, engine, setPrice);
  }
  engine.stop();
  return latencies;
}

/** cTrader prices that brought no order within a second (see the report). */
let lost = 0;

async function ctrader(): Promise<{ latencies: number[]; reconnects: number[] }> {
  const server = new FakeCTraderServer(fakeOptions());
  await server.listen();
  const client = new CTraderClient({
    host: '127.0.0.1',
    port: server.port,
    tls: false,
    ...FAKE_APP,
    protocol: server.protocol,
  });
  await client.connect();
  const catalogue = new InstrumentCatalogue();
  const broker = new CTraderBroker({
    client,
    catalogue,
    accounts: [
      {
        accountId,
        ctidTraderAccountId: DEMO_ACCOUNT.ctidTraderAccountId,
        accessToken: DEMO_ACCOUNT.accessToken,
      },
    ],
  });
  await broker.start();
  const { engine, sent } = await engineOn(
    broker,
    broker,
    catalogue,
    () => client.state === 'ready',
  );
  const latencies: number[] = [];
  let pricedAt = 0;
  const setPrice = (bid: number) => {
    pricedAt = Date.now();
    server.setPrice(EURUSD.symbolId, bid, bid + 0.00012);
  };
  let step = 0;
  const price = () => {
    step++;
    setPrice(base + (step % 5) * 0.00001);
  };
  base = EURUSD.bid;
  for (let i = 0; i < samples + 20; i++) {
    const before = sent.length;
    // Two prices within one millisecond would carry one timestamp; the engine takes the first.
    while (Date.now() <= pricedAt) await sleep(1);
    const t0 = performance.now();
    price();
    try {
      await until(() => sent.length > before, 'a cTrader order', 1000);
    } catch {
      // Counted and reported, not hidden: a price that brought no order within a second.
      if (i >= 20) lost++;
      await sleep(200);
      if (broker.openPositions(accountId).length > 0) await flat(broker, engine, setPrice);
      continue;
    }
    if (i >= 20) latencies.push((sent[before] ?? t0) - t0);
    await until(() => broker.openPositions(accountId).length > 0, 'the cTrader fill');
    await engine.idle();
    await flat(broker, engine, setPrice);
  }
  const reconnects: number[] = [];
  for (let i = 0; i < drops; i++) {
    const before = sent.length;
    const t0 = performance.now();
    server.dropConnections();
    while (sent.length === before) {
      price();
      await sleep(10);
      if (performance.now() - t0 > 60_000) throw new Error('no order after a reconnection');
    }
    reconnects.push((sent[before] ?? t0) - t0);
    await until(() => broker.openPositions(accountId).length > 0, 'the cTrader fill');
    await engine.idle();
    await flat(broker, engine, setPrice);
  }
  engine.stop();
  broker.stop();
  client.close();
  await server.close();
  return { latencies, reconnects };
}

const paper = await builtIn();
const { latencies, reconnects } = await ctrader();
const row = (name: string, values: number[]) =>
  `| ${name} | ${String(values.length)} | ${percentile(values, 0.5).toFixed(2)} | ${percentile(values, 0.99).toFixed(2)} |`;
const ratio = percentile(latencies, 0.99) / percentile(paper, 0.99);
console.log('| path | samples | p50 (ms) | p99 (ms) |');
console.log('| --- | ---: | ---: | ---: |');
console.log(row('built-in platform: tick to order sent', paper));
console.log(row('cTrader on the fake: tick to order sent', latencies));
console.log(row('cTrader: connection dropped to order sent again', reconnects));
console.log(`p99 ratio cTrader / built-in, tick to order sent: ${ratio.toFixed(1)}`);
console.log(`cTrader prices with no order within 1 s (left out of the figures): ${String(lost)}`);
