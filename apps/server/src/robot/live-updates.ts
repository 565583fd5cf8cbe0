import { realtimeClosedCount, type RealtimeInfo, type TradeRow } from '@tradebot/contract';
import type { TradeRecord } from '@tradebot/robot';
import type { RealtimePublisher } from '../realtime/realtime-publisher';
import type { TradingService } from '../services/trading.service';
import { tradeRowOf } from '../services/trading-rows';
import type { RobotRuntime } from './robot-runtime';

export interface LiveUpdatesOptions {
  /** How often equity moving with prices is sent to a user with open operations. */
  readonly sweepMs: number;
  readonly onError: (error: unknown, what: string) => void;
}

interface Pending {
  /** Operations closed since the last update; the database may not have them yet. */
  readonly closed: TradeRecord[];
  closedChanged: boolean;
}

/**
 * What reaches a user's browser while the robot trades (spec §4, Real-time updates), through
 * the RealtimePublisher port:
 * - an operation opened or closed: `{account, trades}` (+ `closed` when one closed) at once, the
 *   changes of one turn of the event loop gathered into one update per user;
 * - equity moving with prices: a periodic sweep, only for users with open operations and a
 *   socket listening, and only when their equity moved: never one update per tick per account.
 */
export class LiveUpdates {
  private readonly pending = new Map<string, Pending>();
  private flushScheduled = false;
  private readonly lastEquitySent = new Map<string, number>();
  private sweepTimer: NodeJS.Timeout | undefined;
  private unsubscribes: (() => void)[] = [];
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
    const { events } = this.runtime;
    this.unsubscribes = [
      events.on('PositionOpened', (event) => {
        this.changed(event.trade.accountId);
      }),
      events.on('PositionClosed', (event) => {
        this.changed(event.trade.accountId, event.trade);
      }),
    ];
    this.sweepTimer = setInterval(() => {
      this.sweep();
    }, this.options.sweepMs);
  }

  /** Stops listening and waits for updates being built. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.sweepTimer);
    for (const unsubscribe of this.unsubscribes) unsubscribe();
    this.unsubscribes = [];
    await this.work;
  }

  private changed(accountId: string, closed?: TradeRecord): void {
    let pending = this.pending.get(accountId);
    if (!pending) {
      pending = { closed: [], closedChanged: false };
      this.pending.set(accountId, pending);
    }
    if (closed) {
      pending.closed.push(closed);
      pending.closedChanged = true;
    }
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
      const info: RealtimeInfo = { trades: await this.trading.openRows(accountId) };
      const account = await this.trading.account(accountId);
      if (account) {
        info.account = account;
        this.lastEquitySent.set(accountId, account.equity);
      }
      if (pending.closedChanged) info.closed = await this.closedRows(accountId, pending.closed);
      this.publisher.toUser(accountId, info);
    }
  }

  /** The newest closed rows: the database's, with the ones just closed in case it lags. */
  private async closedRows(accountId: string, justClosed: TradeRecord[]): Promise<TradeRow[]> {
    const stored = await this.trading.newestClosedRows(accountId, realtimeClosedCount);
    const byId = new Map(stored.map((row) => [row.id, row]));
    for (const trade of justClosed) {
      byId.set(trade.positionId, tradeRowOf(trade, this.runtime.catalogue));
    }
    return [...byId.values()]
      .sort(
        (a, b) => (b.CloseTime ?? '').localeCompare(a.CloseTime ?? '') || (a.id < b.id ? 1 : -1),
      )
      .slice(0, realtimeClosedCount);
  }

  /** Equity moving with prices, for users watching who have open operations. */
  private sweep(): void {
    if (this.sweeping) return;
    const accounts = new Set(this.runtime.accountsWithOpenPositions());
    const due: string[] = [];
    for (const accountId of accounts) {
      if (this.pending.has(accountId) || !this.publisher.hasListeners(accountId)) continue;
      due.push(accountId);
    }
    for (const accountId of this.lastEquitySent.keys()) {
      if (!accounts.has(accountId)) this.lastEquitySent.delete(accountId);
    }
    if (due.length === 0) return;
    this.sweeping = true;
    this.enqueue(async () => {
      try {
        for (const accountId of due) {
          if (this.stopped) break;
          const account = await this.trading.account(accountId);
          if (!account || this.lastEquitySent.get(accountId) === account.equity) continue;
          this.lastEquitySent.set(accountId, account.equity);
          this.publisher.toUser(accountId, {
            account,
            trades: await this.trading.openRows(accountId),
          });
        }
      } finally {
        this.sweeping = false;
      }
    });
  }
}
