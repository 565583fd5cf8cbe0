import {
  categories,
  type BestForecast,
  type Category,
  type CategoryActivity,
  type RobotActivity,
  type RobotIdleReason,
} from '@tradebot/contract';
import type { AccountState, BrokerAdapter } from '../broker/broker-adapter';
import type { EventSink } from '../events/engine-events';
import type { ExecutionStore } from '../execution/execution-store';
import type { TradeRecord } from '../execution/trade-record';
import type { InstrumentCatalogue } from '../instruments/catalogue';
import type { Instrument } from '../instruments/instrument';
import { isMarketOpen, nextOpening } from '../instruments/trading-hours';
import type { MarketDataFeed } from '../market-data/market-data-feed';
import type { Tick, Unsubscribe } from '../market-data/tick';
import { RiskGate, categoryBit, type TradingState } from '../risk/risk-gate';
import type { AccountSettingsSource, RobotSettings } from '../settings/robot-settings';
import type { Strategy, StrategyOutlook } from '../strategy/strategy';
import type { Clock } from '../time/clock';
import { AccountBook, type AccountRuntime } from './account-book';
import type { EngineControl } from './engine-control';
import { OrderExecution } from './order-execution';
import { SignalRouter } from './signal-router';
import { WorkTracker } from './work-tracker';

export interface TradingEngineDependencies {
  readonly catalogue: InstrumentCatalogue;
  readonly feed: MarketDataFeed;
  readonly broker: BrokerAdapter;
  readonly store: ExecutionStore;
  readonly settings: AccountSettingsSource;
  readonly events: EventSink;
  readonly clock: Clock;
  readonly strategy: Strategy;
  /** Margin above break-even the risk gate demands of a signal (the strategy's own rule). */
  readonly minimumEdge?: number;
  /**
   * Also publish one OrderDenied per account and signal (a diagnostic firehose, for tests and
   * debugging). Off by default: each signal publishes one SignalEvaluated with its denials
   * counted by reason (decision 025).
   */
  readonly publishDenials?: boolean;
  /** Accounts evaluated before the orders found so far are persisted and sent. */
  readonly fanOutBatch?: number;
  /**
   * Whose trading hours count: a real broker's own, per symbol, for its account (decision 096,
   * addendum on hours); our catalogue's when absent.
   */
  readonly marketOpen?: (symbol: string, time: number) => boolean;
}

const dayMs = 86_400_000;
const minuteMs = 60_000;
/**
 * With no signal in any of an account's categories for this long, its robot says it has no edge
 * (decision 093): the strategy found nothing that clears break-even plus costs.
 */
export const noEdgeAfterMs = 3 * 3_600_000;

/**
 * Why an account's robot is not trading right now, in the contract's words (robotIdleReasons
 * in @tradebot/contract; the server adds the ones it knows, such as NOT_LINKED).
 */
export const engineIdleReasons = [
  'ROBOT_OFF',
  'NO_CATEGORY_ENABLED',
  'MARKET_CLOSED',
  'DAILY_LOSS_LIMIT',
  'EXPOSURE_CAP_REACHED',
  'TRADING_HALTED',
  'NO_EDGE',
  /** Said by a real broker's adapter, not the engine: its connection or grant (decision 096). */
  'BROKER_DISCONNECTED',
  'BROKER_RECONNECT_NEEDED',
  /** Said by a real broker's run while its model learns from the broker's history. */
  'WARMING_UP',
] as const satisfies readonly RobotIdleReason[];
export type EngineIdleReason = (typeof engineIdleReasons)[number];

export interface AccountStatus {
  /** Null while the robot may trade; otherwise the first reason it cannot. */
  readonly idleReason: EngineIdleReason | null;
  /**
   * Per category the account chose, what the robot does there now (decision 147): present
   * while it is on and watches them (not off, halted, or without a category).
   */
  readonly activity?: RobotActivity;
}

/** The statuses said before any category is looked at: the same object every time. */
const statusOf = {
  ROBOT_OFF: { idleReason: 'ROBOT_OFF' },
  NO_CATEGORY_ENABLED: { idleReason: 'NO_CATEGORY_ENABLED' },
  TRADING_HALTED: { idleReason: 'TRADING_HALTED' },
} as const satisfies Readonly<Record<string, AccountStatus>>;

