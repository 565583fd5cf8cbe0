import type {
  AccountState,
  BrokerAdapter,
  ExecutionReport,
  OrderFilledReport,
  OrderRejectedReport,
  PositionClosedReport,
} from '../broker/broker-adapter';
import { categories, type Category, type RobotIdleReason } from '@tradebot/contract';
import type { EventSink } from '../events/engine-events';
import type { ExecutionStore } from '../execution/execution-store';
import {
  decidedIntent,
  orderRequestOf,
  type OrderIntent,
  type SignalDecision,
  type TradeRecord,
} from '../execution/trade-record';
import type { InstrumentCatalogue } from '../instruments/catalogue';
import type { Instrument } from '../instruments/instrument';
import { isMarketOpen } from '../instruments/trading-hours';
import type { MarketDataFeed } from '../market-data/market-data-feed';
import type { Tick, Unsubscribe } from '../market-data/tick';
import { CurrencyConverter } from '../money/currency-converter';
import { dollarsToCentsRoundedUp, type Cents } from '../money/minor-units';
import {
  categoryBit,
  dailyLossLimitReached,
  denialReasons,
  exposureCapReached,
  precheckAccount,
  riskSettingsOf,
  sizeOrder,
  type AccountRiskSettings,
  type DenialReason,
  type SignalRiskContext,
  type TradingState,
} from '../risk/risk-gate';
import type { RiskProfile } from '../risk/risk-profile';
import type { AccountSettingsSource, RobotSettings } from '../settings/robot-settings';
import type { Signal, Strategy } from '../strategy/strategy';
import type { Clock } from '../time/clock';
import { BusyTable } from './busy-table';
import { PendingIntents } from './pending-intents';
import { SubscriptionIndex } from './subscription-index';

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
}

/**
 * What the engine keeps per account. Everything the risk gate reads per evaluation is a flat
 * field here or in the broker's account figures, read per evaluation and never kept
 * (decisions 025, 041).
 */
interface AccountRuntime extends AccountRiskSettings {
  readonly accountId: string;
  /** Column index in the busy table. */
  readonly slot: number;
  botOn: boolean;
  categoryMask: number;
  profile: RiskProfile;
  /** This account's list in the engine's pending intents. */
  readonly pending: OrderIntent[];
  reservedMarginCents: Cents;
  dayNumber: number;
  dayStartEquityCents: Cents;
}

const dayMs = 86_400_000;
const minuteMs = 60_000;

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
  TRADING: { idleReason: null },
};

/** What every account's evaluation of one tick shares, the risk gate's context included. */
interface TickContext extends SignalRiskContext {
  readonly tick: Tick;
  readonly day: number;
  /** `/symbol/time`, the shared tail of this tick's client order ids. */
  readonly orderIdSuffix: string;
  /** What every order of this tick shares. */
  readonly decision: SignalDecision;
  /** Tallies for the tick's SignalEvaluated event. */
  routed: number;
  ordered: number;
  readonly denials: Record<DenialReason, number>;
}

/**
 * The kernel: the same code runs paper trading, simulations and, with another BrokerAdapter,
 * live trading. Flow per tick (ARCHITECTURE.md, "A trade, end to end"): strategy -> risk gate
 * per subscribed account -> intents persisted with deterministic client order ids -> broker.
 * Broker reports are applied once each, however often they arrive.
 */
export class TradingEngine {
  private state: TradingState = 'ACTIVE';
  private readonly accounts = new Map<string, AccountRuntime>();
  private readonly index = new SubscriptionIndex<AccountRuntime>();
  private readonly busy = new BusyTable();
  /** Accounts removed whose open operations must count again if they come back. */
  private readonly removedAccounts = new Set<string>();
  /**
   * Pending intents only: once settled, an intent lives in the store, and a late duplicate of
   * its report finds nothing here and is ignored. Open trades likewise.
   */
  private readonly pending = new PendingIntents();
  private readonly trades = new Map<string, TradeRecord>();
  /** Latest tick time per instrument: an older or repeated tick is ignored. */
  private readonly lastTickTime = new Map<string, number>();
  /** Close reports that arrived before their fill (possible with an asynchronous broker). */
  private readonly earlyCloses = new Map<string, PositionClosedReport>();
  /** Orders and store writes started and not yet settled (see `track`). */
  private inflight = 0;
  private idleWaiters: (() => void)[] = [];
  private readonly converter: CurrencyConverter;
  private readonly minimumEdge: number;
  private readonly publishDenials: boolean;
  private unsubscribes: Unsubscribe[] = [];
  private tickSequence = 0;
  private readonly startedAt: number;
  private readonly latestTick = new Map<string, number>();
  private readonly fanOutBatch: number;
  /** Per category: whether any of its markets is open, as of a minute (see accountStatus). */
  private readonly marketHours = new Map<Category, { minute: number; open: boolean }>();

