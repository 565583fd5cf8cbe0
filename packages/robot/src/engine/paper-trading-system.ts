import type { BrokerAdapter } from '../broker/broker-adapter';
import { PaperBroker, type ExecutionScheduler } from '../broker/paper/paper-broker';
import type { PlatformJournal } from '../broker/paper/platform-journal';
import type { EventSink } from '../events/engine-events';
import type { ExecutionStore } from '../execution/execution-store';
import { InstrumentCatalogue } from '../instruments/catalogue';
import { MarketSimulator, type RegimeOptions } from '../market-data/market-simulator';
import type { MarketDataFeed } from '../market-data/market-data-feed';
import type { Tick } from '../market-data/tick';
import type { AccountSettingsSource } from '../settings/robot-settings';
import { SignalModel, defaultSignalModelOptions } from '../strategy/signal-model';
import type { Strategy } from '../strategy/strategy';
import { warmUpStrategy, type WarmUpResult } from '../strategy/warm-up';
import type { Clock } from '../time/clock';
import { TradingEngine } from './trading-engine';

export interface PaperTradingOptions {
  readonly seed: number;
  readonly clock: Clock;
  readonly store: ExecutionStore;
  readonly settings: AccountSettingsSource;
  readonly events: EventSink;
  /** Simulated tick interval: 1,000 ms for a live-looking embedded market, 60,000 for simulations. */
  readonly tickIntervalMs: number;
  readonly catalogue?: InstrumentCatalogue;
  /** A paper broker restored from persisted state, with its accounts; a new one otherwise. */
  readonly broker?: PaperBroker;
  /**
   * When a new broker executes orders and delivers reports: at once by default; a deferring
   * scheduler models a networked broker (the benchmark's deferred scenarios).
   */
  readonly brokerScheduler?: ExecutionScheduler;
  /**
   * What the engine sees of the platform: the platform itself by default. The benchmark's view
   * times each order handed to the platform. The market's ticks still reach the platform itself.
   */
  readonly brokerView?: (platform: PaperBroker) => BrokerAdapter;
  /** The platform's durable ledger, for a new broker (a restored one brings its own). */
  readonly journal?: PlatformJournal;
  /** Persisted last quotes: the market continues from them rather than reference prices. */
  readonly initialQuotes?: readonly Tick[];
  /**
   * Teach the signal model on simulated history before going live, so that a fresh start
   * trades within a minute. `true` takes `defaultWarmUpHistoryMs` of history.
   */
  readonly warmUp?: boolean | WarmUpChoice;
  readonly regimes?: RegimeOptions;
  /**
   * Keep what the calibration table's standard errors need (`SignalModelOptions`): a simulation
   * that ends does; a server that runs for months keeps the table without them.
   */
  readonly calibrationErrors?: boolean;
  readonly publishDenials?: boolean;
  /** Accounts evaluated before the orders found so far are persisted and sent (the engine's 256). */
  readonly fanOutBatch?: number;
  /**
   * Margin above break-even the risk gate demands of a signal: the signal model's own by default.
   * The benchmark's strategy, which signals on every tick, asks for none.
   */
  readonly minimumEdge?: number;
  /**
   * Another strategy than the signal model (tests, benchmarks): it is used as given, never
   * warmed up.
   */
  readonly strategy?: Strategy;
}

/** The parts of one running system, as `startPaperTrading` composed them. */
export interface PaperTradingSystem<
  S extends Strategy = Strategy,
  M extends MarketDataFeed = MarketSimulator,
> {
  readonly catalogue: InstrumentCatalogue;
  readonly market: M;
  readonly broker: PaperBroker;
  readonly strategy: S;
  readonly engine: TradingEngine;
  readonly warmUp: WarmUpResult | undefined;
}

export interface WarmUpChoice {
  /** How much simulated history, ending now, the model learns from. */
  readonly historyMs?: number;
  /** Seed of the warm-up market; derived from the live seed by default. */
  readonly seed?: number;
}

/**
 * History for the warm-up at 1-second ticks: long enough for most open instruments to pass
 * their warm-up outcomes, short enough to take a few seconds (decision 041 has the figures).
 */
export const defaultWarmUpHistoryMs = 10 * 60_000;

