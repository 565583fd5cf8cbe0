/**
 * npm run bench (in packages/robot), or npm run bench:robot from the root.
 *
 * Measures the engine's hot path with 10,000 active accounts across 400 instruments:
 * tick-to-account evaluations per second on one core, and tick-to-order latency (p50, p99).
 * A strategy that signals on every tick sends every routed account through the full risk gate
 * (the worst case; the real model signals on a small share of ticks). Because the machine is
 * shared and noisy, a baseline is measured in the same run: a trivial loop over the very same
 * routed accounts. Results go to stdout and to docs/benchmarks.md. The system is the one
 * `startPaperTrading` composes for the server and the simulate CLI (decision 070).
 */
import { categories, type Category } from '@tradebot/contract';
import { readFileSync, writeFileSync } from 'node:fs';
import * as prettier from 'prettier';
import { performance } from 'node:perf_hooks';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import type { BrokerAdapter } from '../src/broker/broker-adapter';
import type { ExecutionScheduler } from '../src/broker/paper/paper-broker';
import { startPaperTrading } from '../src/engine/paper-trading-system';
import { SubscriptionIndex } from '../src/engine/subscription-index';
import { CountingEventSink } from '../src/events/engine-events';
import { InMemoryExecutionStore } from '../src/execution/execution-store';
import { InstrumentCatalogue } from '../src/instruments/catalogue';
import type { Instrument } from '../src/instruments/instrument';
import { MarketSimulator } from '../src/market-data/market-simulator';
import type { Tick } from '../src/market-data/tick';
import { createSeededRandom } from '../src/random/random-source';
import { InMemoryAccountSettingsSource, type RobotSettings } from '../src/settings/robot-settings';
import { FixedSignalStrategy } from '../src/strategy/fixed-signal-strategy';
import { ManualClock } from '../src/time/clock';

const accountCount = 10_000;
const instrumentCount = 400;
const warmUpSteps = 5;
const measuredSteps = Number(process.env.BENCH_STEPS ?? 25);
const fanOutBatch = Number(process.env.BENCH_BATCH ?? 256);
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

interface Scenario {
  readonly ticks: number;
  readonly evaluations: number;
  readonly evaluationsPerSecond: number;
  readonly orders: number;
  readonly p50: number;
  readonly p99: number;
  readonly tickP50: number;
  readonly tickP99: number;
  readonly largestWave: number;
  /** Share of the measured orders that went out on a tick with 1,000 orders or more. */
  readonly bigWaveShare: number;
}

type FillDelivery = 'inline' | 'deferred';

const deferred: ExecutionScheduler = {
  defer: (task) => {
    setImmediate(task);
  },
};