  private constructor(private readonly deps: TradingEngineDependencies) {
    this.minimumEdge = deps.minimumEdge ?? 0;
    this.publishDenials = deps.publishDenials ?? false;
    this.fanOutBatch = deps.fanOutBatch ?? 256;
    this.startedAt = deps.clock.now();
    this.converter = new CurrencyConverter(deps.catalogue, (symbol) => {
      const tick = deps.feed.lastTick(symbol);
      return tick ? (tick.bid + tick.ask) / 2 : undefined;
    });
  }

  /**
   * Loads the accounts, subscribes to broker reports, reconciles what the store says with what
   * the broker did while the engine was down, and only then starts taking ticks.
   */
  static async start(deps: TradingEngineDependencies): Promise<TradingEngine> {
    const engine = new TradingEngine(deps);
    for (const { accountId, settings } of await deps.settings.loadAll()) {
      engine.applySettings(accountId, settings, { publish: false });
    }
    engine.unsubscribes.push(
      deps.broker.onReport((report) => {
        engine.onReport(report);
      }),
    );
    await engine.restoreDayStarts();
    await engine.reconcile();
    engine.unsubscribes.push(
      deps.feed.subscribe((tick) => {
        engine.track(engine.onTick(tick));
      }),
    );
    return engine;
  }

  get tradingState(): TradingState {
    return this.state;
  }

  /** Stops listening; in-flight work can still be awaited with `idle`. */
  stop(): void {
    for (const unsubscribe of this.unsubscribes) unsubscribe();
    this.unsubscribes = [];
  }

  /** Resolves when every order and store write started so far has completed. */
  async idle(): Promise<void> {
    while (this.inflight > 0) {
      await new Promise<void>((resolve) => {
        this.idleWaiters.push(resolve);
      });
    }
  }

  applySettings(accountId: string, settings: RobotSettings, options = { publish: true }): void {
    const { botOn, categoryMask, profile } = riskSettingsOf(settings);
    let runtime = this.accounts.get(accountId);
    if (!runtime) {
      runtime = {
        accountId,
        slot: this.busy.allocateSlot(),
        botOn,
        categoryMask,
        profile,
        pending: this.pending.listOf(accountId),
        reservedMarginCents: 0,
        dayNumber: -1,
        dayStartEquityCents: 0,
      };
      this.accounts.set(accountId, runtime);
      if (this.removedAccounts.delete(accountId)) this.adoptOpenOperations(runtime);
    }
    runtime.botOn = botOn;
    runtime.categoryMask = categoryMask;
    runtime.profile = profile;
    this.index.update(runtime, settings);
    if (options.publish) {
      this.deps.events.publish({ type: 'SettingsApplied', accountId, at: this.deps.clock.now() });
    }
  }

  /**
   * An account added back after `removeAccount` finds its operations still open: they count
   * again for its exposure and its one-per-instrument rule.
   */
  private adoptOpenOperations(runtime: AccountRuntime): void {
    for (const trade of this.trades.values()) {
      if (trade.accountId === runtime.accountId) this.busy.increment(trade.symbol, runtime.slot);
    }
    for (const intent of runtime.pending) this.reserve(runtime, intent);
  }

  /** Stops routing ticks to an account (unlinked, deleted). Its open positions stay at the broker. */
  removeAccount(accountId: string): void {
    const runtime = this.accounts.get(accountId);
    if (!runtime) return;
    this.index.remove(accountId);
    this.accounts.delete(accountId);
    this.busy.releaseSlot(runtime.slot);
    this.removedAccounts.add(accountId);
  }

