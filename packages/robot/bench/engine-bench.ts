/**
 * npm run bench (in packages/robot), or npm run bench:robot from the root.
 *
 * Measures the engine's hot path with 10,000 active accounts across 400 instruments:
 * tick-to-account evaluations per second on one core, and tick-to-order latency (p50, p99).
 * A strategy that signals on every tick sends every routed account through the full risk gate
 * (the worst case; the real model signals on a small share of ticks). Because the machine is
 * shared and noisy, a baseline is measured in the same run: a trivial loop over the very same
 * routed accounts. Results go to stdout and to docs/benchmarks.md.
 */
import { categories, type Category } from '@tradebot/contract';
import { readFileSync, writeFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import type { BrokerAdapter } from '../src/broker/broker-adapter';
import { PaperBroker } from '../src/broker/paper/paper-broker';
import { SubscriptionIndex } from '../src/engine/subscription-index';
import { TradingEngine } from '../src/engine/trading-engine';
import { CountingEventSink } from '../src/events/engine-events';
import { InMemoryExecutionStore } from '../src/execution/execution-store';
import { InstrumentCatalogue } from '../src/instruments/catalogue';
import type { Instrument } from '../src/instruments/instrument';
import { TickDispatcher } from '../src/market-data/market-data-feed';
import { MarketSimulator } from '../src/market-data/market-simulator';
import type { Tick } from '../src/market-data/tick';
import { createSeededRandom } from '../src/random/random-source';
import { InMemoryAccountSettingsSource, type RobotSettings } from '../src/settings/robot-settings';
import { FixedSignalStrategy } from '../src/strategy/fixed-signal-strategy';
import { ManualClock } from '../src/time/clock';

const accountCount = 10_000;
const instrumentCount = 400;
const warmUpSteps = 5;
const measuredSteps = 25;
const start = Date.parse('2024-06-11T13:00:00Z'); // a Tuesday: US, European and FX markets open

function pickInstruments(catalogue: InstrumentCatalogue): Instrument[] {
  // Every non-stock instrument, then shares up to 400.
  const nonStocks = catalogue.instruments.filter((i) => i.category !== 'stocks');
  const stocks = catalogue.inCategory('stocks').slice(0, instrumentCount - nonStocks.length);
  return [...nonStocks, ...stocks];
}

/** Each category on with probability 0.4, or `all` with probability 0.1; risk 1 to 5. */
function randomSettings(random: ReturnType<typeof createSeededRandom>): RobotSettings {
  const flag = () => random.next() < 0.4;
  return {
    bot_on: true,
    risk: 1 + Math.floor(random.next() * 5),
    categories_enabled: {
      forex: flag(),
      cripto: flag(),
      stocks: flag(),
      index: flag(),
      commodities: flag(),
      all: random.next() < 0.1,
    },
  };
}

function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? Number.NaN;
}

