import type { BuiltInMarket } from '@tradebot/contract';
import {
  EventBus,
  InstrumentCatalogue,
  PaperBroker,
  type PaperBrokerState,
  type RobotSettings,
  type Strategy,
  type TradingCosts,
  type Tick,
  type TradingEngine,
} from '@tradebot/robot';
import type { Db } from '../../db/database';
import { DrizzleAccountSettingsSource } from './drizzle-account-settings-source';
import { crashAt } from './test-only-crash';
import { DrizzleExecutionStore } from './drizzle-execution-store';
import {
  DrizzlePlatformJournal,
  loadPlatformState,
  saveMarketQuotes,
} from './drizzle-platform-journal';
import { projectAccount, projectionMark, type ProjectionSources } from './account-projection';
import { CTraderRuns, gateOrders, type BrokerTrouble } from './ctrader-runs';
import type {
  AccountProjection,
  BuiltInMarketChoice,
  CTraderConnectionOptions,
  CTraderGrant,
  TestOnlyCrashPoint,
} from '../protocol/robot-protocol';
import type { WriteFence } from './write-fence';
import { prepareBuiltInMarket, startOnBuiltInMarket, type RunningMarket } from './built-in-market';

const dayMs = 86_400_000;

export interface RobotCoreOptions {
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
  /** The built-in platform's market (decision 140): the simulator unless told otherwise. */
  readonly builtInMarket?: BuiltInMarketChoice;
  /** The signal model by default; tests and benchmarks may pass another (never warmed up). */
  readonly strategy?: Strategy;
  /**
   * Linked cTrader accounts (decision 096): where they connect, and the strategy each account's
   * engine gets, a fresh one that learns from that broker's prices (never the built-in
   * platform's, warmed on simulated history). Unset: cTrader accounts do not trade.
   */
  readonly ctrader?: {
    readonly connection: CTraderConnectionOptions;
    readonly strategy: (costs: TradingCosts) => Strategy;
    /** The grants this run starts with (a run replaced under leases keeps them). */
    readonly grants?: readonly CTraderGrant[];
    /** An account's broker status changed (CTraderRuns' onBrokerStatus). */
    readonly onBrokerStatus?: (accountId: string, status: BrokerTrouble | null) => void;
    /** An account's model learned the broker's history (CTraderRuns' onWarmedUp). */
    readonly onWarmedUp?: (accountId: string) => void;
    /** Failed starts are retried after this, doubling (tests make it short). */
    readonly retryFirstMs?: number;
  };
  readonly onError: (error: unknown, what: string) => void;
  /**
   * A timed market tick is done, `lagMs` after it was due: how much later than `marketTickMs`
   * its timer fired, plus the tick's own work (/metrics' tick lag, decision 150).
   */
  readonly onTickDone?: (lagMs: number) => void;
  /** An info-level log line from the robot (no token, no secret). */
  readonly onInfo?: (fields: Record<string, unknown>, message: string) => void;
  /** Told once an operation's closure is in the database. */
  readonly onClosureStored?: (accountId: string) => void;
  /**
   * Account leases (decision 092): this run restores and trades only the accounts the fence
   * holds, every write carries their tokens, no order leaves for an account the fence no longer
   * lets trade, and positions are numbered from the run's own block.
   */
  /**
   * Tests only (ROBOT_TEST_ONLY_CRASH_AT, decision 092 amended; refused unless NODE_ENV=test):
   * the process kills itself with SIGKILL at that exact point of an order's life, so the
   * takeover's reconciliation is proven there (issue 21, proofs 2 and 3).
   */
  readonly testOnlyCrashAt?: TestOnlyCrashPoint;
  readonly leases?: {
    readonly fence: WriteFence;
    readonly firstPositionNumber: number;
    /** Told of each account an order was held back for (once per account and run). */
    readonly heldBack: (accountId: string) => void;
  };
}

/**
 * The robot (decisions 042 and 046): the simulated market on the robot's clock, the built-in
 * platform restored from the database, the signal model and the engine with the server's Drizzle
 * adapters. It runs where `RobotHost` runs it, in the robot's worker thread unless told
 * otherwise; the rest of the server reaches it through the `RobotRuntime` facade. Start-up
 * reconciles pending intents with the platform before the first tick (TradingEngine.start);
 * `stop` leaves nothing half-written.
 */
export class RobotCore {
  private timer: NodeJS.Timeout | undefined;
  private quoteTimer: NodeJS.Timeout | undefined;
  private readonly savedQuoteTimes = new Map<string, number>();
  private savingQuotes: Promise<void> = Promise.resolve();
  private stopped: Promise<void> | undefined;
  /** Every account at the platform, in the order they were opened. */
  private readonly accounts: Set<string>;