  /** Kill switch: no new orders, and every open position of every account is closed. */
  halt(reason: string): void {
    this.state = 'HALTED';
    this.deps.events.publish({ type: 'TradingHalted', reason, at: this.deps.clock.now() });
    for (const accountId of this.accounts.keys()) this.closeAllPositions(accountId);
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
    const runtime = this.accounts.get(accountId);
    if (!runtime) return statusOf.ROBOT_OFF;
    if (this.state === 'HALTED') return statusOf.TRADING_HALTED;
    if (!runtime.botOn) return statusOf.ROBOT_OFF;
    if (runtime.categoryMask === 0) return statusOf.NO_CATEGORY_ENABLED;
    const now = this.deps.clock.now();
    if (!this.anyMarketOpen(runtime.categoryMask, now)) return statusOf.MARKET_CLOSED;
    const figures = this.deps.broker.accountFigures(accountId);
    if (!figures) return statusOf.TRADING;
    if (
      runtime.dayNumber === Math.floor(now / dayMs) &&
      dailyLossLimitReached(runtime.profile, figures.equityCents, runtime.dayStartEquityCents)
    ) {
      return statusOf.DAILY_LOSS_LIMIT;
    }
    if (exposureCapReached(runtime.profile, figures, runtime.reservedMarginCents)) {
      return statusOf.EXPOSURE_CAP_REACHED;
    }
    return statusOf.TRADING;
  }

  /** Whether an instrument of the categories in `mask` is open at `time` (cached per minute). */
  private anyMarketOpen(mask: number, time: number): boolean {
    const minute = Math.floor(time / minuteMs);
    for (const category of categories) {
      if ((mask & categoryBit(category)) === 0) continue;
      let cached = this.marketHours.get(category);
      if (cached?.minute !== minute) {
        const open = this.deps.catalogue
          .inCategory(category)
          .some((instrument) => isMarketOpen(instrument.schedule, time));
        cached = { minute, open };
        this.marketHours.set(category, cached);
      }
      if (cached.open) return true;
    }
    return false;
  }

  resume(): void {
    if (this.state === 'ACTIVE') return;
    this.state = 'ACTIVE';
    this.deps.events.publish({ type: 'TradingResumed', at: this.deps.clock.now() });
  }

  account(accountId: string): AccountState | undefined {
    return this.deps.broker.account(accountId);
  }

  openTrades(accountId?: string): TradeRecord[] {
    const all = [...this.trades.values()];
    return accountId === undefined ? all : all.filter((t) => t.accountId === accountId);
  }

  subscriberCount(instrument: Instrument): number {
    return this.index.count(instrument.category);
  }

  async onTick(tick: Tick): Promise<void> {
    const instrument = this.deps.catalogue.get(tick.symbol);
    if (!instrument) return;
    // Ticks move forward: a repeated or late tick would repeat decisions already taken (and
    // their client order ids), so it is dropped. After a restart, ticks older than the start are.
    const last = this.lastTickTime.get(tick.symbol) ?? this.startedAt;
    if (tick.time < last || (tick.time === last && this.lastTickTime.has(tick.symbol))) return;
    this.lastTickTime.set(tick.symbol, tick.time);
    // The model learns from every tick, whether or not anyone trades the instrument.
    const signal = this.deps.strategy.onTick(tick, instrument);
    if (!signal || this.state === 'HALTED') return;
    const sequence = ++this.tickSequence;
    this.latestTick.set(instrument.symbol, sequence);
    const context = this.tickContext(tick, instrument, signal);
    // Orders of the first accounts need not wait for the last ones: every `fanOutBatch`
    // accounts, the orders decided so far are persisted and then sent. One write at a time
    // (group commit): while it is in flight, decisions gather for the next one, so a store that
    // answers at once writes every batch, and a slow one (a database round trip) writes a whole
    // wave in two or three.
    let batch: OrderIntent[] = [];
    let writing: Promise<void> | undefined;
    const landed = () => {
      writing = undefined;
    };
    let busy = this.busy.column(instrument.symbol);
    for (const runtime of this.index.subscribers(instrument.category)) {
      const intent = this.evaluate(runtime, context, busy);
      if (intent) batch.push(intent);
      if (++context.routed % this.fanOutBatch !== 0) continue;
      if (batch.length > 0 && writing === undefined) {
        writing = this.persistThenSend(batch, landed);
        batch = [];
      }
      // A write that has landed sends its orders now, before the fan-out goes on.
      await Promise.resolve();
      // A newer tick of the same instrument supersedes the rest of this fan-out.
      if (this.latestTick.get(instrument.symbol) !== sequence) break;
      // Accounts added meanwhile may have grown the table.
      busy = this.busy.column(instrument.symbol);
    }
    if (writing) await writing;
    if (batch.length > 0) await this.persistThenSend(batch, landed);
    this.deps.events.publish({
      type: 'SignalEvaluated',
      symbol: instrument.symbol,
      category: instrument.category,
      side: signal.side,
      probability: signal.probability,
      breakEvenProbability: signal.geometry.breakEvenProbability,
      routed: context.routed,
      ordered: context.ordered,
      denials: context.denials,
      at: tick.time,
    });
  }

