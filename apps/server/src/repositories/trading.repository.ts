import type { AccountKind } from '@tradebot/contract';
import type { TradeRecord } from '@tradebot/robot';
import { and, asc, count, desc, eq, gte, ne, sql } from 'drizzle-orm';
import type { Db } from '../db/database';
import { rowsOf } from '../db/migrate';
import {
  operations,
  orderIntents,
  platformAccounts,
  robotLeases,
  tradingPlatformLinks,
  type UntradableSymbols,
} from '../db/schema';
import { tradeOf } from '../db/trade-records';

export type PlatformAccountRow = typeof platformAccounts.$inferSelect;

/** A position in the history, newest first: the last row of a page. */
export interface HistoryCursor {
  readonly closedAt: number;
  readonly positionId: string;
}

/** A refused order in the list, newest first: the last row of a page (decision 101). */
export interface RejectionCursor {
  readonly decidedAt: number;
  readonly clientOrderId: string;
}

/** A refused order as stored on its intent. */
export interface RejectionRow {
  readonly clientOrderId: string;
  readonly decidedAt: number;
  readonly symbol: string;
  readonly category: string;
  readonly side: string;
  readonly units: number;
  readonly reason: string | null;
  readonly brokerCode: string | null;
}

/** One change of the balance: a deposit or a closed operation's profit, in time order. */
export interface BalanceChange {
  readonly at: number;
  readonly cents: number;
}

const isClosed = ne(operations.closeReason, 'open');

/** Where the user's account lives, and its currency (decision 097). */
export interface AccountLink {
  readonly kind: AccountKind;
  /** USD on the built-in platform; what the broker said when the account was picked. */
  readonly currency: string | null;
  /** The broker account picked; null on the built-in platform. */
  readonly ctidTraderAccountId: number | null;
}

/** Where a link (or none) says the account lives: the built-in platform, or a broker's demo or live account. */
export function accountKindOf(
  link:
    Pick<typeof tradingPlatformLinks.$inferSelect, 'platform' | 'brokerAccount'> | null | undefined,
): AccountKind {
  if (link?.platform !== 'ctrader') return 'simulated';
  return link.brokerAccount?.live === true ? 'live' : 'demo';
}

/** The trading port services depend on; `TradingRepository` is its database implementation. */
export interface TradingStore {
  /**
   * Where the user's account lives (the built-in platform, or a cTrader demo or live one) and
   * its currency as known when it was linked: USD on the built-in platform, what the broker said
   * when the account was picked (null if it did not say).
   */
  accountLink(userId: string): Promise<AccountLink>;
  platformAccount(accountId: string): Promise<PlatformAccountRow | undefined>;
  /**
   * The robot process holding the account's lease now (decision 092), with the moment it
   * claimed it; undefined while no process holds it (never claimed, released, or lapsed).
   */
  leaseHolder(accountId: string): Promise<
    | {
        owner: string;
        since: Date;
      }
    | undefined
  >;
  openOperations(accountId: string): Promise<TradeRecord[]>;
  /** One operation of the account, open or closed; undefined when the account has none by that id. */
  operation(accountId: string, positionId: string): Promise<TradeRecord | undefined>;
  /** One page of the closed history since `since`, newest first, after `before`. */
  closedPage(
    accountId: string,
    options: {
      since: number | undefined;
      limit: number;
      before: HistoryCursor | undefined;
    },
  ): Promise<{
    trades: TradeRecord[];
    total: number;
    more: boolean;
  }>;
  /** One page of the account's refused orders, newest first, after `before` (decision 101). */
  rejectionsPage(
    accountId: string,
    options: { limit: number; before: RejectionCursor | undefined },
  ): Promise<{ rows: RejectionRow[]; more: boolean }>;
  /** The linked broker account's symbols the robot does not trade, as its run last read them. */
  untradableSymbols(userId: string): Promise<UntradableSymbols | null>;
  /** Every closed operation since `since`, oldest first (the CSV export). */
  closedSince(accountId: string, since: number | undefined): Promise<TradeRecord[]>;
  /**
   * Every change of the platform balance, oldest first: deposits and closed operations' profit as
   * the platform booked them (its ledger, where balance = deposits + realised profit).
   */
  balanceChanges(accountId: string): Promise<BalanceChange[]>;
}

/** The live account's reads: operations and the platform's account rows. */
export class TradingRepository implements TradingStore {
  constructor(private readonly db: Db) {}

  /**
   * Where the user's account lives (the built-in platform, or a cTrader demo or live one) and
   * its currency as known when it was linked: USD on the built-in platform, what the broker said
   * when the account was picked (null if it did not say).
   */
  async accountLink(userId: string): Promise<AccountLink> {
    const row = await linkRowOf(this.db, userId);
    const kind = accountKindOf(row);
    if (!row || kind === 'simulated') return { kind, currency: 'USD', ctidTraderAccountId: null };
    return {
      kind,
      currency: row.brokerAccount?.currency ?? null,
      ctidTraderAccountId: row.brokerAccount?.ctidTraderAccountId ?? null,
    };
  }

  async platformAccount(accountId: string): Promise<PlatformAccountRow | undefined> {
    const [row] = await this.db
      .select()
      .from(platformAccounts)
      .where(eq(platformAccounts.accountId, accountId))
      .limit(1);
    return row;
  }

  /**
   * The robot process holding the account's lease now (decision 092), with the moment it
   * claimed it; undefined while no process holds it (never claimed, released, or lapsed).
   */
  async leaseHolder(accountId: string): Promise<{ owner: string; since: Date } | undefined> {
    const [row] = await this.db
      .select({ owner: robotLeases.owner, since: robotLeases.heldSince })
      .from(robotLeases)
      .where(
        and(
          eq(robotLeases.accountId, accountId),
          ne(robotLeases.owner, ''),
          sql`${robotLeases.leaseUntil} > now()`,
        ),
      )
      .limit(1);
    return row?.since ? { owner: row.owner, since: row.since } : undefined;
  }

