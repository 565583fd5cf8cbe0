import type { Category } from '@tradebot/contract';
import type { OrderIntent, TradeRecord } from '../execution/trade-record';
import type { Cents } from '../money/minor-units';
import { riskSettingsOf, type RiskAccount } from '../risk/risk-gate';
import type { RiskProfile } from '../risk/risk-profile';
import type { RobotSettings } from '../settings/robot-settings';
import { BusyTable } from './busy-table';
import { PendingIntents } from './pending-intents';
import { SubscriptionIndex } from './subscription-index';

/**
 * What the engine keeps per account. Everything the risk gate reads per evaluation is a flat
 * field here or in the broker's account figures, a snapshot read per evaluation (decisions 025,
 * 099).
 */
export interface AccountRuntime extends RiskAccount {
  readonly accountId: string;
  /** Column index in the busy table. */
  readonly slot: number;
  botOn: boolean;
  categoryMask: number;
  profile: RiskProfile;
  /** This account's list in the book's pending intents. */
  readonly pending: OrderIntent[];
  reservedMarginCents: Cents;
  dayNumber: number;
  dayStartEquityCents: Cents;
}

/**
 * The engine's accounts and what they hold: settings reduced for the risk gate, who trades
 * which category, which instruments each has busy (an open trade or a pending order), the
 * margin of pending orders, the pending intents and the open trades. Every count here moves
 * with the state it counts, so a busy cell or a reservation cannot outlive its order.
 */
export class AccountBook {
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

  get(accountId: string): AccountRuntime | undefined {
    return this.accounts.get(accountId);
  }

  accountIds(): IterableIterator<string> {
    return this.accounts.keys();
  }

  /** Adds the account, or updates its settings. */
  apply(accountId: string, settings: RobotSettings): void {
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
  }

  /**
   * An account added back after `remove` finds its operations still open: they count again
   * for its exposure and its one-per-instrument rule.
   */
  private adoptOpenOperations(runtime: AccountRuntime): void {
    for (const trade of this.trades.values()) {
      if (trade.accountId === runtime.accountId) this.busy.increment(trade.symbol, runtime.slot);
    }
    for (const intent of runtime.pending) this.reserve(runtime, intent);
  }

  /** Stops routing to the account; its pending orders and open trades still settle. */
  remove(accountId: string): void {
    const runtime = this.accounts.get(accountId);
    if (!runtime) return;
    this.index.remove(accountId);
    this.accounts.delete(accountId);
    this.busy.releaseSlot(runtime.slot);
    this.removedAccounts.add(accountId);
  }

  subscribers(category: Category): Iterable<AccountRuntime> {
    return this.index.subscribers(category);
  }

  subscriberCount(category: Category): number {
    return this.index.count(category);
  }

  /** The instrument's busy column, indexed by account slot (it grows as accounts are added). */
  busyColumn(symbol: string): Uint16Array | undefined {
    return this.busy.column(symbol);
  }

  /** A new order of a routed account: pending, its margin reserved, its instrument busy. */
  addPending(runtime: AccountRuntime, intent: OrderIntent): void {
    this.pending.add(intent, runtime.pending);
    this.reserve(runtime, intent);
  }

  /** An intent persisted by a previous run and still pending (reconciliation). */
  restorePending(intent: OrderIntent): void {
    this.pending.add(intent);
    const runtime = this.accounts.get(intent.accountId);
    if (runtime) this.reserve(runtime, intent);
  }

  findPending(accountId: string, clientOrderId: string): OrderIntent | undefined {
    return this.pending.find(accountId, clientOrderId);
  }

  isPending(intent: OrderIntent): boolean {
    return this.pending.has(intent);
  }

  /**
   * A pending order filled: its reservation ends, and its instrument stays busy, now for the
   * trade. Returns the account's runtime, if the account is still routed.
   */
  settleFilled(intent: OrderIntent): AccountRuntime | undefined {
    const runtime = this.accounts.get(intent.accountId);
    this.pending.remove(intent);
    if (runtime) runtime.reservedMarginCents -= intent.estimatedMarginCents;
    return runtime;
  }

  /** A pending order rejected or expired: its reservation ends and its instrument is free. */
  settleUnfilled(intent: OrderIntent): void {
    this.pending.remove(intent);
    const runtime = this.accounts.get(intent.accountId);
    if (!runtime) return;
    runtime.reservedMarginCents -= intent.estimatedMarginCents;
    this.busy.decrement(intent.symbol, runtime.slot);
  }

  /** A trade the broker opened (the instrument is already busy from its order). */
  addTrade(trade: TradeRecord): void {
    this.trades.set(trade.positionId, trade);
  }

  /** A trade persisted by a previous run and still open (reconciliation). */
  restoreTrade(trade: TradeRecord): void {
    this.trades.set(trade.positionId, trade);
    const runtime = this.accounts.get(trade.accountId);
    if (runtime) this.busy.increment(trade.symbol, runtime.slot);
  }

  /** Removes and returns an open trade, freeing its instrument; undefined if not open. */
  closeTrade(positionId: string): TradeRecord | undefined {
    const trade = this.trades.get(positionId);
    if (!trade) return undefined;
    this.trades.delete(positionId);
    const runtime = this.accounts.get(trade.accountId);
    if (runtime) this.busy.decrement(trade.symbol, runtime.slot);
    return trade;
  }

  openTrades(accountId?: string): TradeRecord[] {
    const all = [...this.trades.values()];
    return accountId === undefined ? all : all.filter((t) => t.accountId === accountId);
  }

  /** The daily loss limit's base of an account, for `day`. */
  setDayStart(runtime: AccountRuntime, day: number, equityCents: Cents): void {
    runtime.dayNumber = day;
    runtime.dayStartEquityCents = equityCents;
  }

  private reserve(runtime: AccountRuntime, intent: OrderIntent): void {
    runtime.reservedMarginCents += intent.estimatedMarginCents;
    this.busy.increment(intent.symbol, runtime.slot);
  }
}