  /** Sends the batch once the store has it; `then` runs as soon as the write lands. */
  private persistThenSend(batch: readonly OrderIntent[], landed: () => void): Promise<void> {
    return this.deps.store.saveIntents(batch).then(() => {
      landed();
      for (const intent of batch) this.send(intent);
    });
  }

  private tickContext(tick: Tick, instrument: Instrument, signal: Signal): TickContext {
    const entryPrice = signal.geometry.entryPrice;
    const usdPerUnit = this.converter.usdPerUnit(instrument.quoteCurrency);
    return {
      tick,
      instrument,
      signal,
      minimumEdge: this.minimumEdge,
      marketOpen: isMarketOpen(instrument.schedule, tick.time),
      categoryBit: categoryBit(instrument.category),
      orderIdSuffix: `/${instrument.symbol}/${tick.time}`,
      decision: {
        symbol: instrument.symbol,
        category: instrument.category,
        side: signal.side,
        takeProfit: signal.geometry.takeProfit,
        stopLoss: signal.geometry.stopLoss,
        decidedAt: tick.time,
        decisionBid: tick.bid,
        decisionAsk: tick.ask,
        probability: signal.probability,
        breakEvenProbability: signal.geometry.breakEvenProbability,
      },
      routed: 0,
      ordered: 0,
      denials: noDenials(),
      day: Math.floor(tick.time / dayMs),
      marginPerUnitCents: (entryPrice * usdPerUnit * 100) / instrument.leverage,
      profitPerUnitCents: signal.geometry.gain * usdPerUnit * 100,
      marginFor: (units: number) =>
        dollarsToCentsRoundedUp((units * entryPrice * usdPerUnit) / instrument.leverage),
    };
  }

  /**
   * The risk gate for one account; an intent, reserved in memory, when the order may go. This
   * runs once per routed account and signal, the engine's hottest path: it reads the account's
   * record, one typed-array cell and the broker's account figures, and allocates only for an
   * order.
   */
  private evaluate(
    runtime: AccountRuntime,
    context: TickContext,
    busy: Uint16Array | undefined,
  ): OrderIntent | undefined {
    const instrumentBusy = busy !== undefined && busy[runtime.slot] !== 0;
    const cheapDenial = precheckAccount(context, this.state, runtime, instrumentBusy);
    if (cheapDenial) {
      this.deny(runtime.accountId, context, cheapDenial);
      return undefined;
    }
    const account = this.deps.broker.accountFigures(runtime.accountId);
    if (!account) return undefined;
    if (runtime.dayNumber !== context.day) {
      // The first evaluation of a UTC day sets the daily loss limit's base, durably: a
      // restart later that day finds it again instead of starting a fresh allowance.
      runtime.dayNumber = context.day;
      runtime.dayStartEquityCents = account.equityCents;
      this.write(
        this.deps.store.recordDayStart(runtime.accountId, context.day, account.equityCents),
      );
    }
    // The precheck above passed with the same inputs, so only the account-figure half remains.
    const decision = sizeOrder(
      context,
      runtime.profile,
      account,
      runtime.reservedMarginCents,
      runtime.dayStartEquityCents,
    );
    if (!decision.allowed) {
      this.deny(runtime.accountId, context, decision.reason);
      return undefined;
    }
    // Deterministic: one decision per account, instrument and tick. It cannot repeat: a pending
    // intent makes the instrument busy for its account (denied above), and `onTick` drops a
    // tick time it has already seen.
    const clientOrderId = runtime.accountId + context.orderIdSuffix;
    const intent = decidedIntent(
      clientOrderId,
      runtime.accountId,
      context.decision,
      decision.units,
      decision.marginCents,
      account.equityCents,
      account.freeMarginCents - runtime.reservedMarginCents,
    );
    this.pending.add(intent, runtime.pending);
    this.reserve(runtime, intent);
    context.ordered++;
    return intent;
  }

