import type { InstrumentCatalogue } from '../../instruments/catalogue';
import type { Instrument } from '../../instruments/instrument';
import { isMarketOpen } from '../../instruments/trading-hours';
import type { Tick, Unsubscribe } from '../../market-data/tick';
import { dollarsToCents, dollarsToCentsRoundedUp, type Cents } from '../../money/minor-units';
import type {
  AccountFigures,
  AccountState,
  BrokerAdapter,
  CloseReason,
  ExecutionReport,
  OpenPositionView,
  OrderFilledReport,
  OrderQueryResult,
  OrderRejectedReport,
  OrderRequest,
  PositionClosedReport,
  Side,
} from '../broker-adapter';
import { CurrencyConverter } from '../../money/currency-converter';
import { backoffDelay } from '../../time/backoff';
import type { Clock } from '../../time/clock';
import type { PlatformEntry, PlatformJournal } from './platform-journal';

/**
 * When the paper broker executes a submitted order. `immediate` (the default) fills inside
 * `submitOrder`, which keeps tests and simulations deterministic step by step. A deferring
 * scheduler (setImmediate) models a networked broker: the call returns at once and the fill
 * arrives on a later turn of the event loop.
 */
export interface ExecutionScheduler {
  defer(task: () => void): void;
}

export const immediateExecution: ExecutionScheduler = {
  defer: (task) => {
    task();
  },
};

/** ESMA retail margin close-out: positions close when equity falls to 50% of used margin. */
export const marginCloseOutLevel = 0.5;

interface PaperPosition {
  readonly positionId: string;
  readonly clientOrderId: string;
  /** Its account, held directly: settling a tick visits every position of the instrument. */
  readonly account: PaperAccount;
  readonly instrument: Instrument;
  readonly side: Side;
  readonly units: number;
  readonly openPrice: number;
  readonly takeProfit: number;
  readonly stopLoss: number;
  readonly marginCents: Cents;
  /** Unrealised profit at the last tick of the instrument (see `markToMarket`). */
  markCents: Cents;
}

/**
 * An account at the paper broker: private, mutated in place by every fill, close and mark.
 * `account` and `accountFigures` hand out copies of it, never the record (decision 099).
 */
class PaperAccount {
  depositsCents: Cents = 0;
  realisedProfitCents: Cents = 0;
  balanceCents: Cents = 0;
  usedMarginCents: Cents = 0;
  /** Sum of the open positions' marks, so equity costs O(1) on the risk gate's hot path. */
  unrealisedCents: Cents = 0;
  readonly positions = new Map<string, PaperPosition>();

  constructor(readonly accountId: string) {}

  get equityCents(): Cents {
    return this.balanceCents + this.unrealisedCents;
  }

  get freeMarginCents(): Cents {
    return this.equityCents - this.usedMarginCents;
  }
}

/** An order's outcome, and its position's closure once closed. Plain data. */
export interface PaperOrderRecord {
  readonly outcome: OrderFilledReport | OrderRejectedReport;
  readonly closed: PositionClosedReport | undefined;
}

interface OrderRecord {
  outcome: OrderFilledReport | OrderRejectedReport;
  closed: PositionClosedReport | undefined;
}

/** One account's ledger at the paper broker; balance = deposits + realised profit, exactly. */
export interface PaperAccountState {
  readonly accountId: string;
  readonly depositsCents: Cents;
  readonly realisedProfitCents: Cents;
  readonly balanceCents: Cents;
}

/**
 * Serializable state of the paper broker: what a database rebuilds from the platform's journal
 * (see `foldPlatformEntries`). Open positions are the filled orders not yet closed. Position
 * numbers continue after the highest one among the orders unless `nextPositionNumber` says more.
 */
export interface PaperBrokerState {
  readonly nextPositionNumber?: number;
  readonly accounts: readonly PaperAccountState[];
  readonly orders: readonly PaperOrderRecord[];
  readonly lastTicks: readonly Tick[];
}

/**
 * Settled orders (rejected, or filled and closed) the paper broker keeps for `queryOrder` and for
 * an idempotent resend, the most recent first; older ones are forgotten, as a real broker keeps
 * that history on its own servers, not in our heap (decision 099). Reconciliation asks only about
 * what settled while the engine was not listening: at most the reports in flight at a crash, a
 * wave of one order per account. Twice the 10,000 accounts of the benchmark covers that with
 * room to spare, in a few megabytes. Filled orders whose position is open are always kept.
 */
export const settledOrdersKept = 20_000;