/**
 * The kernel: the same code runs paper trading, simulations and, with another BrokerAdapter,
 * live trading. Flow per tick (ARCHITECTURE.md, "A trade, end to end"): strategy -> risk gate
 * per subscribed account -> intents persisted with deterministic client order ids -> broker.
 * Broker reports are applied once each, however often they arrive.
 *
 * A facade over its parts (decision 041): the account book (accounts, busy instruments,
 * reservations, pending intents, open trades), signal routing (fan-out through the risk gate,
 * group commit) and order execution (sending, reports, reconciliation). The broker's reports go
 * to order execution directly; the engine only subscribes it and ends the subscription on stop.
 */
export class TradingEngine {
  private readonly control: EngineControl = { state: 'ACTIVE' };
  private readonly book = new AccountBook();
  private readonly work: WorkTracker;
  /** The engine's one way into the risk gate: orders (the router) and idle reasons (here). */
  private readonly gate: RiskGate<AccountRuntime>;
  private readonly execution: OrderExecution;
  private readonly router: SignalRouter;
  /** When this engine began watching its markets (the clock at construction). */
  private readonly watchingSince: number;
  private unsubscribes: Unsubscribe[] = [];
  /** Per category: whether any of its markets is open, as of a minute (see accountStatus). */
  private readonly marketHours = new Map<Category, { minute: number; open: boolean }>();
  /** Per category: its next opening (epoch ms, null: not known), as of a minute. */
  private readonly openings = new Map<Category, { minute: number; at: number | null }>();
  /** Per category: the strategy's outlook, as of its latest evaluated tick and a minute. */
  private readonly outlooks = new Map<
    Category,
    { evaluated: number | undefined; minute: number; outlook: StrategyOutlook }
  >();

  private constructor(private readonly deps: TradingEngineDependencies) {
    // An engine that cannot record what happened must not keep trading.
    this.work = new WorkTracker((error) => {
      this.control.state = 'HALTED';
      deps.events.publish({
        type: 'TradingHalted',
        reason: `engine failure: ${String(error)}`,
        at: deps.clock.now(),
      });
    });
    this.execution = new OrderExecution(deps, this.book, this.control, this.work);
    this.gate = new RiskGate<AccountRuntime>({
      broker: deps.broker,
      control: this.control,
      dayStarted: (runtime, day, equityCents) => {
        // Durably: a restart later that day finds the base again instead of starting a fresh
        // allowance.
        this.book.setDayStart(runtime, day, equityCents);
        this.work.track(deps.store.recordDayStart(runtime.accountId, day, equityCents));
      },
    });
    this.router = new SignalRouter(
      {
        ...deps,
        minimumEdge: deps.minimumEdge ?? 0,
        publishDenials: deps.publishDenials ?? false,
        fanOutBatch: deps.fanOutBatch ?? 256,
        startedAt: deps.clock.now(),
      },
      this.book,
      this.gate,
      this.control,
      this.execution,
    );
    this.watchingSince = deps.clock.now();
  }

  /**
   * Loads the accounts, has order execution subscribe to the broker's reports, reconciles what
   * the store says with what the broker did while the engine was down, and only then starts
   * taking ticks.
   */
  static async start(deps: TradingEngineDependencies): Promise<TradingEngine> {
    const engine = new TradingEngine(deps);
    for (const { accountId, settings } of await deps.settings.loadAll()) {
      engine.applySettings(accountId, settings, { publish: false });
    }
    engine.unsubscribes.push(engine.execution.listen());
    await engine.restoreDayStarts();
    await engine.execution.reconcile();
    engine.unsubscribes.push(
      deps.feed.subscribe((tick) => {
        engine.work.track(engine.onTick(tick));
      }),
    );
    return engine;
  }

  get tradingState(): TradingState {
    return this.control.state;
  }

  /** Stops listening; in-flight work can still be awaited with `idle`. */
  stop(): void {
    for (const unsubscribe of this.unsubscribes) unsubscribe();
    this.unsubscribes = [];
  }

  /** Resolves when every order and store write started so far has completed. */
  idle(): Promise<void> {
    return this.work.idle();
  }

  applySettings(accountId: string, settings: RobotSettings, options = { publish: true }): void {
    this.book.apply(accountId, settings);
    if (options.publish) {
      this.deps.events.publish({ type: 'SettingsApplied', accountId, at: this.deps.clock.now() });
    }
  }

  /** Stops routing ticks to an account (unlinked, deleted). Its open positions stay at the broker. */
  removeAccount(accountId: string): void {
    this.book.remove(accountId);
  }