  private deny(accountId: string, context: TickContext, reason: DenialReason): void {
    context.denials[reason]++;
    if (!this.publishDenials) return;
    this.deps.events.publish({
      type: 'OrderDenied',
      accountId,
      symbol: context.instrument.symbol,
      category: context.instrument.category,
      reason,
      at: context.tick.time,
    });
  }

  private send(intent: OrderIntent): void {
    if (!this.pending.has(intent)) return; // settled while its intent was being persisted
    if (this.state === 'HALTED') {
      // The kill switch came between persisting and sending: the order is never sent.
      this.expire(intent);
      return;
    }
    this.deps.events.publish({
      type: 'OrderSubmitted',
      accountId: intent.accountId,
      clientOrderId: intent.clientOrderId,
      symbol: intent.symbol,
      side: intent.side,
      units: intent.units,
      at: intent.decidedAt,
    });
    // Built at send time: the broker gets the seven fields of an order, as plain data.
    this.deps.broker.submitOrder(orderRequestOf(intent));
  }

  /** Applies a broker report once, whatever its delivery count or order. */
  onReport(report: ExecutionReport): void {
    switch (report.kind) {
      case 'filled':
        this.applyFill(report);
        return;
      case 'rejected':
        this.applyRejection(report);
        return;
      case 'position-closed':
        this.applyClose(report);
        return;
    }
  }

  private applyFill(fill: OrderFilledReport): void {
    const intent = this.pending.find(fill.accountId, fill.clientOrderId);
    if (!intent) return; // not ours, or already applied
    const runtime = this.accounts.get(intent.accountId);
    this.pending.remove(intent);
    if (runtime) runtime.reservedMarginCents -= intent.estimatedMarginCents;
    const account = this.deps.broker.accountFigures(intent.accountId);
    const trade: TradeRecord = {
      positionId: fill.positionId,
      clientOrderId: fill.clientOrderId,
      accountId: fill.accountId,
      symbol: fill.symbol,
      category: intent.category,
      side: fill.side,
      units: fill.units,
      openedAt: fill.time,
      entryBid: fill.bid,
      entryAsk: fill.ask,
      entryPrice: fill.price,
      pipSize: this.deps.catalogue.require(fill.symbol).pipSize,
      takeProfit: fill.takeProfit,
      stopLoss: fill.stopLoss,
      probability: intent.probability,
      breakEvenProbability: intent.breakEvenProbability,
      marginCents: fill.marginCents,
      equityAtEntryCents: intent.equityAtEntryCents,
      freeMarginAtEntryCents: intent.freeMarginAtEntryCents,
      // Measured after the fill: the broker's used margin plus this account's other pending orders.
      usedMarginAfterEntryCents:
        (account?.usedMarginCents ?? fill.marginCents) + (runtime?.reservedMarginCents ?? 0),
      closedAt: null,
      closePrice: null,
      closeReason: 'open',
      profitCents: null,
    };
    this.trades.set(trade.positionId, trade);
    this.write(this.deps.store.recordFill(trade));
    this.deps.events.publish({
      type: 'OrderFilled',
      accountId: fill.accountId,
      clientOrderId: fill.clientOrderId,
      positionId: fill.positionId,
      price: fill.price,
      at: fill.time,
    });
    this.deps.events.publish({ type: 'PositionOpened', trade, at: fill.time });
    const early = this.earlyCloses.get(fill.positionId);
    if (early) {
      this.earlyCloses.delete(fill.positionId);
      this.applyClose(early);
    }
  }

  private applyRejection(rejection: OrderRejectedReport): void {
    const intent = this.pending.find(rejection.accountId, rejection.clientOrderId);
    if (!intent) return;
    this.pending.remove(intent);
    this.release(intent);
    this.write(
      this.deps.store.updateIntentStatus(intent.clientOrderId, 'rejected', rejection.reason),
    );
    this.deps.events.publish({
      type: 'OrderRejected',
      accountId: rejection.accountId,
      clientOrderId: rejection.clientOrderId,
      reason: rejection.reason,
      at: rejection.time,
    });
  }