export interface PaperBrokerOptions {
  /** When orders execute and reports go out; at once by default. */
  readonly scheduler?: ExecutionScheduler;
  /**
   * The platform's durable ledger. With it, every state change is written (group commit, one
   * write at a time) and a report goes out only once the write holding its entry has landed.
   */
  readonly journal?: PlatformJournal;
  /** First wait before a failed journal write is retried; it doubles per failure, up to 2 s. */
  readonly journalRetryMs?: number;
  /** Time of account openings and deposits; the latest tick's time by default. */
  readonly clock?: Clock;
}

/** One journal write: its entries, and what waits for them to be durable. */
interface JournalBatch {
  entries: PlatformEntry[];
  reports: ExecutionReport[];
  waiters: (() => void)[];
}

const maxJournalRetryMs = 2_000;

/**
 * The built-in trading platform (ARCHITECTURE.md, item 4): demo accounts in USD, market orders
 * at the touch, TP and SL held at the broker, ESMA margin close-out and negative-balance
 * protection. Money is in integer cents; the ledger identity
 * balance = deposits + realised profit holds exactly (decision 022).
 */
export class PaperBroker implements BrokerAdapter {
  private readonly accounts = new Map<string, PaperAccount>();
  private readonly positionsBySymbol = new Map<string, Set<PaperPosition>>();
  /** Open orders and the last `settledOrdersKept` settled ones, by client order id. */
  private readonly orders = new Map<string, OrderRecord>();
  /** Client order ids of the settled orders kept, oldest first from `settledHead`. */
  private settled: string[] = [];
  private settledHead = 0;
  private readonly lastTicks = new Map<string, Tick>();
  private readonly openAt = new Map<string, { time: number; open: boolean }>();
  private readonly converter: CurrencyConverter;
  private listeners: ((report: ExecutionReport) => void)[] = [];
  private nextPositionNumber = 1;
  private queued: OrderRequest[] = [];
  private outbox: ExecutionReport[] = [];

  private readonly scheduler: ExecutionScheduler;
  private readonly journal: PlatformJournal | undefined;
  private readonly journalRetryMs: number;
  private readonly clock: Clock;
  private latestTickTime = 0;
  /** Entries gathered for the next journal write, and the reports and callers waiting on them. */
  private gathered: JournalBatch = { entries: [], reports: [], waiters: [] };
  /** The write in flight, if any: writes go one at a time, in order. */
  private writing: JournalBatch | undefined;
  private writeScheduled = false;
  private failedWrites = 0;

  constructor(
    private readonly catalogue: InstrumentCatalogue,
    options: PaperBrokerOptions = {},
  ) {
    this.scheduler = options.scheduler ?? immediateExecution;
    this.journal = options.journal;
    this.journalRetryMs = options.journalRetryMs ?? 50;
    this.clock = options.clock ?? { now: () => this.latestTickTime };
    this.converter = new CurrencyConverter(catalogue, (symbol) => {
      const tick = this.lastTicks.get(symbol);
      return tick ? (tick.bid + tick.ask) / 2 : undefined;
    });
  }

  /** Opens a demo account with its first deposit; resolves once both are durable. */
  openAccount(accountId: string, depositCents: Cents): Promise<void> {
    if (this.accounts.has(accountId)) throw new Error(`Account ${accountId} exists`);
    checkDeposit(depositCents);
    this.accounts.set(accountId, new PaperAccount(accountId));
    this.record({ kind: 'account-opened', accountId, at: this.clock.now() });
    return this.credit(accountId, depositCents, true);
  }

  /** Adds cash to an account; resolves once the deposit is durable. */
  deposit(accountId: string, cents: Cents): Promise<void> {
    return this.credit(accountId, cents, false);
  }

  private credit(accountId: string, cents: Cents, opening: boolean): Promise<void> {
    checkDeposit(cents);
    const account = this.requireAccount(accountId);
    account.depositsCents += cents;
    account.balanceCents += cents;
    this.record({
      kind: 'deposited',
      accountId,
      cents,
      balanceCents: account.balanceCents,
      at: this.clock.now(),
      ...(opening ? { opening: true as const } : {}),
    });
    return this.durable();
  }

  /** Resolves once every state change so far is in the journal (at once without one). */
  durable(): Promise<void> {
    const batch = this.gathered.entries.length > 0 ? this.gathered : this.writing;
    if (!batch) return Promise.resolve();
    return new Promise((resolve) => {
      batch.waiters.push(resolve);
    });
  }

