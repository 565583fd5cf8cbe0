import type { Category } from '@tradebot/contract';
import type { AccountState } from '../broker/broker-adapter';
import { PaperBroker } from '../broker/paper/paper-broker';
import { tradeOnFeed } from '../engine/paper-trading-system';
import { CountingEventSink } from '../events/engine-events';
import { InMemoryExecutionStore } from '../execution/execution-store';
import type { TradeRecord } from '../execution/trade-record';
import type { InstrumentCatalogue } from '../instruments/catalogue';
import type { SteppedFeed } from '../market-data/market-data-feed';
import type { Cents } from '../money/minor-units';
import { InMemoryAccountSettingsSource, type RobotSettings } from '../settings/robot-settings';
import type { ForecastReport } from '../strategy/forecast-metrics';
import { SignalModel } from '../strategy/signal-model';
import { learnFromFeed } from '../strategy/warm-up';
import { ManualClock } from '../time/clock';

/** What the robot ran on, and for how long: the simulator and a backtest build this the same way. */
export interface RobotRunOptions {
  readonly catalogue: InstrumentCatalogue;
  /** Built on the run's clock, which starts at `startTime`. */
  readonly feed: SteppedFeed;
  readonly startTime: number;
  /** Steps at or after this time are not taken; absent, the run lasts while the feed has ticks. */
  readonly endTime?: number;
  readonly accounts: number;
  readonly risk: number;
  readonly depositCents: Cents;
  /** Wall clock, only to report how long the run took. */
  readonly now?: () => number;
  /** Called now and then (every `progressEvery` steps, 65,536 by default) with the run's time. */
  readonly onProgress?: (time: number) => void;
  readonly progressEvery?: number;
  /**
   * Gives the event loop a turn (setImmediate) every this many steps: a run inside a server
   * keeps it answering (absent: the loop is only the engine's own awaits).
   */
  readonly yieldEvery?: number;
  /** Checked at every such turn: an aborted run stops there (it throws the signal's reason). */
  readonly signal?: AbortSignal;
  /**
   * Quotes before `startTime` the model learns from first (decision 149): no account sees them,
   * and the scorecard starts afresh after them, so the run's figures are the traded time's.
   */
  readonly history?: SteppedFeed;
}

/** Market-open minutes and how many of them the robot said it had no edge (decision 093). */
export interface MarketTime {
  readonly openMinutes: number;
  readonly noEdgeMinutes: number;
}

export interface RobotRun {
  readonly trades: readonly TradeRecord[];
  /** Unrealised profit of positions still open at the end, marked at the last tick. */
  readonly openMarks: ReadonlyMap<string, Cents>;
  readonly accounts: readonly AccountState[];
  readonly model: {
    overall: ForecastReport;
    byCategory: Partial<Record<Category, ForecastReport>>;
  };
  readonly ticks: number;
  /** Quotes the model learned from before the run (`history`); 0 for a cold start. */
  readonly historyTicks: number;
  readonly wallClockMs: number;
  /** The first account's status, read at every whole minute of the run. */
  readonly time: MarketTime;
}

/** Every account trades every category, so a run shows the engine across all markets. */
export function simulationSettings(risk: number): RobotSettings {
  return {
    bot_on: true,
    risk,
    categories_enabled: {
      forex: true,
      cripto: true,
      stocks: true,
      index: true,
      commodities: true,
      all: true,
    },
  };
}

export function accountIds(count: number): string[] {
  return Array.from({ length: count }, (_, i) => `acct-${String(i + 1).padStart(4, '0')}`);
}

const minuteMs = 60_000;
const progressEvery = 65_536;

/**
 * The robot as the server composes it (signal model with its calibrator, risk gate, engine,
 * built-in paper platform) on a feed whose time this loop drives: each step sets the clock to
 * the feed's next tick time, publishes what is due and waits for the engine to settle. At each
 * whole minute it asks the engine why the first account is idle, which gives the share of
 * market-open time spent in "no edge".
 */
export async function runRobot(options: RobotRunOptions): Promise<RobotRun> {
  const now = options.now ?? (() => 0);
  const started = now();
  const { catalogue, feed } = options;
  const broker = new PaperBroker(catalogue);
  const settings = new InMemoryAccountSettingsSource();
  const ids = accountIds(options.accounts);
  for (const accountId of ids) {
    void broker.openAccount(accountId, options.depositCents);
    settings.set(accountId, simulationSettings(options.risk));
  }
  const clock = new ManualClock(options.startTime);
  const store = new InMemoryExecutionStore();
  const strategy = new SignalModel({ calibrationErrors: true });
  let historyTicks = 0;
  if (options.history) {
    historyTicks = learnFromFeed(strategy, catalogue, options.history, options.startTime);
    strategy.restartScorecard();
  }
  const { engine } = await tradeOnFeed(feed, strategy, {
    clock,
    store,
    settings,
    events: new CountingEventSink(),
    catalogue,
    broker,
    publishDenials: false,
  });
  let ticks = 0;
  feed.subscribe(() => {
    ticks++;
  });

  const watched = ids[0];
  let openMinutes = 0;
  let noEdgeMinutes = 0;
  let minute = Math.ceil(options.startTime / minuteMs) * minuteMs;
  let steps = 0;
  const reportEvery = options.progressEvery ?? progressEvery;
  const { yieldEvery } = options;
  for (
    let t = feed.nextTime();
    t !== undefined && (options.endTime === undefined || t < options.endTime);
    t = feed.nextTime()
  ) {
    for (; watched !== undefined && minute <= t; minute += minuteMs) {
      clock.set(minute);
      const { idleReason } = engine.accountStatus(watched);
      if (idleReason === 'MARKET_CLOSED') continue;
      openMinutes++;
      if (idleReason === 'NO_EDGE') noEdgeMinutes++;
    }
    clock.set(t);
    feed.advanceTo(t);
    await engine.idle();
    if (++steps % reportEvery === 0) options.onProgress?.(t);
    if (yieldEvery !== undefined && steps % yieldEvery === 0) {
      await new Promise((resolve) => setImmediate(resolve));
      if (options.signal?.aborted) {
        engine.stop();
        options.signal.throwIfAborted();
      }
    }
  }
  engine.stop();

  const openMarks = new Map<string, Cents>();
  for (const accountId of ids) {
    for (const p of broker.openPositions(accountId))
      openMarks.set(p.positionId, p.unrealisedProfitCents);
  }
  return {
    trades: await store.trades(),
    openMarks,
    accounts: ids.flatMap((id) => broker.account(id) ?? []),
    model: strategy.report(),
    ticks,
    historyTicks,
    wallClockMs: now() - started,
    time: { openMinutes, noEdgeMinutes },
  };
}
