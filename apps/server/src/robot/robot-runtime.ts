import {
  EventBus,
  InstrumentCatalogue,
  MarketSimulator,
  PaperBroker,
  SignalModel,
  TradingEngine,
  defaultSignalModelOptions,
  warmUpStrategy,
  type AccountState,
  type AccountStatus,
  type RobotSettings,
  type Strategy,
  type Tick,
} from '@tradebot/robot';
import type { Db } from '../db/database';
import { DrizzleAccountSettingsSource } from './drizzle-account-settings-source';
import { DrizzleExecutionStore } from './drizzle-execution-store';
import {
  DrizzlePlatformJournal,
  loadPlatformState,
  saveMarketQuotes,
} from './drizzle-platform-journal';

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
  /**
   * Simulated history the signal model learns from before going live, so that a fresh start
   * trades within a minute (decision 041). 0 skips it.
   */
  readonly warmUpMs: number;
  /** The signal model by default; tests and benchmarks may pass another (never warmed up). */
  readonly strategy?: Strategy;
  readonly onError: (error: unknown, what: string) => void;
  readonly onHalted: (reason: string) => void;
  /** Told once an operation's closure is in the database. */
  readonly onClosureStored?: (accountId: string) => void;
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
    const broker = PaperBroker.restore(catalogue, state, {
      journal: new DrizzlePlatformJournal(db),
      clock: { now: options.now },
    });
    let strategy = options.strategy;
    let initialQuotes = state.lastTicks.length > 0 ? state.lastTicks : undefined;
    if (!strategy) {
      const model = new SignalModel();
      if (options.warmUpMs > 0) {
        const warmUp = warmUpStrategy(model, catalogue, {
          seed: options.marketSeed + 1,
          from: now - options.warmUpMs,
          to: now,
          tickIntervalMs: options.marketTickMs,
        });
        // A market restored from its quotes keeps its prices; a fresh one continues the history.
        if (initialQuotes) model.continueAt(initialQuotes);
        else initialQuotes = warmUp.lastQuotes;
      }
      strategy = model;
    }
    const market = new MarketSimulator({
      instruments: catalogue.instruments,
      seed: options.marketSeed,
      startTime: now,
      tickIntervalMs: options.marketTickMs,
      ...(initialQuotes ? { initialQuotes } : {}),
    });
    // The platform settles TP and SL on a tick before the engine trades on it.
    market.subscribe((tick) => {
      broker.onTick(tick);
    });
    const store = new DrizzleExecutionStore(db, options.onClosureStored);
    const events = new EventBus();
    const engine = await TradingEngine.start({
      catalogue,
      feed: market,
      broker,
      store,
      settings: new DrizzleAccountSettingsSource(db),
      events,
      clock: { now: options.now },
      strategy,
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
    // The first quotes are saved at once: a crash before the first periodic save must not
    // restart the market from other prices than the open positions were taken at.
    await runtime.saveQuotes();
    return runtime;
  }

  /** The robot's time, epoch ms. */
  now(): number {
    return this.options.now();
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
    await this.broker.durable();
    await this.engine.idle();
  }

  hasAccount(accountId: string): boolean {
    return this.broker.account(accountId) !== undefined;
  }

  account(accountId: string): AccountState | undefined {
    return this.broker.account(accountId);
  }

  /** Opens the user's account at the built-in platform with a first deposit, once; durably. */
  async openAccount(accountId: string, depositCents: number): Promise<void> {
    if (this.hasAccount(accountId)) return;
    await this.broker.openAccount(accountId, depositCents);
  }

  /** Adds cash to the user's platform account; resolves once the deposit is durable. */
  deposit(accountId: string, cents: number): Promise<void> {
    return this.broker.deposit(accountId, cents);
  }

  /** Takes effect at once: the next tick already routes by these settings. */
  applySettings(accountId: string, settings: RobotSettings): void {
    this.engine.applySettings(accountId, settings);
  }

  /** The user's kill switch: closes every open operation at the platform. Returns how many. */
  closeAllPositions(accountId: string): number {
    return this.engine.closeAllPositions(accountId);
  }

  /** Why the account's robot is idle now (engine-side reasons), or null while it may trade. */
  accountStatus(accountId: string): AccountStatus {
    return this.engine.accountStatus(accountId);
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
      await this.settled();
      await this.saveQuotes();
    })();
    return this.stopped;
  }
}
