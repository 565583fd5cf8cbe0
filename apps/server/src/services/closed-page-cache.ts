import type { TradeRow, TradingData } from '@tradebot/contract';
import { LRUCache } from 'lru-cache';

/** The first page of a user's whole closed history, as get-all-data answers it. */
export interface CachedClosedPage {
  readonly closed: TradeRow[];
  readonly closedPage: TradingData['closedPage'];
}

/**
 * The newest page of each user's closed history, kept in the process that runs the robot: the
 * only place where operations close (decision 045). `stored` is told once an operation's
 * closure is written to the database; it drops the user's page, and a read that started before
 * does not store what it read. Other pages and periods (which move with the clock) are read
 * from the database each time.
 */
export class ClosedPageCache {
  /** The users read least recently go first (lru-cache, decision 090). */
  private readonly pages: LRUCache<string, { limit: number; page: CachedClosedPage }>;
  /** Per user, moves on each closure stored; kept while the process runs (a number per user). */
  private readonly closures = new Map<string, number>();

  constructor(maxUsers: number) {
    this.pages = new LRUCache({ max: maxUsers });
  }

  async firstPage(
    userId: string,
    limit: number,
    load: () => Promise<CachedClosedPage>,
  ): Promise<CachedClosedPage> {
    const cached = this.pages.get(userId);
    if (cached?.limit === limit) return cached.page;
    const closures = this.closures.get(userId) ?? 0;
    const page = await load();
    if (closures === (this.closures.get(userId) ?? 0)) {
      this.pages.set(userId, { limit, page });
    }
    return page;
  }

  /** An operation of the user closed, and its closure is in the database now. */
  stored(userId: string): void {
    this.closures.set(userId, (this.closures.get(userId) ?? 0) + 1);
    this.pages.delete(userId);
  }
}