/**
 * The one composition of the robot (decision 070), used by the server's robot thread, the
 * simulate CLI, the robot benchmark and the tests: simulated market -> paper broker -> engine
 * with the signal model (or the strategy given). The broker subscribes to the market first, so
 * TP/SL settle on a tick before the engine trades on it. The engine reconciles pending intents
 * with the platform before it takes its first tick. The caller drives time:
 * `market.advanceTo(clock.now())` on a timer in the server, or step by step in a simulation; the
 * benchmark hands its recorded ticks to `broker.onTick` and then `engine.onTick`, in the same
 * order, one at a time.
 */
export async function startPaperTrading(
  options: PaperTradingOptions & { readonly strategy?: undefined },
): Promise<PaperTradingSystem<SignalModel>>;
export async function startPaperTrading(options: PaperTradingOptions): Promise<PaperTradingSystem>;
export async function startPaperTrading(options: PaperTradingOptions): Promise<PaperTradingSystem> {
  const catalogue = options.catalogue ?? new InstrumentCatalogue();
  let model: SignalModel | undefined;
  let strategy: Strategy;
  if (options.strategy) strategy = options.strategy;
  else
    strategy = model = new SignalModel({ calibrationErrors: options.calibrationErrors === true });
  const now = options.clock.now();
  let initialQuotes = options.initialQuotes;
  let warmUp: WarmUpResult | undefined;
  if (options.warmUp && model) {
    const choice = options.warmUp === true ? {} : options.warmUp;
    warmUp = warmUpStrategy(model, catalogue, {
      seed: choice.seed ?? options.seed + 1,
      from: now - (choice.historyMs ?? defaultWarmUpHistoryMs),
      to: now,
      tickIntervalMs: options.tickIntervalMs,
      ...(options.regimes ? { regimes: options.regimes } : {}),
    });
    // A fresh market continues the warm-up's history; a restored one keeps its own prices.
    if (initialQuotes) model.continueAt(initialQuotes);
    else initialQuotes = warmUp.lastQuotes;
  }
  const market = new MarketSimulator({
    instruments: catalogue.instruments,
    seed: options.seed,
    startTime: now,
    tickIntervalMs: options.tickIntervalMs,
    ...(options.regimes ? { regimes: options.regimes } : {}),
    ...(initialQuotes ? { initialQuotes } : {}),
  });
  const { broker, engine } = await tradeOnFeed(market, strategy, { ...options, catalogue });
  return { catalogue, market, broker, strategy, engine, warmUp };
}

/** What `tradeOnFeed` needs besides the feed and the strategy: the market's own options go. */
export type FeedTradingOptions = Omit<
  PaperTradingOptions,
  | 'seed'
  | 'tickIntervalMs'
  | 'initialQuotes'
  | 'warmUp'
  | 'regimes'
  | 'strategy'
  | 'calibrationErrors'
> & { readonly catalogue: InstrumentCatalogue };

/**
 * The platform and the engine on any feed (the simulated market here, recorded quotes in a
 * backtest, decision 125): the broker subscribes to the feed first, so TP/SL settle on a tick
 * before the engine trades on it.
 */
export async function tradeOnFeed(
  feed: MarketDataFeed,
  strategy: Strategy,
  options: FeedTradingOptions,
): Promise<{ broker: PaperBroker; engine: TradingEngine }> {
  const { catalogue } = options;
  const broker =
    options.broker ??
    new PaperBroker(catalogue, {
      ...(options.brokerScheduler ? { scheduler: options.brokerScheduler } : {}),
      ...(options.journal ? { journal: options.journal } : {}),
      clock: options.clock,
    });
  feed.subscribe((tick) => {
    broker.onTick(tick);
  });
  const engine = await TradingEngine.start({
    catalogue,
    feed,
    broker: options.brokerView ? options.brokerView(broker) : broker,
    store: options.store,
    settings: options.settings,
    events: options.events,
    clock: options.clock,
    strategy,
    minimumEdge: options.minimumEdge ?? defaultSignalModelOptions.minimumEdge,
    ...(options.publishDenials === undefined ? {} : { publishDenials: options.publishDenials }),
    ...(options.fanOutBatch === undefined ? {} : { fanOutBatch: options.fanOutBatch }),
  });
  return { broker, engine };
}