  private constructor(
    private readonly options: RobotCoreOptions,
    readonly catalogue: InstrumentCatalogue,
    private readonly market: RunningMarket['market'],
    private readonly broker: PaperBroker,
    private readonly engine: TradingEngine,
    /** The engine's events: the host forwards them to the main thread. */
    readonly events: EventBus,
    accountIds: readonly string[],
    /** The strategy this run trades by: a next run (leases) continues with it, not warmed again. */
    readonly strategy: Strategy,
    private readonly settingsSource: DrizzleAccountSettingsSource,
    /** The settings last given to the engine per account, as JSON. */
    private readonly applied: Map<string, string>,
    /** Linked cTrader accounts, each on its own engine (decision 096). */
    readonly ctrader: CTraderRuns | undefined,
    /** What the built-in platform's prices are (decision 140), as the dashboard says it. */
    readonly builtInMarket: BuiltInMarket,
  ) {
    this.accounts = new Set(accountIds);
    const at = (accountId: string) => (ctrader?.has(accountId) ? ctrader : undefined);
    this.sources = {
      catalogue,
      account: (accountId) => (at(accountId) ?? broker).account(accountId),
      accountStatus: (accountId) => (at(accountId) ?? engine).accountStatus(accountId),
      openTrades: (accountId) => (at(accountId) ?? engine).openTrades(accountId),
      openPositions: (accountId) => (at(accountId) ?? broker).openPositions(accountId),
    };
  }

