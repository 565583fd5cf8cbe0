import { realtimeClosedCount, type RealtimeInfo, type TradeRow } from '@tradebot/contract';
import type { RealtimePublisher } from '../../realtime/realtime-publisher';
import type { TradingService } from '../../services/trading.service';
import type { AccountProjection, RobotEvent } from '../protocol/robot-protocol';
import type { RobotRuntime } from './robot-runtime';

export interface LiveUpdatesOptions {
  readonly onError: (error: unknown, what: string) => void;
}

interface Pending {
  /** The account as the robot's last event of the batch projected it. */
  projection: AccountProjection;
  /** Operations closed since the last update; the database may not have them yet. */
  readonly closed: TradeRow[];
}

/**
 * What reaches a user's browser while the robot trades (spec §4, Real-time updates), through
 * the RealtimePublisher port. It relays the robot's events (decision 070), which carry the
 * account's projection: nothing here asks the robot for anything.
 * - an operation opened or closed: `{account, trades}` (+ `closed` when one closed) at once, the
 *   changes of one turn of the event loop gathered into one update per user;
 * - an order the platform refused: `{rejected}`, at once (decision 101);
 * - equity moving with prices (AccountChanged with operations open): the latest projection of
 *   each account, at each `sweep` (a job of the registry, decision 145), only for users with a
 *   socket listening and only when their equity moved: never one update per tick per account.
 */
export class LiveUpdates {
  private readonly pending = new Map<string, Pending>();
  private flushScheduled = false;
  private readonly lastEquitySent = new Map<string, number>();
  /** The latest AccountChanged projection of each account since the last sweep. */
  private readonly moved = new Map<string, AccountProjection>();
  private unsubscribe: () => void = () => undefined;
  private work: Promise<void> = Promise.resolve();
  private stopped = false;
  /** A sweep still sending: the next one skips its turn rather than queue behind it. */
  private sweeping = false;

  constructor(
    private readonly runtime: RobotRuntime,
    private readonly trading: TradingService,
    private readonly publisher: RealtimePublisher,
    private readonly options: LiveUpdatesOptions,
  ) {}

  start(): void {
    this.unsubscribe = this.runtime.onEvent((event) => {
      this.relay(event);
    });
  }

  /** Stops listening and waits for updates being built. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.unsubscribe();
    await this.work;
  }

  private relay(event: RobotEvent): void {
    switch (event.type) {
      case 'PositionOpened':
        this.changed(event.projection);
        return;
      case 'PositionClosed':
        this.changed(event.projection, event.trade);
        return;
      case 'AccountChanged':
        // Equity moves with prices only while operations are open.
        if (event.projection.trades.length > 0) this.moved.set(event.accountId, event.projection);
        else this.moved.delete(event.accountId);
        return;
      case 'BrokerStatus':
      case 'ModelWarmedUp':
        // The broker's connection or grant changed, or the model finished learning its history
        // (decision 096): the dashboard says it now.
        this.enqueue(() => this.robotStatus(event.accountId));
        return;
      case 'OrderRejected':
        // A refusal goes out as it happens, in turn behind the updates being built.
        this.enqueue(() => {
          if (!this.stopped && this.publisher.hasListeners(event.accountId)) {
            this.publisher.toUser(event.accountId, { rejected: [event.rejection] });
          }
          return Promise.resolve();
        });
        return;
      case 'ClosureStored':
      case 'TradingHalted':
      case 'TradingResumed':
      case 'RobotStopped':
        return;
    }
  }

  private changed(projection: AccountProjection, closed?: TradeRow): void {
    const { accountId } = projection;
    let pending = this.pending.get(accountId);
    if (!pending) {
      pending = { projection, closed: [] };
      this.pending.set(accountId, pending);
    }
    pending.projection = projection;
    if (closed) pending.closed.push(closed);
    this.moved.delete(accountId);
    if (this.flushScheduled) return;
    this.flushScheduled = true;
    setImmediate(() => {
      this.flushScheduled = false;
      this.enqueue(() => this.flush());
    });
  }

  private enqueue(task: () => Promise<void>): void {
    if (this.stopped) return;
    this.work = this.work.then(task).catch((error: unknown) => {
      this.options.onError(error, 'sending a live update');
    });
  }

  private async flush(): Promise<void> {
    const batch = [...this.pending];
    this.pending.clear();
    for (const [accountId, pending] of batch) {
      if (this.stopped) return;
      if (!this.publisher.hasListeners(accountId)) continue;
      const { account, trades, currency } = pending.projection;
      const info: RealtimeInfo = { account, accountCurrency: currency, trades: [...trades] };
      this.lastEquitySent.set(accountId, account.equity);
      if (pending.closed.length > 0) {
        info.closed = await this.closedRows(accountId, pending.closed);
      }
      this.publisher.toUser(accountId, info);
    }
  }

  /** The user's robot status, to a browser listening. */
  private async robotStatus(accountId: string): Promise<void> {
    if (this.stopped || !this.publisher.hasListeners(accountId)) return;
    const robot = await this.trading.robotStatusOf(accountId);
    if (robot) this.publisher.toUser(accountId, { robot });
  }

  /** The newest closed rows: the database's, with the ones just closed in case it lags. */
  private async closedRows(accountId: string, justClosed: TradeRow[]): Promise<TradeRow[]> {
    const stored = await this.trading.newestClosedRows(accountId, realtimeClosedCount);
    const byId = new Map(stored.map((row) => [row.id, row]));
    for (const row of justClosed) byId.set(row.id, row);
    return [...byId.values()]
      .sort(
        (a, b) => (b.CloseTime ?? '').localeCompare(a.CloseTime ?? '') || (a.id < b.id ? 1 : -1),
      )
      .slice(0, realtimeClosedCount);
  }

  /**
   * Equity moving with prices, for users watching: the latest projection, if equity moved. Sent
   * in turn behind the updates being built, so that none of them overtakes a newer one. The
   * robot-runtime capability runs it as a job every few hundred milliseconds; it returns at once,
   * and a sweep whose sends are still queued makes the next one skip its sends.
   */
  sweep(): void {
    if (this.stopped) return;
    // Browsers listening keep their accounts' price moves coming.
    for (const accountId of this.runtime.accountsWithOpenPositions()) {
      if (this.publisher.hasListeners(accountId)) this.runtime.watch(accountId);
    }
    if (this.sweeping || this.moved.size === 0) return;
    const due = [...this.moved.values()];
    this.moved.clear();
    this.sweeping = true;
    this.enqueue(() => {
      try {
        for (const { accountId, account, trades } of due) {
          if (this.stopped) break;
          if (this.moved.has(accountId) || this.pending.has(accountId)) continue;
          if (!this.publisher.hasListeners(accountId)) {
            this.lastEquitySent.delete(accountId);
            continue;
          }
          if (this.lastEquitySent.get(accountId) === account.equity) continue;
          this.lastEquitySent.set(accountId, account.equity);
          this.publisher.toUser(accountId, { account, trades: [...trades] });
        }
      } finally {
        this.sweeping = false;
      }
      return Promise.resolve();
    });
  }
}
