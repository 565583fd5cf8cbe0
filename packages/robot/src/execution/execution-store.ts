import type { CloseReason } from '../broker/broker-adapter';
import type { Cents } from '../money/minor-units';
import { plainIntent, type IntentStatus, type OrderIntent, type TradeRecord } from './trade-record';

export interface TradeClosure {
  readonly closedAt: number;
  readonly closePrice: number;
  readonly closeReason: CloseReason;
  readonly profitCents: Cents;
}

/**
 * Port: durable record of order intents and operations (the server implements it on Postgres or
 * PGlite). Writes for one order arrive in order: intent, then status, then trade, then closure.
 * Inserts are idempotent by key, so replaying a write after a crash is harmless.
 */
export interface ExecutionStore {
  saveIntents(intents: readonly OrderIntent[]): Promise<void>;
  updateIntentStatus(
    clientOrderId: string,
    status: IntentStatus,
    rejectReason?: string,
    /** A real broker's own code for a rejection (decision 101). */
    rejectBrokerCode?: string,
  ): Promise<void>;
  /** One write, one transaction: the intent becomes filled and its trade is recorded. */
  recordFill(trade: TradeRecord): Promise<void>;
  closeTrade(positionId: string, closure: TradeClosure): Promise<void>;
  /**
   * The equity an account started a UTC day with: the base of the daily loss limit, kept so
   * that a restart cannot hand an account a fresh allowance mid-day. The first record for an
   * account and day stands; later ones are ignored.
   */
  recordDayStart(accountId: string, day: number, equityCents: Cents): Promise<void>;
  /** Day-start equity per account recorded for `day` (days since the epoch, UTC). */
  dayStarts(day: number): Promise<ReadonlyMap<string, Cents>>;
  pendingIntents(): Promise<readonly OrderIntent[]>;
  openTrades(): Promise<readonly TradeRecord[]>;
  trades(filter?: { accountId?: string }): Promise<readonly TradeRecord[]>;
}

export interface DayStartRecord {
  readonly accountId: string;
  readonly day: number;
  readonly equityCents: Cents;
}

export interface ExecutionStoreSnapshot {
  readonly intents: readonly OrderIntent[];
  readonly trades: readonly TradeRecord[];
  readonly dayStarts?: readonly DayStartRecord[];
}

/**
 * In-memory adapter for tests, the simulation CLI and the embedded server's first version. Its
 * snapshot stands in for the database in the crash/restart tests.
 */
export class InMemoryExecutionStore implements ExecutionStore {
  private readonly intents = new Map<string, OrderIntent>();
  /**
   * Saved batches not yet in `intents`. Saving appends, as a log would, and the index catches
   * up on the next read: a tick's fan-out then hashes no order id (decision 025).
   */
  private unindexed: (readonly OrderIntent[])[] = [];
  private readonly tradesById = new Map<string, TradeRecord>();
  /** The latest day start per account: older days are of no use to the loss limit. */
  private readonly dayStartByAccount = new Map<string, DayStartRecord>();

  /**
   * @param options.keepHistory false keeps only pending intents and open trades, as a database
   * would keep the rest out of the process heap (the benchmark uses it; history queries then
   * return only what is still live).
   */
  constructor(
    snapshot?: ExecutionStoreSnapshot,
    private readonly options: { keepHistory: boolean } = { keepHistory: true },
  ) {
    if (snapshot) {
      const copy = structuredClone(snapshot);
      for (const intent of copy.intents) this.intents.set(intent.clientOrderId, intent);
      for (const trade of copy.trades) this.tradesById.set(trade.positionId, trade);
      for (const start of copy.dayStarts ?? []) this.dayStartByAccount.set(start.accountId, start);
    }
  }

  saveIntents(intents: readonly OrderIntent[]): Promise<void> {
    this.unindexed.push(intents.slice()); // one copy per batch: the caller may reuse its array
    return Promise.resolve();
  }

  /** Inserts are idempotent by key: the first intent saved under an id stands. */
  private catchUp(): void {
    if (this.unindexed.length === 0) return;
    for (const batch of this.unindexed) {
      for (const intent of batch) {
        if (!this.intents.has(intent.clientOrderId)) this.intents.set(intent.clientOrderId, intent);
      }
    }
    this.unindexed = [];
  }

  updateIntentStatus(
    clientOrderId: string,
    status: IntentStatus,
    rejectReason?: string,
    rejectBrokerCode?: string,
  ): Promise<void> {
    this.catchUp();
    const intent = this.intents.get(clientOrderId);
    if (intent && !this.options.keepHistory && status !== 'pending') {
      this.intents.delete(clientOrderId);
    } else if (intent) {
      this.intents.set(clientOrderId, plainIntent(intent, status, rejectReason, rejectBrokerCode));
    }
    return Promise.resolve();
  }

  recordFill(trade: TradeRecord): Promise<void> {
    this.catchUp();
    const intent = this.intents.get(trade.clientOrderId);
    if (intent && !this.options.keepHistory) this.intents.delete(trade.clientOrderId);
    else if (intent) this.intents.set(trade.clientOrderId, plainIntent(intent, 'filled'));
    if (!this.tradesById.has(trade.positionId)) this.tradesById.set(trade.positionId, trade);
    return Promise.resolve();
  }

  closeTrade(positionId: string, closure: TradeClosure): Promise<void> {
    const trade = this.tradesById.get(positionId);
    if (trade?.closeReason !== 'open') return Promise.resolve();
    if (this.options.keepHistory) this.tradesById.set(positionId, { ...trade, ...closure });
    else this.tradesById.delete(positionId);
    return Promise.resolve();
  }

  recordDayStart(accountId: string, day: number, equityCents: Cents): Promise<void> {
    const current = this.dayStartByAccount.get(accountId);
    if (!current || current.day < day) {
      this.dayStartByAccount.set(accountId, { accountId, day, equityCents });
    }
    return Promise.resolve();
  }

  dayStarts(day: number): Promise<ReadonlyMap<string, Cents>> {
    const starts = new Map<string, Cents>();
    for (const start of this.dayStartByAccount.values()) {
      if (start.day === day) starts.set(start.accountId, start.equityCents);
    }
    return Promise.resolve(starts);
  }

  pendingIntents(): Promise<readonly OrderIntent[]> {
    this.catchUp();
    return Promise.resolve([...this.intents.values()].filter((i) => i.status === 'pending'));
  }

  openTrades(): Promise<readonly TradeRecord[]> {
    return Promise.resolve([...this.tradesById.values()].filter((t) => t.closeReason === 'open'));
  }

  trades(filter: { accountId?: string } = {}): Promise<readonly TradeRecord[]> {
    const all = [...this.tradesById.values()];
    return Promise.resolve(
      filter.accountId === undefined ? all : all.filter((t) => t.accountId === filter.accountId),
    );
  }

  intentList(): readonly OrderIntent[] {
    this.catchUp();
    return [...this.intents.values()];
  }

  snapshot(): ExecutionStoreSnapshot {
    this.catchUp();
    return structuredClone({
      intents: [...this.intents.values()].map((intent) => plainIntent(intent)),
      trades: [...this.tradesById.values()],
      dayStarts: [...this.dayStartByAccount.values()],
    });
  }
}
