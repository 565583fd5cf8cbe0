import {
  EventBus,
  InstrumentCatalogue,
  MarketSimulator,
  PaperBroker,
  SignalModel,
  TradingEngine,
  defaultSignalModelOptions,
  type AccountState,
  type RobotSettings,
  type Strategy,
  type Tick,
} from '@tradebot/robot';
import type { Db } from '../db/database';
import { DrizzleAccountSettingsSource } from './drizzle-account-settings-source';
import { DrizzleExecutionStore } from './drizzle-execution-store';
import { loadPlatformState, saveMarketQuotes } from './drizzle-platform-journal';

const dayMs = 86_400_000;

export interface RobotRuntimeOptions {
  readonly db: Db;
  /** The robot's time, epoch ms: the wall clock in production, a hand-moved one in tests. */
  readonly now: () => number;
  /** Simulated time between two ticks of an instrument. */
  readonly marketTickMs: number;
  readonly marketSeed: number;
  /** Advance the market on a timer every `marketTickMs` of wall time (tests call `advance`). */
  readonly autoAdvance: boolean;
  /** How often the market's last quotes are saved, so a restart continues from them. */
  readonly quoteSaveMs: number;
  /** The signal model by default; tests and benchmarks may pass another strategy. */
  readonly strategy?: Strategy;
  readonly onError: (error: unknown, what: string) => void;
  readonly onHalted: (reason: string) => void;
}

/**
 * The robot inside the server (docs/decisions/042-robot-in-the-server.md): the simulated market
 * on the robot's clock, the built-in platform restored from the database, the signal model and
 * the engine with the server's Drizzle adapters. Start-up reconciles pending intents with the
 * platform before the first tick (TradingEngine.start); `stop` leaves nothing half-written.
 */
export class RobotRuntime {
  private timer: NodeJS.Timeout | undefined;
  private quoteTimer: NodeJS.Timeout | undefined;
  private readonly savedQuoteTimes = new Map<string, number>();
  private savingQuotes: Promise<void> = Promise.resolve();
  private stopped: Promise<void> | undefined;

  private constructor(
    private readonly options: RobotRuntimeOptions,
    readonly catalogue: InstrumentCatalogue,
    readonly market: MarketSimulator,
    readonly broker: PaperBroker,
    readonly store: DrizzleExecutionStore,
    readonly engine: TradingEngine,
    /** The engine's events: live updates and logs subscribe here. */
    readonly events: EventBus,
  ) {}

  static async start(options: RobotRuntimeOptions): Promise<RobotRuntime> {
    const { db } = options;
    const catalogue = new InstrumentCatalogue();
    const now = options.now();
    const state = await loadPlatformState(db, { settledSince: now - dayMs });
    const broker = PaperBroker.restore(catalogue, state);
    const market = new MarketSimulator({
      instruments: catalogue.instruments,
      seed: options.marketSeed,
      startTime: now,
      tickIntervalMs: options.marketTickMs,
    });
    // The platform settles TP and SL on a tick before the engine trades on it.
    market.subscribe((tick) => {
      broker.onTick(tick);
    });
    const store = new DrizzleExecutionStore(db);
    const events = new EventBus();
    const engine = await TradingEngine.start({
      catalogue,
      feed: market,
      broker,
      store,
      settings: new DrizzleAccountSettingsSource(db),
      events,
      clock: { now: options.now },
      strategy: options.strategy ?? new SignalModel(),
      minimumEdge: defaultSignalModelOptions.minimumEdge,
    });
    const runtime = new RobotRuntime(options, catalogue, market, broker, store, engine, events);
    events.on('TradingHalted', (event) => {
      options.onHalted(event.reason);
    });
    for (const tick of state.lastTicks) runtime.savedQuoteTimes.set(tick.symbol, tick.time);
    if (options.autoAdvance) {
      runtime.timer = setInterval(() => {
        runtime.advance();
      }, options.marketTickMs);
      runtime.quoteTimer = setInterval(() => {
        void runtime.saveQuotes();
      }, options.quoteSaveMs);
    }
    runtime.advance();
    return runtime;
  }

  /** Emits every market tick due by the robot's clock. */
  advance(): void {
    if (this.stopped) return;
    try {
      this.market.advanceTo(this.options.now());
    } catch (error) {
      this.options.onError(error, 'advancing the market');
    }
  }

  /** Resolves once every order, report and write started so far has landed. */
  async settled(): Promise<void> {
    await this.engine.idle();
  }

  hasAccount(accountId: string): boolean {
    return this.broker.account(accountId) !== undefined;
  }

  account(accountId: string): AccountState | undefined {
    return this.broker.account(accountId);
  }

  /** Opens the user's account at the built-in platform with a first deposit, once. */
  openAccount(accountId: string, depositCents: number): Promise<void> {
    if (this.hasAccount(accountId)) return Promise.resolve();
    this.broker.openAccount(accountId, depositCents);
    return Promise.resolve();
  }

  /** Takes effect at once: the next tick already routes by these settings. */
  applySettings(accountId: string, settings: RobotSettings): void {
    this.engine.applySettings(accountId, settings);
  }

  /** The user's kill switch: closes every open operation at the platform. Returns how many. */
  closeAllPositions(accountId: string): number {
    const positions = this.broker.openPositions(accountId);
    for (const position of positions) {
      this.broker.closePosition(accountId, position.positionId, 'kill');
    }
    return positions.length;
  }

  /** Saves the quotes that moved since the last save. */
  saveQuotes(): Promise<void> {
    const moved: Tick[] = [];
    for (const instrument of this.catalogue.instruments) {
      const tick = this.market.lastTick(instrument.symbol);
      if (!tick || this.savedQuoteTimes.get(tick.symbol) === tick.time) continue;
      moved.push(tick);
    }
    if (moved.length === 0) return this.savingQuotes;
    this.savingQuotes = this.savingQuotes
      .then(() => saveMarketQuotes(this.options.db, moved))
      .then(
        () => {
          for (const tick of moved) this.savedQuoteTimes.set(tick.symbol, tick.time);
        },
        (error: unknown) => {
          this.options.onError(error, 'saving market quotes');
        },
      );
    return this.savingQuotes;
  }

  /**
   * Stops cleanly, before the database closes: no more ticks, the engine stops taking them,
   * every write in flight lands, and the last quotes are saved.
   */
  stop(): Promise<void> {
    this.stopped ??= (async () => {
      clearInterval(this.timer);
      clearInterval(this.quoteTimer);
      this.engine.stop();
      await this.engine.idle();
      await this.saveQuotes();
    })();
    return this.stopped;
  }
}