async function runScenario(
  catalogue: InstrumentCatalogue,
  steps: readonly (readonly Tick[])[],
  delivery: FillDelivery,
  publishDenials = false,
): Promise<Scenario> {
  const random = createSeededRandom(2024);
  const settings = new InMemoryAccountSettingsSource();
  for (let i = 0; i < accountCount; i++) settings.set(`bench-${i}`, randomSettings(random));
  let tickStartedAt = 0;
  let measuring = false;
  const orderLatencies: number[] = [];
  // The system the server and the simulate CLI run (decision 070), with this benchmark's strategy,
  // batch and fill delivery, and a view of the platform that times every order handed to it.
  const { broker, engine } = await startPaperTrading({
    seed: 7,
    clock: new ManualClock(start),
    store: new InMemoryExecutionStore(undefined, { keepHistory: false }),
    settings,
    events: new CountingEventSink(),
    tickIntervalMs: 60_000,
    catalogue,
    strategy: new FixedSignalStrategy(0.999),
    minimumEdge: 0,
    fanOutBatch,
    publishDenials,
    ...(delivery === 'deferred' ? { brokerScheduler: deferred } : {}),
    brokerView: (platform): BrokerAdapter => ({
      submitOrder: (order) => {
        if (measuring) orderLatencies.push(performance.now() - tickStartedAt);
        platform.submitOrder(order);
      },
      closePosition: (a, p, r) => {
        platform.closePosition(a, p, r);
      },
      onReport: (listener) => platform.onReport(listener),
      account: (id) => platform.account(id),
      accountFigures: (id) => platform.accountFigures(id),
      openPositions: (id) => platform.openPositions(id),
      queryOrder: (id) => platform.queryOrder(id),
    }),
  });
  for (let i = 0; i < accountCount; i++) void broker.openAccount(`bench-${i}`, 1_000_000);
  let evaluations = 0;
  let engineMs = 0;
  let largestWave = 0;
  let bigWaveOrders = 0;
  const tickMs: number[] = [];
  for (let s = 0; s < steps.length; s++) {
    measuring = s >= warmUpSteps;
    // The recorded ticks go to the platform and then the engine, the order in which the system's
    // market hands them out, one at a time: each tick is timed to its last order. The system's
    // own market is not advanced.
    for (const tick of steps[s] ?? []) {
      const routed = engine.subscriberCount(catalogue.require(tick.symbol));
      const ordersBefore = orderLatencies.length;
      const t0 = performance.now();
      tickStartedAt = t0;
      broker.onTick(tick);
      // A networked broker settles TP/SL on its own servers: the engine's clock starts when the
      // tick reaches it. Inline, the paper broker shares the thread and its work counts.
      if (delivery === 'deferred') tickStartedAt = performance.now();
      await engine.onTick(tick);
      // Deferred fills land before the next tick, and their cost is counted in the tick.
      if (delivery === 'deferred') await new Promise((resolve) => setImmediate(resolve));
      const elapsed = performance.now() - t0;
      if (measuring) {
        const wave = orderLatencies.length - ordersBefore;
        largestWave = Math.max(largestWave, wave);
        if (wave >= 1000) bigWaveOrders += wave;
        evaluations += routed;
        engineMs += elapsed;
        tickMs.push(elapsed);
      }
    }
  }
  orderLatencies.sort((x, y) => x - y);
  tickMs.sort((x, y) => x - y);
  return {
    ticks: tickMs.length,
    evaluations,
    evaluationsPerSecond: evaluations / (engineMs / 1000),
    orders: orderLatencies.length,
    p50: percentile(orderLatencies, 0.5),
    p99: percentile(orderLatencies, 0.99),
    tickP50: percentile(tickMs, 0.5),
    tickP99: percentile(tickMs, 0.99),
    largestWave,
    bigWaveShare: bigWaveOrders / orderLatencies.length,
  };
}

/** The same routed accounts per tick, visited by a trivial loop: the machine's speed today. */
function baseline(catalogue: InstrumentCatalogue, steps: readonly (readonly Tick[])[]) {
  const random = createSeededRandom(2024);
  const index = new SubscriptionIndex<{ accountId: string; risk: number }>();
  for (let i = 0; i < accountCount; i++) {
    const s = randomSettings(random);
    index.update({ accountId: `bench-${i}`, risk: s.risk }, s);
  }
  let visits = 0;
  let checksum = 0;
  const t0 = performance.now();
  for (let s = warmUpSteps; s < steps.length; s++) {
    for (const tick of steps[s] ?? []) {
      const category: Category = catalogue.require(tick.symbol).category;
      for (const account of index.subscribers(category)) {
        checksum += account.risk;
        visits++;
      }
    }
  }
  return { perSecond: visits / ((performance.now() - t0) / 1000), checksum };
}

/** Ticks are generated up front, the same in every thread, so the measurement covers the engine. */
function generateSteps(instruments: readonly Instrument[]): Tick[][] {
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
  return steps;
}

interface ScenarioRequest {
  readonly delivery: FillDelivery;
  readonly publishDenials: boolean;
}

/**
 * Each scenario runs in a fresh worker thread, one after the other: its own heap, so that one
 * scenario's garbage is not collected during the next one's measurement.
 */
function inFreshWorker(request: ScenarioRequest): Promise<Scenario> {
  // The bench runs under tsx, whose loader a worker does not inherit: load it, then this file.
  const self = JSON.stringify(import.meta.url);
  const worker = new Worker(`import('tsx/esm/api').then((api) => api.tsImport(${self}, ${self}))`, {
    eval: true,
    workerData: request,
  });
  return new Promise<Scenario>((resolve, reject) => {
    worker.once('message', (scenario: Scenario) => {
      resolve(scenario);
      void worker.terminate();
    });
    worker.once('error', reject);
  });
}

async function scenarioWorker(request: ScenarioRequest): Promise<void> {
  const catalogue = new InstrumentCatalogue();
  const steps = generateSteps(pickInstruments(catalogue));
  parentPort?.postMessage(
    await runScenario(catalogue, steps, request.delivery, request.publishDenials),
  );
}