async function main(): Promise<void> {
  const catalogue = new InstrumentCatalogue();
  const instruments = pickInstruments(catalogue);
  const random = createSeededRandom(2024);
  const settings = new InMemoryAccountSettingsSource();
  const broker = new PaperBroker(catalogue);
  const baselineIndex = new SubscriptionIndex<{ accountId: string; risk: number }>();
  for (let i = 0; i < accountCount; i++) {
    const accountId = `bench-${i}`;
    const s = randomSettings(random);
    settings.set(accountId, s);
    broker.openAccount(accountId, 1_000_000);
    baselineIndex.update({ accountId, risk: s.risk }, s);
  }

  // Ticks are generated up front so the measurement covers the engine only.
  const market = new MarketSimulator({
    instruments,
    seed: 7,
    startTime: start,
    tickIntervalMs: 60_000,
  });
  const steps: Tick[][] = [];
  let current: Tick[] = [];
  market.subscribe((tick) => current.push(tick));
  for (let s = 0; s < warmUpSteps + measuredSteps; s++) {
    current = [];
    market.advanceTo(start + s * 60_000);
    steps.push(current);
  }

  const feed = new TickDispatcher();
  let tickStartedAt = 0;
  const orderLatencies: number[] = [];
  let measuring = false;
  const timedBroker: BrokerAdapter = {
    submitOrder: (order) => {
      if (measuring) orderLatencies.push(performance.now() - tickStartedAt);
      broker.submitOrder(order);
    },
    closePosition: (a, p, r) => {
      broker.closePosition(a, p, r);
    },
    onReport: (listener) => broker.onReport(listener),
    account: (id) => broker.account(id),
    openPositions: (id) => broker.openPositions(id),
    queryOrder: (id) => broker.queryOrder(id),
  };
  const events = new CountingEventSink();
  const engine = await TradingEngine.start({
    catalogue,
    feed,
    broker: timedBroker,
    store: new InMemoryExecutionStore(),
    settings,
    events,
    clock: new ManualClock(start),
    strategy: new FixedSignalStrategy(0.999),
  });
  engine.stop(); // the bench drives ticks itself, to time each one

  let evaluations = 0;
  let engineMs = 0;
  const tickMs: number[] = [];
  for (let s = 0; s < steps.length; s++) {
    measuring = s >= warmUpSteps;
    for (const tick of steps[s] ?? []) {
      const instrument = catalogue.require(tick.symbol);
      const routed = engine.subscriberCount(instrument);
      const t0 = performance.now();
      tickStartedAt = t0;
      broker.onTick(tick);
      await engine.onTick(tick);
      const elapsed = performance.now() - t0;
      if (measuring) {
        evaluations += routed;
        engineMs += elapsed;
        tickMs.push(elapsed);
      }
    }
  }

  // Baseline: the same routed accounts per tick, visited by a trivial loop.
  let baselineVisits = 0;
  let checksum = 0;
  const b0 = performance.now();
  for (let s = warmUpSteps; s < steps.length; s++) {
    for (const tick of steps[s] ?? []) {
      const category: Category = catalogue.require(tick.symbol).category;
      for (const account of baselineIndex.subscribers(category)) {
        checksum += account.risk;
        baselineVisits++;
      }
    }
  }
  const baselineMs = performance.now() - b0;

  const evaluationsPerSecond = evaluations / (engineMs / 1000);
  const baselinePerSecond = baselineVisits / (baselineMs / 1000);
  orderLatencies.sort((a, b) => a - b);
  tickMs.sort((a, b) => a - b);
  const ticks = tickMs.length;
  const routedPerTick = evaluations / ticks;
  const perCategory = categories
    .map((c) => `${c} ${instruments.filter((i) => i.category === c).length}`)
    .join(', ');
  const figures = {
    evaluationsPerSecond,
    baselinePerSecond,
    ratio: evaluationsPerSecond / baselinePerSecond,
    orders: orderLatencies.length,
    p50: percentile(orderLatencies, 0.5),
    p99: percentile(orderLatencies, 0.99),
    tickP50: percentile(tickMs, 0.5),
    tickP99: percentile(tickMs, 0.99),
  };
  const date = new Date().toISOString().slice(0, 10);
  const lines = [
    '## Robot engine',
    '',
    'Command: `npm run bench:robot` (root) or `npm run bench -w @tradebot/robot`.',
    '',
    `Date: ${date}. Node ${process.version}, one core (single thread), on a shared 2-core machine.`,
    '',
    `Set-up: ${accountCount.toLocaleString('en-US')} active accounts (robot on, each category enabled with probability 0.4 or all with 0.1, risk 1-5, $10,000 each) across ${instrumentCount} instruments (${perCategory}); ${measuredSteps} simulated minutes of ticks after ${warmUpSteps} minutes of warm-up, ${ticks.toLocaleString('en-US')} ticks measured, ${routedPerTick.toFixed(0)} accounts routed per tick on average. The strategy signals on every tick, so every routed account goes through the full risk gate (worst case). Paper broker and in-memory store in the loop.`,
    '',
    '| figure | value | target |',
    '| --- | --- | --- |',
    `| tick-to-account evaluations per second | ${Math.round(figures.evaluationsPerSecond).toLocaleString('en-US')} | >= 100,000 |`,
    `| tick-to-order latency p50 | ${figures.p50.toFixed(2)} ms | |`,
    `| tick-to-order latency p99 | ${figures.p99.toFixed(2)} ms | < 5 ms |`,
    `| whole tick (fan-out, orders, fills) p50 / p99 | ${figures.tickP50.toFixed(2)} / ${figures.tickP99.toFixed(2)} ms | |`,
    `| orders measured | ${figures.orders.toLocaleString('en-US')} | |`,
    `| baseline: trivial loop over the same routed accounts | ${Math.round(figures.baselinePerSecond).toLocaleString('en-US')} visits/s | |`,
    `| ratio engine / baseline | ${figures.ratio.toFixed(4)} | |`,
    '',
    'Tick-to-order latency runs from the tick reaching the paper broker and engine to the order being handed to the broker, for every order; an order waits for its intent to be persisted, which happens once the tick has been routed to all its accounts, so the latency includes the whole fan-out.',
    '',
  ];
  const report = lines.join('\n');
  console.log(report);
  console.log(
    `(checksum ${checksum}; events ${JSON.stringify(Object.fromEntries(events.counts))})`,
  );
  const path = new URL('../../../docs/benchmarks.md', import.meta.url);
  let existing = '';
  try {
    existing = readFileSync(path, 'utf8');
  } catch {
    existing = '# Benchmarks\n';
  }
  const section = /## Robot engine\n[\s\S]*?(?=\n## |$)/;
  const updated = section.test(existing)
    ? existing.replace(section, report)
    : `${existing.trimEnd()}\n\n${report}`;
  writeFileSync(path, `${updated.trimEnd()}\n`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
