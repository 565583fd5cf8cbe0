import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/database';
import { tradingPlatformLinks, userSettings, type StoredBrokerBacktest } from '../db/schema';

/** A linked cTrader account, as the broker-prices backtest needs it (decision 144). */
/** The stored run, as the service reads and writes it. */
export type { StoredBrokerBacktest };

export interface CTraderLinkForBacktest {
  readonly ctidTraderAccountId: number;
  /** The user's risk level (1 to 5): the backtest trades at the risk the robot would. */
  readonly risk: number;
  readonly backtest: StoredBrokerBacktest | null;
}

/** Where a linked account's broker-prices backtest lives: a JSON column of its link's row. */
export interface BrokerBacktestsStore {
  /** The user's cTrader link, or undefined when the user has none (or another platform's). */
  linkOf(userId: string): Promise<CTraderLinkForBacktest | undefined>;
  /**
   * Writes the run's state on the user's link to that account. `startedAt`: only while the stored
   * run is that one (a newer run, an unlink or a new link wins). False when nothing was written.
   */
  write(
    userId: string,
    ctidTraderAccountId: number,
    backtest: StoredBrokerBacktest,
    startedAt?: string,
  ): Promise<boolean>;
}

export class DrizzleBrokerBacktestsRepository implements BrokerBacktestsStore {
  constructor(private readonly db: Db) {}

  async linkOf(userId: string): Promise<CTraderLinkForBacktest | undefined> {
    const [row] = await this.db
      .select({
        platformAccountId: tradingPlatformLinks.platformAccountId,
        backtest: tradingPlatformLinks.brokerBacktest,
        risk: userSettings.risk,
      })
      .from(tradingPlatformLinks)
      .leftJoin(userSettings, eq(userSettings.userId, tradingPlatformLinks.userId))
      .where(
        and(eq(tradingPlatformLinks.userId, userId), eq(tradingPlatformLinks.platform, 'ctrader')),
      );
    if (row === undefined) return undefined;
    return {
      ctidTraderAccountId: Number(row.platformAccountId),
      risk: row.risk ?? 1,
      backtest: row.backtest ?? null,
    };
  }

  async write(
    userId: string,
    ctidTraderAccountId: number,
    backtest: StoredBrokerBacktest,
    startedAt?: string,
  ): Promise<boolean> {
    const rows = await this.db
      .update(tradingPlatformLinks)
      .set({ brokerBacktest: backtest })
      .where(
        and(
          eq(tradingPlatformLinks.userId, userId),
          eq(tradingPlatformLinks.platform, 'ctrader'),
          eq(tradingPlatformLinks.platformAccountId, String(ctidTraderAccountId)),
          startedAt === undefined
            ? undefined
            : sql`${tradingPlatformLinks.brokerBacktest} ->> 'startedAt' = ${startedAt}`,
        ),
      )
      .returning({ userId: tradingPlatformLinks.userId });
    return rows.length > 0;
  }
}
