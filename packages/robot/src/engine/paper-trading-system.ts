import { PaperBroker, type ExecutionScheduler } from '../broker/paper/paper-broker';
import type { PlatformJournal } from '../broker/paper/platform-journal';
import type { EventSink } from '../events/engine-events';
import type { ExecutionStore } from '../execution/execution-store';
import { InstrumentCatalogue } from '../instruments/catalogue';
import { MarketSimulator, type RegimeOptions } from '../market-data/market-simulator';
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
  readonly brokerScheduler?: ExecutionScheduler;
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
  readonly publishDenials?: boolean;
  /**
   * Another strategy than the signal model (tests, benchmarks): it is used as given, never
   * warmed up.
   */
  readonly strategy?: Strategy;
}

/** The parts of one running system, as `startPaperTrading` composed them. */
export interface PaperTradingSystem<S extends Strategy = Strategy> {
  readonly catalogue: InstrumentCatalogue;
  readonly market: MarketSimulator;
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
 * simulate CLI and the tests: simulated market -> paper broker -> engine with the signal model
 * (or the strategy given). The broker subscribes to the market first, so TP/SL settle on a tick
 * before the engine trades on it. The engine reconciles pending intents with the platform
 * before it takes its first tick. The caller drives time: `market.advanceTo(clock.now())` on a
 * timer in the server, or step by step in a simulation.
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
  else strategy = model = new SignalModel();
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
  const broker =
    options.broker ??
    new PaperBroker(catalogue, {
      ...(options.brokerScheduler ? { scheduler: options.brokerScheduler } : {}),
      ...(options.journal ? { journal: options.journal } : {}),
      clock: options.clock,
    });
  market.subscribe((tick) => {
    broker.onTick(tick);
  });
  const engine = await TradingEngine.start({
    catalogue,
    feed: market,
    broker,
    store: options.store,
    settings: options.settings,
    events: options.events,
    clock: options.clock,
    strategy,
    minimumEdge: defaultSignalModelOptions.minimumEdge,
    ...(options.publishDenials === undefined ? {} : { publishDenials: options.publishDenials }),
  });
  return { catalogue, market, broker, strategy, engine, warmUp };
}
