import { PaperBroker, type ExecutionScheduler } from '../broker/paper/paper-broker';
import type { EventSink } from '../events/engine-events';
import type { ExecutionStore } from '../execution/execution-store';
import { InstrumentCatalogue } from '../instruments/catalogue';
import { MarketSimulator, type RegimeOptions } from '../market-data/market-simulator';
import type { AccountSettingsSource } from '../settings/robot-settings';
import { SignalModel, defaultSignalModelOptions } from '../strategy/signal-model';
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
  readonly regimes?: RegimeOptions;
  readonly publishDenials?: boolean;
}

/**
 * The embedded default set-up: simulated market -> paper broker -> engine with the signal model.
 * The broker subscribes to the market first, so TP/SL settle on a tick before the engine
 * trades on it. The caller drives time: `market.advanceTo(clock.now())` on a timer in the
 * server, or step by step in a simulation.
 */
export async function startPaperTrading(options: PaperTradingOptions) {
  const catalogue = options.catalogue ?? new InstrumentCatalogue();
  const market = new MarketSimulator({
    instruments: catalogue.instruments,
    seed: options.seed,
    startTime: options.clock.now(),
    tickIntervalMs: options.tickIntervalMs,
    ...(options.regimes ? { regimes: options.regimes } : {}),
  });
  const broker =
    options.broker ??
    new PaperBroker(
      catalogue,
      options.brokerScheduler ? { scheduler: options.brokerScheduler } : {},
    );
  market.subscribe((tick) => {
    broker.onTick(tick);
  });
  const strategy = new SignalModel();
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
  return { catalogue, market, broker, strategy, engine };
}