  static async start(options: RobotCoreOptions): Promise<RobotCore> {
    const { db } = options;
    // Recorded quotes are read and checked whole before anything is restored (decision 140).
    const prepared = await prepareBuiltInMarket(options.builtInMarket ?? { kind: 'simulator' });
    // The platform and its engine trade the market's instruments; the projections and linked
    // cTrader accounts know the whole catalogue.
    const catalogue = new InstrumentCatalogue();
    const now = options.now();
    const leases = options.leases;
    const held = leases ? [...leases.fence.tokens.keys()] : undefined;
    const state = await loadPlatformState(db, {
      settledSince: now - dayMs,
      ...(leases ? { accounts: held, firstPositionNumber: leases.firstPositionNumber } : {}),
    });
    const journal = new DrizzlePlatformJournal(db, leases?.fence);
    const broker = PaperBroker.restore(catalogue, state, {
      journal,
      clock: { now: options.now },
    });
    // Accounts linked to a cTrader broker trade there, on their own engines (decision 096).
    const store = new DrizzleExecutionStore(db, options.onClosureStored, {
      ...(leases ? { accounts: held, fence: leases.fence } : {}),
      builtInOnly: true,
    });
    if (options.testOnlyCrashAt) crashAt(options.testOnlyCrashAt, journal, store);
    if (leases) gateOrders(broker, store, leases.fence, leases.heldBack);
    // What the engine was given for each account, so a later read of the store applies changes.
    const settingsSource = new DrizzleAccountSettingsSource(db, held);
    const applied = new Map<string, string>();
    const settings = {
      loadAll: async () => {
        const registrations = await settingsSource.loadAll();
        for (const r of registrations) applied.set(r.accountId, JSON.stringify(r.settings));
        return registrations;
      },
    };
    const events = new EventBus();
    // The robot package's one composition (decision 070): market, platform, strategy, engine.
    const { market, engine, strategy } = await startOnBuiltInMarket(prepared, {
      seed: options.marketSeed,
      clock: { now: options.now },
      store,
      settings,
      events,
      tickIntervalMs: options.marketTickMs,
      broker,
      ...(state.lastTicks.length > 0 ? { initialQuotes: state.lastTicks } : {}),
      warmUpMs: options.warmUpMs,
      ...(options.strategy ? { strategy: options.strategy } : {}),
    });
    const ctrader =
      options.ctrader &&
      new CTraderRuns({
        db,
        catalogue,
        connection: options.ctrader.connection,
        events,
        strategy: options.ctrader.strategy,
        onError: options.onError,
        ...(options.onInfo ? { onInfo: options.onInfo } : {}),
        ...(options.ctrader.onBrokerStatus
          ? { onBrokerStatus: options.ctrader.onBrokerStatus }
          : {}),
        ...(options.ctrader.onWarmedUp ? { onWarmedUp: options.ctrader.onWarmedUp } : {}),
        ...(options.ctrader.retryFirstMs === undefined
          ? {}
          : { retryFirstMs: options.ctrader.retryFirstMs }),
        ...(options.onClosureStored ? { onClosureStored: options.onClosureStored } : {}),
        ...(leases ? { fence: leases.fence, heldBack: leases.heldBack } : {}),
      });
    const runtime = new RobotCore(
      options,
      catalogue,
      market,
      broker,
      engine,
      events,
      state.accounts.map((account) => account.accountId),
      strategy,
      settingsSource,
      applied,
      ctrader,
      prepared.description,
    );
    if (options.ctrader?.grants) await runtime.syncCTrader(options.ctrader.grants);
    for (const tick of state.lastTicks) runtime.savedQuoteTimes.set(tick.symbol, tick.time);
    if (options.autoAdvance) {
      let last = Date.now();
      runtime.timer = setInterval(() => {
        const start = Date.now();
        runtime.advance();
        const end = Date.now();
        options.onTickDone?.(Math.max(0, start - last - options.marketTickMs) + (end - start));
        last = start;
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
    await this.ctrader?.settled();
  }

  /**
   * Every account at the platform and every linked cTrader account running (with leases: every
   * account this run holds).
   */
  accountIds(): string[] {
    return [...new Set([...this.accounts, ...(this.ctrader?.accountIds() ?? [])])];
  }

  /** The grants this run trades now (a run replaced under leases starts with them). */
  grants: readonly CTraderGrant[] = [];

  /**
   * Runs exactly these linked cTrader accounts (decision 096); an account that moves to cTrader
   * leaves the built-in platform's engine. Resolves with the accounts whose run started or
   * stopped.
   */
  async syncCTrader(grants: readonly CTraderGrant[]): Promise<string[]> {
    this.grants = grants;
    if (!this.ctrader) return [];
    const moved = await this.ctrader.sync(grants);
    for (const accountId of moved) {
      if (this.ctrader.has(accountId)) {
        this.engine.removeAccount(accountId);
        this.applied.delete(accountId);
      }
    }
    return moved;
  }

  /** Whether this run trades the account (always true without leases). */
  trades(accountId: string): boolean {
    const fence = this.options.leases?.fence;
    return !fence || fence.tokens.has(accountId);
  }

  /** What the account's projection is built from, read in this thread. */
  private readonly sources: ProjectionSources;

  /**
   * The account as the dashboard shows it, in one read, in the contract's shapes (decision
   * 070). Undefined for an unknown account.
   */
  projection(accountId: string): AccountProjection | undefined {
    return projectAccount(this.sources, accountId);
  }

  /** What the projection shows that can change, without building it: equal means unchanged. */
  projectionMark(accountId: string): string {
    return projectionMark(this.sources, accountId);
  }

  /** Opens the user's account at the built-in platform with a first deposit, once; durably. */
  async openAccount(accountId: string, depositCents: number): Promise<void> {
    if (this.accounts.has(accountId)) return;
    this.accounts.add(accountId);
    try {
      await this.broker.openAccount(accountId, depositCents);
    } catch (error) {
      if (!this.broker.account(accountId)) this.accounts.delete(accountId);
      throw error;
    }
  }

  /** Adds cash to an open account; resolves once the deposit is durable. */
  deposit(accountId: string, cents: number): Promise<void> {
    return this.broker.deposit(accountId, cents);
  }

  /** The platform's whole state (tests and diagnostics). */
  snapshot(): PaperBrokerState {
    return this.broker.snapshot();
  }

  /** Takes effect at once: the next tick already routes by these settings. */
  applySettings(accountId: string, settings: RobotSettings): void {
    this.applied.set(accountId, JSON.stringify(settings));
    if (this.ctrader?.has(accountId)) this.ctrader.applySettings(accountId, settings);
    else this.engine.applySettings(accountId, settings);
  }

  /** The settings of this run's accounts as stored now. */
  async storedSettings(): ReturnType<DrizzleAccountSettingsSource['loadAll']> {
    return [
      ...(await this.settingsSource.loadAll()),
      ...((await this.ctrader?.storedSettings()) ?? []),
    ];
  }

  /** Whether the settings differ from what the engine was last given for the account. */
  settingsChanged(accountId: string, settings: RobotSettings): boolean {
    return this.applied.get(accountId) !== JSON.stringify(settings);
  }

  /** The user's kill switch: closes every open operation at the platform. Returns how many. */
  closeAllPositions(accountId: string): number {
    if (this.ctrader?.has(accountId)) return this.ctrader.closeAllPositions(accountId);
    return this.engine.closeAllPositions(accountId);
  }

  /** The user closes one operation (decision 152): false when it is not open there. */
  closePosition(accountId: string, positionId: string): boolean {
    if (this.ctrader?.has(accountId)) return this.ctrader.closePosition(accountId, positionId);
    return this.engine.closePosition(accountId, positionId);
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
      // No tick comes any more (advance returns once stopped); the orders in flight settle and
      // their reports reach the engine before it stops listening, so a run replaced under
      // leases (decision 092), or a process stopped, leaves no fill or closure unrecorded.
      await this.settled();
      this.engine.stop();
      await this.ctrader?.stop();
      await this.settled();
      await this.saveQuotes();
    })();
    return this.stopped;
  }
}