  onReport(listener: (report: ExecutionReport) => void): Unsubscribe {
    this.listeners = [...this.listeners, listener];
    return () => {
      this.listeners = this.listeners.filter((l) => l !== listener);
    };
  }

  /** Feed subscription: settle TP, SL and margin close-outs at this quote. */
  onTick(tick: Tick): void {
    this.lastTicks.set(tick.symbol, tick);
    if (tick.time > this.latestTickTime) this.latestTickTime = tick.time;
    const positions = this.positionsBySymbol.get(tick.symbol);
    if (!positions || positions.size === 0) return;
    const touched = new Set<PaperAccount>();
    for (const position of [...positions]) {
      const account = position.account;
      touched.add(account);
      const trigger = this.triggeredExit(position, tick);
      if (trigger) this.close(account, position, trigger.price, trigger.reason, tick.time);
      else this.markToMarket(account, position, tick);
    }
    for (const account of touched) this.enforceMarginCloseOut(account, tick.time);
  }

  submitOrder(order: OrderRequest): void {
    this.queued.push(order);
    if (this.queued.length === 1) {
      this.scheduler.defer(() => {
        const orders = this.queued;
        this.queued = [];
        for (const queued of orders) this.executeOnce(queued);
      });
    }
  }

  private executeOnce(order: OrderRequest): void {
    const previous = this.orders.get(order.clientOrderId);
    if (previous) {
      // Idempotent by client order id: a resend gets the original answer, not a second position.
      this.report(previous.outcome);
      return;
    }
    const outcome = this.execute(order);
    this.orders.set(order.clientOrderId, { outcome, closed: undefined });
    if (outcome.kind === 'rejected') this.keepSettled(order.clientOrderId);
    // Without a journal no entry is built: this runs once per order.
    if (this.journal) this.record({ kind: 'order-settled', outcome }, outcome);
    else this.emit(outcome);
  }

  closePosition(accountId: string, positionId: string, reason: CloseReason): void {
    const account = this.accounts.get(accountId);
    const position = account?.positions.get(positionId);
    if (!account || !position) return;
    const tick = this.lastTicks.get(position.instrument.symbol);
    if (!tick) return;
    this.close(account, position, exitPrice(position.side, tick), reason, tick.time);
  }

  account(accountId: string): AccountState | undefined {
    const account = this.accounts.get(accountId);
    if (!account) return undefined;
    return {
      accountId,
      depositsCents: account.depositsCents,
      realisedProfitCents: account.realisedProfitCents,
      balanceCents: account.balanceCents,
      equityCents: account.equityCents,
      usedMarginCents: account.usedMarginCents,
      freeMarginCents: account.freeMarginCents,
      openPositions: account.positions.size,
    };
  }

  /** A copy of the account's three figures: one small object per call (decision 099). */
  accountFigures(accountId: string): AccountFigures | undefined {
    const account = this.accounts.get(accountId);
    if (!account) return undefined;
    const equityCents = account.balanceCents + account.unrealisedCents;
    return {
      equityCents,
      usedMarginCents: account.usedMarginCents,
      freeMarginCents: equityCents - account.usedMarginCents,
    };
  }

  openPositions(accountId: string): readonly OpenPositionView[] {
    const account = this.accounts.get(accountId);
    if (!account) return [];
    return [...account.positions.values()].map((p) => ({
      positionId: p.positionId,
      clientOrderId: p.clientOrderId,
      symbol: p.instrument.symbol,
      side: p.side,
      units: p.units,
      marginCents: p.marginCents,
      unrealisedProfitCents: p.markCents,
    }));
  }

  queryOrder(clientOrderId: string): Promise<OrderQueryResult> {
    const record = this.orders.get(clientOrderId);
    if (!record) return Promise.resolve({ status: 'unknown' });
    if (record.outcome.kind === 'rejected') {
      return Promise.resolve({ status: 'rejected', rejection: record.outcome });
    }
    return Promise.resolve({ status: 'filled', fill: record.outcome, closed: record.closed });
  }

  snapshot(): PaperBrokerState {
    return structuredClone({
      nextPositionNumber: this.nextPositionNumber,
      accounts: [...this.accounts.values()].map((a) => ({
        accountId: a.accountId,
        depositsCents: a.depositsCents,
        realisedProfitCents: a.realisedProfitCents,
        balanceCents: a.balanceCents,
      })),
      orders: [...this.orders.values()],
      lastTicks: [...this.lastTicks.values()],
    });
  }