  async openOperations(accountId: string): Promise<TradeRecord[]> {
    const rows = await this.db
      .select()
      .from(operations)
      .where(and(eq(operations.accountId, accountId), eq(operations.closeReason, 'open')))
      .orderBy(desc(operations.openedAt), desc(operations.positionId));
    return rows.map(tradeOf);
  }

  async operation(accountId: string, positionId: string): Promise<TradeRecord | undefined> {
    const [row] = await this.db
      .select()
      .from(operations)
      .where(and(eq(operations.accountId, accountId), eq(operations.positionId, positionId)));
    return row ? tradeOf(row) : undefined;
  }

  /** One page of the closed history since `since`, newest first, after `before`. */
  async closedPage(
    accountId: string,
    options: { since: number | undefined; limit: number; before: HistoryCursor | undefined },
  ): Promise<{ trades: TradeRecord[]; total: number; more: boolean }> {
    const inPeriod = and(
      eq(operations.accountId, accountId),
      isClosed,
      options.since === undefined ? undefined : gte(operations.closedAt, new Date(options.since)),
    );
    const { before } = options;
    const [rows, totals] = await Promise.all([
      this.db
        .select()
        .from(operations)
        .where(
          and(
            inPeriod,
            before === undefined
              ? undefined
              : sql`(${operations.closedAt}, ${operations.positionId}) < (${new Date(before.closedAt).toISOString()}::timestamptz, ${before.positionId})`,
          ),
        )
        .orderBy(desc(operations.closedAt), desc(operations.positionId))
        // One more than asked tells whether another page follows.
        .limit(options.limit + 1),
      this.db.select({ total: count() }).from(operations).where(inPeriod),
    ]);
    return {
      trades: rows.slice(0, options.limit).map(tradeOf),
      total: totals[0]?.total ?? 0,
      more: rows.length > options.limit,
    };
  }

  /** One page of the account's refused orders, newest first, after `before` (decision 101). */
  async rejectionsPage(
    accountId: string,
    options: { limit: number; before: RejectionCursor | undefined },
  ): Promise<{ rows: RejectionRow[]; more: boolean }> {
    const { before } = options;
    const rows = await this.db
      .select({
        clientOrderId: orderIntents.clientOrderId,
        decidedAt: orderIntents.decidedAt,
        symbol: orderIntents.symbol,
        category: orderIntents.category,
        side: orderIntents.side,
        units: orderIntents.units,
        reason: orderIntents.rejectReason,
        brokerCode: orderIntents.rejectBrokerCode,
      })
      .from(orderIntents)
      .where(
        and(
          eq(orderIntents.accountId, accountId),
          eq(orderIntents.status, 'rejected'),
          before === undefined
            ? undefined
            : sql`(${orderIntents.decidedAt}, ${orderIntents.clientOrderId}) < (${new Date(before.decidedAt).toISOString()}::timestamptz, ${before.clientOrderId})`,
        ),
      )
      .orderBy(desc(orderIntents.decidedAt), desc(orderIntents.clientOrderId))
      // One more than asked tells whether another page follows.
      .limit(options.limit + 1);
    return {
      rows: rows
        .slice(0, options.limit)
        .map((row) => ({ ...row, decidedAt: row.decidedAt.getTime() })),
      more: rows.length > options.limit,
    };
  }

  /** The linked broker account's symbols the robot does not trade, as its run last read them. */
  async untradableSymbols(userId: string): Promise<UntradableSymbols | null> {
    const [row] = await this.db
      .select({ symbols: tradingPlatformLinks.untradableSymbols })
      .from(tradingPlatformLinks)
      .where(eq(tradingPlatformLinks.userId, userId))
      .limit(1);
    return row?.symbols ?? null;
  }

  /** Every closed operation since `since`, oldest first (the CSV export). */
  async closedSince(accountId: string, since: number | undefined): Promise<TradeRecord[]> {
    const rows = await this.db
      .select()
      .from(operations)
      .where(
        and(
          eq(operations.accountId, accountId),
          isClosed,
          since === undefined ? undefined : gte(operations.closedAt, new Date(since)),
        ),
      )
      .orderBy(asc(operations.closedAt), asc(operations.positionId));
    return rows.map(tradeOf);
  }

  /**
   * Every change of the platform balance, oldest first: deposits and closed operations' profit as
   * the platform booked them (its ledger, where balance = deposits + realised profit).
   */
  async balanceChanges(accountId: string): Promise<BalanceChange[]> {
    const result = await this.db.execute(sql`
      select at, cents from (
        select deposited_at as at, cents, 0 as kind, '' as id
          from platform_deposits where account_id = ${accountId}
        union all
        select closed_at as at, close_profit_cents as cents, 1 as kind, client_order_id as id
          from platform_orders where account_id = ${accountId} and closed_at is not null
      ) changes order by at, kind, id`);
    return rowsOf<{ at: Date | string; cents: string | number }>(result).map((row) => ({
      at: new Date(row.at).getTime(),
      cents: Number(row.cents),
    }));
  }
}

/** A user's link to a trading platform: which platform, and what the broker said of the account. */
export async function linkRowOf(db: Db, userId: string) {
  const [row] = await db
    .select({
      platform: tradingPlatformLinks.platform,
      brokerAccount: tradingPlatformLinks.brokerAccount,
    })
    .from(tradingPlatformLinks)
    .where(eq(tradingPlatformLinks.userId, userId))
    .limit(1);
  return row;
}