  private applyClose(report: PositionClosedReport): void {
    const trade = this.trades.get(report.positionId);
    if (!trade) {
      if (this.pending.find(report.accountId, report.clientOrderId)) {
        this.earlyCloses.set(report.positionId, report);
      }
      return;
    }
    this.trades.delete(report.positionId);
    const runtime = this.accounts.get(trade.accountId);
    if (runtime) this.busy.decrement(trade.symbol, runtime.slot);
    const closure = {
      closedAt: report.time,
      closePrice: report.closePrice,
      closeReason: report.reason,
      profitCents: report.profitCents,
    };
    this.write(this.deps.store.closeTrade(trade.positionId, closure));
    this.deps.events.publish({
      type: 'PositionClosed',
      trade: { ...trade, ...closure },
      reason: report.reason,
      at: report.time,
    });
  }

  /** Today's loss-limit bases, as recorded before a restart (see `evaluate`). */
  private async restoreDayStarts(): Promise<void> {
    const day = Math.floor(this.deps.clock.now() / dayMs);
    for (const [accountId, equityCents] of await this.deps.store.dayStarts(day)) {
      const runtime = this.accounts.get(accountId);
      if (!runtime) continue;
      runtime.dayNumber = day;
      runtime.dayStartEquityCents = equityCents;
    }
  }

  /**
   * Start-up reconciliation (decision 023): every intent still pending is asked about at the
   * broker. Filled ones become trades (and closures, if the broker closed them meanwhile),
   * rejected ones are settled, and ones the broker never saw expire rather than being sent
   * late at a price nobody decided on. Open trades are checked for closes missed while down.
   */
  private async reconcile(): Promise<void> {
    const [pending, open] = await Promise.all([
      this.deps.store.pendingIntents(),
      this.deps.store.openTrades(),
    ]);
    for (const trade of open) {
      this.trades.set(trade.positionId, trade);
      const runtime = this.accounts.get(trade.accountId);
      if (runtime) this.busy.increment(trade.symbol, runtime.slot);
    }
    for (const intent of pending) {
      this.pending.add(intent);
      const runtime = this.accounts.get(intent.accountId);
      if (runtime) this.reserve(runtime, intent);
    }
    for (const intent of pending) {
      const result = await this.deps.broker.queryOrder(intent.clientOrderId);
      switch (result.status) {
        case 'unknown':
          this.expire(intent);
          break;
        case 'rejected':
          this.applyRejection(result.rejection);
          break;
        case 'filled':
          this.applyFill(result.fill);
          if (result.closed) this.applyClose(result.closed);
          break;
      }
    }
    for (const trade of open) {
      const result = await this.deps.broker.queryOrder(trade.clientOrderId);
      if (result.status === 'filled' && result.closed) this.applyClose(result.closed);
    }
    await this.idle();
  }

  private expire(intent: OrderIntent): void {
    this.pending.remove(intent);
    this.release(intent);
    this.write(this.deps.store.updateIntentStatus(intent.clientOrderId, 'expired'));
    this.deps.events.publish({
      type: 'OrderExpired',
      accountId: intent.accountId,
      clientOrderId: intent.clientOrderId,
      at: this.deps.clock.now(),
    });
  }

  private reserve(runtime: AccountRuntime, intent: OrderIntent): void {
    runtime.reservedMarginCents += intent.estimatedMarginCents;
    this.busy.increment(intent.symbol, runtime.slot);
  }

  private release(intent: OrderIntent): void {
    const runtime = this.accounts.get(intent.accountId);
    if (!runtime) return;
    runtime.reservedMarginCents -= intent.estimatedMarginCents;
    this.busy.decrement(intent.symbol, runtime.slot);
  }

  private write(promise: Promise<void>): void {
    this.track(promise);
  }

  /**
   * Keeps a promise for `idle`; a failure halts trading rather than going unnoticed. One fill
   * writes once, so the handlers are shared rather than allocated per promise.
   */
  private track(promise: Promise<unknown>): void {
    this.inflight++;
    void promise.then(this.settledOne, this.failedOne);
  }

  private readonly settledOne = (): void => {
    if (--this.inflight > 0) return;
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const wake of waiters) wake();
  };

  private readonly failedOne = (error: unknown): void => {
    this.settledOne();
    // An engine that cannot record what happened must not keep trading.
    this.state = 'HALTED';
    this.deps.events.publish({
      type: 'TradingHalted',
      reason: `engine failure: ${String(error)}`,
      at: this.deps.clock.now(),
    });
  };
}

/** A fresh tally with every reason at zero (a fixed shape, cheap to increment). */
function noDenials(): Record<DenialReason, number> {
  const tally = {} as Record<DenialReason, number>;
  for (const reason of denialReasons) tally[reason] = 0;
  return tally;
}