  /**
   * A broker continuing from persisted state (a snapshot, or `foldPlatformEntries` over a
   * journal), with the same options as a new one.
   */
  static restore(
    catalogue: InstrumentCatalogue,
    state: PaperBrokerState,
    options: PaperBrokerOptions = {},
  ): PaperBroker {
    const broker = new PaperBroker(catalogue, options);
    const copy = structuredClone(state);
    for (const tick of copy.lastTicks) {
      broker.lastTicks.set(tick.symbol, tick);
      if (tick.time > broker.latestTickTime) broker.latestTickTime = tick.time;
    }
    for (const a of copy.accounts) {
      const account = new PaperAccount(a.accountId);
      account.depositsCents = a.depositsCents;
      account.realisedProfitCents = a.realisedProfitCents;
      account.balanceCents = a.balanceCents;
      broker.accounts.set(a.accountId, account);
    }
    let highestPosition = 0;
    for (const record of copy.orders) {
      broker.orders.set(record.outcome.clientOrderId, { ...record });
      const fill = record.outcome;
      if (fill.kind !== 'filled') {
        broker.keepSettled(fill.clientOrderId);
        continue;
      }
      highestPosition = Math.max(highestPosition, positionNumber(fill.positionId));
      if (record.closed) {
        broker.keepSettled(fill.clientOrderId);
        continue;
      }
      const account = broker.requireAccount(fill.accountId);
      broker.addPosition(account, {
        positionId: fill.positionId,
        clientOrderId: fill.clientOrderId,
        account,
        instrument: catalogue.require(fill.symbol),
        side: fill.side,
        units: fill.units,
        openPrice: fill.price,
        takeProfit: fill.takeProfit,
        stopLoss: fill.stopLoss,
        marginCents: fill.marginCents,
        markCents: 0,
      });
    }
    // A position id is never given twice, whatever the state says.
    broker.nextPositionNumber = Math.max(copy.nextPositionNumber ?? 1, highestPosition + 1);
    return broker;
  }

  private execute(order: OrderRequest): OrderFilledReport | OrderRejectedReport {
    const tick = this.lastTicks.get(order.symbol);
    const account = this.accounts.get(order.accountId);
    if (!account) return rejection(order, 'UNKNOWN_ACCOUNT', tick);
    const instrument = this.catalogue.get(order.symbol);
    if (!instrument) return rejection(order, 'UNKNOWN_INSTRUMENT', tick);
    if (!tick) return rejection(order, 'NO_PRICE', tick);
    if (!this.isOpen(instrument, tick.time)) return rejection(order, 'MARKET_CLOSED', tick);
    if (!(order.units > 0) || !Number.isFinite(order.units))
      return rejection(order, 'INVALID_SIZE', tick);
    const closingPrice = exitPrice(order.side, tick);
    const stopsValid =
      order.side === 'buy'
        ? order.takeProfit > closingPrice && order.stopLoss < closingPrice
        : order.takeProfit < closingPrice && order.stopLoss > closingPrice;
    if (!stopsValid) return rejection(order, 'INVALID_STOPS', tick);
    const price = order.side === 'buy' ? tick.ask : tick.bid;
    const marginCents = this.marginCents(instrument, order.units, price);
    if (marginCents > account.freeMarginCents) return rejection(order, 'INSUFFICIENT_MARGIN', tick);

    const position: PaperPosition = {
      positionId: `P${this.nextPositionNumber++}`,
      clientOrderId: order.clientOrderId,
      account,
      instrument,
      side: order.side,
      units: order.units,
      openPrice: price,
      takeProfit: order.takeProfit,
      stopLoss: order.stopLoss,
      marginCents,
      markCents: 0,
    };
    this.addPosition(account, position);
    return {
      kind: 'filled',
      clientOrderId: order.clientOrderId,
      accountId: order.accountId,
      positionId: position.positionId,
      symbol: order.symbol,
      side: order.side,
      units: order.units,
      price,
      bid: tick.bid,
      ask: tick.ask,
      takeProfit: order.takeProfit,
      stopLoss: order.stopLoss,
      marginCents,
      time: tick.time,
    };
  }

  /** Market hours, looked up once per instrument and tick time (many orders share a tick). */
  private isOpen(instrument: Instrument, time: number): boolean {
    const cached = this.openAt.get(instrument.symbol);
    if (cached?.time === time) return cached.open;
    const open = isMarketOpen(instrument.schedule, time);
    this.openAt.set(instrument.symbol, { time, open });
    return open;
  }