  /** Kill switch: no new orders, and every open position of every account is closed. */
  halt(reason: string): void {
    this.control.state = 'HALTED';
    this.deps.events.publish({ type: 'TradingHalted', reason, at: this.deps.clock.now() });
    for (const accountId of this.book.accountIds()) this.closeAllPositions(accountId);
  }

  resume(): void {
    if (this.control.state === 'ACTIVE') return;
    this.control.state = 'ACTIVE';
    this.deps.events.publish({ type: 'TradingResumed', at: this.deps.clock.now() });
  }

  /**
   * Per-account kill switch: asks the platform to close every open position of the account
   * (reason 'kill') and returns how many. The robot itself is switched off through
   * `applySettings`; orders already sent may still fill.
   */
  closeAllPositions(accountId: string): number {
    const positions = this.deps.broker.openPositions(accountId);
    for (const position of positions) {
      this.deps.broker.closePosition(accountId, position.positionId, 'kill');
    }
    return positions.length;
  }

  /**
   * The user closes one operation (decision 152): asks the platform to close that position at
   * the market (reason 'manual'). False when the account has no such position open (it closed
   * meanwhile, or it is another account's).
   */
  closePosition(accountId: string, positionId: string): boolean {
    const open = this.deps.broker
      .openPositions(accountId)
      .some((position) => position.positionId === positionId);
    if (open) this.deps.broker.closePosition(accountId, positionId, 'manual');
    return open;
  }

  /**
   * Why the account's robot is idle now, or null while it may trade: cheap enough for every API
   * request (market hours are looked up once per category and minute). An account the engine
   * does not know has its robot off.
   */
  accountStatus(accountId: string): AccountStatus {
    const runtime = this.book.get(accountId);
    if (!runtime) return statusOf.ROBOT_OFF;
    if (this.control.state === 'HALTED') return statusOf.TRADING_HALTED;
    if (!runtime.botOn) return statusOf.ROBOT_OFF;
    if (runtime.categoryMask === 0) return statusOf.NO_CATEGORY_ENABLED;
    const now = this.deps.clock.now();
    const activity = this.activity(accountId, runtime.categoryMask, now);
    const status = (reason: EngineIdleReason | null): AccountStatus => ({
      idleReason: reason,
      activity,
    });
    if (activity.categories.every((entry) => entry.state === 'MARKET_CLOSED')) {
      return status('MARKET_CLOSED');
    }
    const standing = this.gate.standing(runtime, Math.floor(now / dayMs));
    if (standing === 'NO_FIGURES') return status(null);
    if (standing !== 'WITHIN_LIMITS') return status(standing);
    if (!this.edgeSeen(runtime.categoryMask, now)) return status('NO_EDGE');
    return status(null);
  }

  /**
   * What the robot does in each category in `mask` (decision 147): a closed market first (with
   * its next opening), then a model still learning, then its best forecast against what it
   * needs: trading when it reaches it or operations are open there, no edge otherwise.
   */
  private activity(accountId: string, mask: number, now: number): RobotActivity {
    const open = new Map<Category, number>();
    for (const position of this.deps.broker.openPositions(accountId)) {
      const category = this.deps.catalogue.get(position.symbol)?.category;
      if (category) open.set(category, (open.get(category) ?? 0) + 1);
    }
    const entries: CategoryActivity[] = [];
    for (const category of categories) {
      if ((mask & categoryBit(category)) === 0) continue;
      entries.push(this.categoryActivity(category, open.get(category) ?? 0, now));
    }
    return { asOf: new Date(now).toISOString(), categories: entries };
  }

  private categoryActivity(
    category: Category,
    openOperations: number,
    now: number,
  ): CategoryActivity {
    const evaluated = this.router.lastEvaluation(category);
    const base = {
      category,
      openOperations,
      evaluatedAt: evaluated === undefined ? null : new Date(evaluated).toISOString(),
    };
    if (!this.categoryOpen(category, now)) {
      const opensAt = this.nextOpeningOf(category, now);
      return {
        ...base,
        state: 'MARKET_CLOSED',
        opensAt: opensAt === null ? null : new Date(opensAt).toISOString(),
      };
    }
    const outlook = this.outlookOf(category, evaluated, now);
    if (outlook.learning) return { ...base, state: 'LEARNING', ...outlook.learning };
    const best = this.bestForecast(category, outlook);
    const edge = best !== null && best.probability >= best.requiredProbability;
    return { ...base, state: edge || openOperations > 0 ? 'TRADING' : 'NO_EDGE', best };
  }

