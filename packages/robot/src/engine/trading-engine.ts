import { categories, type Category, type RobotIdleReason } from '@tradebot/contract';
import type { AccountState, BrokerAdapter } from '../broker/broker-adapter';
import type { EventSink } from '../events/engine-events';
import type { ExecutionStore } from '../execution/execution-store';
import type { TradeRecord } from '../execution/trade-record';
import type { InstrumentCatalogue } from '../instruments/catalogue';
import type { Instrument } from '../instruments/instrument';
import { isMarketOpen } from '../instruments/trading-hours';
import type { MarketDataFeed } from '../market-data/market-data-feed';
import type { Tick, Unsubscribe } from '../market-data/tick';
import { RiskGate, categoryBit, type TradingState } from '../risk/risk-gate';
import type { AccountSettingsSource, RobotSettings } from '../settings/robot-settings';
import type { Strategy } from '../strategy/strategy';
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
}

const statusOf: Readonly<Record<EngineIdleReason | 'TRADING', AccountStatus>> = {
  ROBOT_OFF: { idleReason: 'ROBOT_OFF' },
  NO_CATEGORY_ENABLED: { idleReason: 'NO_CATEGORY_ENABLED' },
  MARKET_CLOSED: { idleReason: 'MARKET_CLOSED' },
  DAILY_LOSS_LIMIT: { idleReason: 'DAILY_LOSS_LIMIT' },
  EXPOSURE_CAP_REACHED: { idleReason: 'EXPOSURE_CAP_REACHED' },
  TRADING_HALTED: { idleReason: 'TRADING_HALTED' },
  NO_EDGE: { idleReason: 'NO_EDGE' },
  BROKER_DISCONNECTED: { idleReason: 'BROKER_DISCONNECTED' },
  BROKER_RECONNECT_NEEDED: { idleReason: 'BROKER_RECONNECT_NEEDED' },
  WARMING_UP: { idleReason: 'WARMING_UP' },
  TRADING: { idleReason: null },
};

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
    if (!this.anyMarketOpen(runtime.categoryMask, now)) return statusOf.MARKET_CLOSED;
    const standing = this.gate.standing(runtime, Math.floor(now / dayMs));
    if (standing === 'NO_FIGURES') return statusOf.TRADING;
    if (standing !== 'WITHIN_LIMITS') return statusOf[standing];
    if (!this.edgeSeen(runtime.categoryMask, now)) return statusOf.NO_EDGE;
    return statusOf.TRADING;
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

  /** Whether an instrument of the categories in `mask` is open at `time` (cached per minute). */
  private anyMarketOpen(mask: number, time: number): boolean {
    const minute = Math.floor(time / minuteMs);
    for (const category of categories) {
      if ((mask & categoryBit(category)) === 0) continue;
      let cached = this.marketHours.get(category);
      // A broker's hours change with its events: asked every time (a few intervals per symbol).
      if (cached?.minute !== minute || this.deps.marketOpen !== undefined) {
        const open = this.deps.catalogue
          .inCategory(category)
          .some((instrument) => this.marketOpen(instrument, time));
        cached = { minute, open };
        this.marketHours.set(category, cached);
      }
      if (cached.open) return true;
    }
    return false;
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