async function main(): Promise<void> {
  const catalogue = new InstrumentCatalogue();
  const instruments = pickInstruments(catalogue);
  const steps = generateSteps(instruments);

  const base = baseline(catalogue, steps);
  const inline = await inFreshWorker({ delivery: 'inline', publishDenials: false });
  const networked = await inFreshWorker({ delivery: 'deferred', publishDenials: false });
  const firehose = await inFreshWorker({ delivery: 'deferred', publishDenials: true });
  const baseAfter = baseline(catalogue, steps);
  const basePerSecond = (base.perSecond + baseAfter.perSecond) / 2;

  const columns = [inline, networked, firehose];
  const row = (label: string, cell: (c: Scenario) => string, target = '') =>
    `| ${label} | ${columns.map(cell).join(' | ')} | ${target} |`;
  const perCategory = categories
    .map((c) => `${c} ${instruments.filter((i) => i.category === c).length}`)
    .join(', ');
  const n = (x: number) => Math.round(x).toLocaleString('en-US');
  const ms = (x: number) => `${x.toFixed(2)} ms`;
  const date = new Date().toISOString().slice(0, 10);
  const report = [
    '## Robot engine',
    '',
    'Command: `npm run bench:robot` from the root (runs `npm run bench` in packages/robot).',
    '',
    `Date: ${date}. Node ${process.version}, one thread per scenario, each scenario in a fresh worker thread (its own heap), one after the other, on a shared 2-core machine (load varies; compare ratios, not raw figures, across runs).`,
    '',
    `Set-up: ${n(accountCount)} active accounts (robot on; each category enabled with probability 0.4, or all with 0.1; risk 1-5; $10,000 each) across ${instrumentCount} instruments (${perCategory}); ${measuredSteps} simulated minutes of ticks measured after ${warmUpSteps} of warm-up (${n(inline.ticks)} ticks, ${n(inline.evaluations / inline.ticks)} accounts routed per tick on average). A strategy that signals on every tick sends every routed account through the full risk gate (the worst case; the real model signals on a small share of ticks). Paper broker, in-memory store and a counting event sink in the loop; each signal publishes one SignalEvaluated with its denials counted by reason, and the last column also publishes one OrderDenied per denied account (decision 025).`,
    '',
    '| figure | paper fills inline | paper fills deferred (networked broker) | deferred, every OrderDenied published too | target |',
    '| --- | --- | --- | --- | --- |',
    row('tick-to-account evaluations per second', (c) => n(c.evaluationsPerSecond), '>= 100,000'),
    row('tick-to-order latency p50', (c) => ms(c.p50)),
    row('tick-to-order latency p99', (c) => ms(c.p99), '< 5 ms'),
    row('whole tick incl. fills, p50 / p99', (c) => `${ms(c.tickP50)} / ${ms(c.tickP99)}`),
    row('orders measured', (c) => n(c.orders)),
    row('largest wave: orders sent on one tick', (c) => n(c.largestWave)),
    row('orders sent in waves of 1,000 or more', (c) => `${(100 * c.bigWaveShare).toFixed(1)}%`),
    row('ratio to baseline (evaluations/s over trivial-loop visits/s)', (c) =>
      (c.evaluationsPerSecond / basePerSecond).toFixed(4),
    ),
    '',
    `Baseline, measured before and after in the same run: a trivial loop over the same routed accounts, ${n(basePerSecond)} visits/s.`,
    '',
    `Tick-to-order latency runs to the order being handed to the broker adapter, for every order. Orders are persisted and sent in batches of ${fanOutBatch} evaluated accounts, so an order waits for its batch. Inline: the paper broker shares the engine's thread; it settles TP/SL when the tick arrives, fills each order inside \`submitOrder\` and reports at once, and all of that counts in the latency. Deferred: the paper broker stands in for a networked broker; latency runs from the tick reaching the engine, the broker executes orders and delivers every report on the next turn of the event loop, and its work is counted in the whole-tick time only.`,
    '',
  ].join('\n');
  console.log(report);
  console.log(`(baseline checksum ${base.checksum})`);
  const path = new URL('../../../docs/benchmarks.md', import.meta.url);
  let existing = '';
  try {
    existing = readFileSync(path, 'utf8');
  } catch {
    existing = '';
  }
  const section = /## Robot engine\n[\s\S]*?(?=\n## |$)/;
  const updated = section.test(existing)
    ? existing.replace(section, report)
    : `${existing.trimEnd()}\n\n${report}`;
  // Formatted as `npm run format:check` expects, so a fresh result never turns CI red.
  const prettierOptions = await prettier.resolveConfig(path);
  writeFileSync(
    path,
    await prettier.format(`${updated.trim()}\n`, { ...prettierOptions, filepath: path.pathname }),
  );
}

(isMainThread ? main() : scenarioWorker(workerData as ScenarioRequest)).catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