  /** margin = notional / leverage, in USD, rounded up to the cent. */
  marginCents(instrument: Instrument, units: number, price: number): Cents {
    const notionalUsd = units * price * this.converter.usdPerUnit(instrument.quoteCurrency);
    return dollarsToCentsRoundedUp(notionalUsd / instrument.leverage);
  }

  usdPerUnit(currency: string): number {
    return this.converter.usdPerUnit(currency);
  }

  private addPosition(account: PaperAccount, position: PaperPosition): void {
    account.positions.set(position.positionId, position);
    account.usedMarginCents += position.marginCents;
    const tick = this.lastTicks.get(position.instrument.symbol);
    if (tick) this.markToMarket(account, position, tick);
    let bySymbol = this.positionsBySymbol.get(position.instrument.symbol);
    if (!bySymbol) {
      bySymbol = new Set();
      this.positionsBySymbol.set(position.instrument.symbol, bySymbol);
    }
    bySymbol.add(position);
  }

  /**
   * TP and SL watch the price the position would close at: the bid for a buy, the ask for a
   * sale. A gap fills at the worse price: a take-profit at its level, a stop at the market.
   */
  private triggeredExit(
    position: PaperPosition,
    tick: Tick,
  ): { price: number; reason: CloseReason } | undefined {
    if (position.side === 'buy') {
      if (tick.bid >= position.takeProfit) return { price: position.takeProfit, reason: 'tp' };
      if (tick.bid <= position.stopLoss) return { price: tick.bid, reason: 'sl' };
    } else {
      if (tick.ask <= position.takeProfit) return { price: position.takeProfit, reason: 'tp' };
      if (tick.ask >= position.stopLoss) return { price: tick.ask, reason: 'sl' };
    }
    return undefined;
  }

  private enforceMarginCloseOut(account: PaperAccount, time: number): void {
    for (;;) {
      if (account.positions.size === 0) return;
      if (account.equityCents >= account.usedMarginCents * marginCloseOutLevel) return;
      // Close the biggest loser first, then look again (ESMA asks for "one or more" closures).
      let worst: PaperPosition | undefined;
      let worstProfit = Infinity;
      for (const position of account.positions.values()) {
        const profit = position.markCents;
        if (profit < worstProfit) {
          worst = position;
          worstProfit = profit;
        }
      }
      if (!worst) return;
      const tick = this.lastTicks.get(worst.instrument.symbol);
      if (!tick) return;
      this.close(account, worst, exitPrice(worst.side, tick), 'closeout', time);
    }
  }

  private close(
    account: PaperAccount,
    position: PaperPosition,
    price: number,
    reason: CloseReason,
    time: number,
  ): void {
    const rawProfit = this.profitCents(position, price);
    // Negative-balance protection: a loss never takes the cash balance below zero.
    const profitCents = Math.max(rawProfit, -account.balanceCents);
    account.balanceCents += profitCents;
    account.realisedProfitCents += profitCents;
    account.usedMarginCents -= position.marginCents;
    account.unrealisedCents -= position.markCents;
    account.positions.delete(position.positionId);
    this.positionsBySymbol.get(position.instrument.symbol)?.delete(position);
    const report: PositionClosedReport = {
      kind: 'position-closed',
      clientOrderId: position.clientOrderId,
      accountId: account.accountId,
      positionId: position.positionId,
      symbol: position.instrument.symbol,
      closePrice: price,
      reason,
      profitCents,
      time,
    };
    const record = this.orders.get(position.clientOrderId);
    if (record) {
      record.closed = report;
      this.keepSettled(position.clientOrderId);
    }
    if (this.journal) {
      this.record({ kind: 'position-closed', report, balanceCents: account.balanceCents }, report);
    } else {
      this.emit(report);
    }
  }

  private profitCents(position: PaperPosition, price: number): Cents {
    const direction = position.side === 'buy' ? 1 : -1;
    const quoteProfit = (price - position.openPrice) * position.units * direction;
    return dollarsToCents(
      quoteProfit * this.converter.usdPerUnit(position.instrument.quoteCurrency),
    );
  }

  /**
   * Marks a position at its instrument's tick. Conversion to USD uses the rate of that moment, so
   * a JPY-quoted position's USD value follows USDJPY only when its own instrument ticks: a lag of
   * one tick interval, accepted so that equity is O(1) for the risk gate.
   */
  private markToMarket(account: PaperAccount, position: PaperPosition, tick: Tick): void {
    const mark = this.profitCents(position, exitPrice(position.side, tick));
    account.unrealisedCents += mark - position.markCents;
    position.markCents = mark;
  }