  /**
   * The strategy's best forecast of the category, asked no more than once per tick and minute
   * for every account together; a strategy that says none is described by its latest signal.
   */
  private outlookOf(category: Category, evaluated: number | undefined, now: number) {
    const minute = Math.floor(now / minuteMs);
    const cached = this.outlooks.get(category);
    if (cached && cached.evaluated === evaluated && cached.minute === minute) return cached.outlook;
    const strategy = this.deps.strategy;
    let outlook: StrategyOutlook;
    if (strategy.outlook) {
      outlook = strategy.outlook(category);
    } else {
      const signal = this.router.latestSignalOf(category);
      outlook = signal
        ? {
            best: {
              symbol: signal.symbol,
              probability: signal.probability,
              breakEvenProbability: signal.geometry.breakEvenProbability,
              requiredProbability: signal.geometry.breakEvenProbability,
              time: signal.time,
            },
          }
        : {};
    }
    this.outlooks.set(category, { evaluated, minute, outlook });
    return outlook;
  }

  /** The outlook's best forecast, asking at least the risk gate's margin above break-even. */
  private bestForecast(category: Category, outlook: StrategyOutlook): BestForecast | null {
    const best = outlook.best;
    if (!best || this.deps.catalogue.get(best.symbol)?.category !== category) return null;
    const gate = best.breakEvenProbability + (this.deps.minimumEdge ?? 0);
    return {
      symbol: best.symbol,
      probability: best.probability,
      breakEvenProbability: best.breakEvenProbability,
      requiredProbability: Math.max(best.requiredProbability, gate),
    };
  }

  /**
   * The category's next opening by our catalogue's hours, as of a minute; null under a broker's
   * own hours (not known ahead) or when none of its instruments opens within eight days.
   */
  private nextOpeningOf(category: Category, now: number): number | null {
    if (this.deps.marketOpen !== undefined) return null;
    const minute = Math.floor(now / minuteMs);
    const cached = this.openings.get(category);
    if (cached?.minute === minute) return cached.at;
    let at: number | null = null;
    const schedules = new Set(this.deps.catalogue.inCategory(category).map((i) => i.schedule));
    for (const schedule of schedules) {
      const opening = nextOpening(schedule, now);
      if (opening !== undefined && (at === null || opening < at)) at = opening;
    }
    this.openings.set(category, { minute, at });
    return at;
  }

  /**
   * Whether the strategy signalled in one of the categories in `mask` within noEdgeAfterMs,
   * or has not yet watched that long: "no edge" is said only after hours of looking.
   */
  private edgeSeen(mask: number, now: number): boolean {
    if (now - this.watchingSince <= noEdgeAfterMs) return true;
    for (const category of categories) {
      if ((mask & categoryBit(category)) === 0) continue;
      const last = this.router.lastSignalTime(category);
      if (last !== undefined && now - last <= noEdgeAfterMs) return true;
    }
    return false;
  }

  private marketOpen(instrument: Instrument, time: number): boolean {
    const byBroker = this.deps.marketOpen;
    return byBroker ? byBroker(instrument.symbol, time) : isMarketOpen(instrument.schedule, time);
  }

  /** Whether an instrument of the category is open at `time` (cached per minute). */
  private categoryOpen(category: Category, time: number): boolean {
    const minute = Math.floor(time / minuteMs);
    let cached = this.marketHours.get(category);
    // A broker's hours change with its events: asked every time (a few intervals per symbol).
    if (cached?.minute !== minute || this.deps.marketOpen !== undefined) {
      const open = this.deps.catalogue
        .inCategory(category)
        .some((instrument) => this.marketOpen(instrument, time));
      cached = { minute, open };
      this.marketHours.set(category, cached);
    }
    return cached.open;
  }

  account(accountId: string): AccountState | undefined {
    return this.deps.broker.account(accountId);
  }

  openTrades(accountId?: string): TradeRecord[] {
    return this.book.openTrades(accountId);
  }

  subscriberCount(instrument: Instrument): number {
    return this.book.subscriberCount(instrument.category);
  }

  onTick(tick: Tick): Promise<void> {
    return this.router.onTick(tick);
  }

  /** Today's loss-limit bases, as recorded before a restart (see SignalRouter.evaluate). */
  private async restoreDayStarts(): Promise<void> {
    const day = Math.floor(this.deps.clock.now() / dayMs);
    for (const [accountId, equityCents] of await this.deps.store.dayStarts(day)) {
      const runtime = this.book.get(accountId);
      if (runtime) this.book.setDayStart(runtime, day, equityCents);
    }
  }
}