  /**
   * A settled order joins the kept ones; beyond `settledOrdersKept`, the oldest is forgotten.
   * The queue is an array read from a head index, compacted once half of it is spent.
   */
  private keepSettled(clientOrderId: string): void {
    this.settled.push(clientOrderId);
    if (this.settled.length - this.settledHead <= settledOrdersKept) return;
    const oldest = this.settled[this.settledHead++];
    if (oldest !== undefined) this.orders.delete(oldest);
    if (this.settledHead >= settledOrdersKept) {
      this.settled = this.settled.slice(this.settledHead);
      this.settledHead = 0;
    }
  }

  private requireAccount(accountId: string): PaperAccount {
    const account = this.accounts.get(accountId);
    if (!account) throw new Error(`Unknown account ${accountId}`);
    return account;
  }

  /**
   * A state change: into the journal when there is one, and its report, if any, out once the
   * write holding the entry has landed. Without a journal the report goes out at once.
   */
  private record(entry: PlatformEntry, report?: ExecutionReport): void {
    if (!this.journal) {
      if (report) this.emit(report);
      return;
    }
    this.gathered.entries.push(entry);
    if (report) this.gathered.reports.push(report);
    this.scheduleWrite();
  }

  /** A report of something already recorded: it goes out after every write still pending. */
  private report(report: ExecutionReport): void {
    const batch = this.gathered.entries.length > 0 ? this.gathered : this.writing;
    if (batch) batch.reports.push(report);
    else this.emit(report);
  }

  /**
   * Group commit: the write starts on the next microtask, so the changes of one synchronous step
   * (a tick settling many positions, a batch of orders) share it, and whatever comes while it is
   * in flight waits for the next one.
   */
  private scheduleWrite(): void {
    if (this.writeScheduled || this.writing) return;
    this.writeScheduled = true;
    void Promise.resolve().then(() => {
      this.writeScheduled = false;
      this.write();
    });
  }

  private write(): void {
    const journal = this.journal;
    if (!journal || this.writing || this.gathered.entries.length === 0) return;
    const batch = this.gathered;
    this.gathered = { entries: [], reports: [], waiters: [] };
    this.writing = batch;
    journal.record(batch.entries).then(
      () => {
        this.writing = undefined;
        this.failedWrites = 0;
        for (const report of batch.reports) this.emit(report);
        for (const wake of batch.waiters) wake();
        this.write();
      },
      () => {
        // Nothing is lost or reordered: the batch goes back in front of what gathered meanwhile,
        // and its reports keep waiting. A real broker would stop reporting too.
        this.writing = undefined;
        this.gathered = {
          entries: batch.entries.concat(this.gathered.entries),
          reports: batch.reports.concat(this.gathered.reports),
          waiters: batch.waiters.concat(this.gathered.waiters),
        };
        this.failedWrites++;
        const delay = backoffDelay(this.failedWrites - 1, {
          firstMs: this.journalRetryMs,
          capMs: maxJournalRetryMs,
        });
        this.writeScheduled = true;
        setTimeout(() => {
          this.writeScheduled = false;
          this.write();
        }, delay);
      },
    );
  }

  /** Reports go out through the scheduler too: at once by default, later when deferred. */
  private emit(report: ExecutionReport): void {
    this.outbox.push(report);
    if (this.outbox.length > 1) return; // a delivery is already scheduled
    this.scheduler.defer(() => {
      // An array iterator also visits reports pushed while delivering (nested closes).
      for (const next of this.outbox) for (const listener of this.listeners) listener(next);
      this.outbox = [];
    });
  }
}

function checkDeposit(cents: Cents): void {
  if (!Number.isInteger(cents) || cents <= 0) throw new Error('Deposits are positive cents');
}

/** `P17` -> 17; 0 for an id this broker did not give. */
function positionNumber(positionId: string): number {
  const match = /^P(\d+)$/.exec(positionId);
  return match ? Number(match[1]) : 0;
}

function rejection(
  order: OrderRequest,
  reason: OrderRejectedReport['reason'],
  tick: Tick | undefined,
): OrderRejectedReport {
  return {
    kind: 'rejected',
    clientOrderId: order.clientOrderId,
    accountId: order.accountId,
    reason,
    time: tick?.time ?? 0,
  };
}

/** The price a position closes at: the bid for a buy, the ask for a sale. */
export function exitPrice(side: Side, tick: Pick<Tick, 'bid' | 'ask'>): number {
  return side === 'buy' ? tick.bid : tick.ask;
}
