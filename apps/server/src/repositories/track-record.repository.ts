import { builtInPlatform, type CalibrationRow } from '@tradebot/contract';
import type { TradeRecord } from '@tradebot/robot';
import { and, desc, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/database';
import { rowsOf } from '../db/migrate';
import { operations, platformAccounts, platformUsers, users, userSettings } from '../db/schema';
import { tradeOf } from '../db/trade-records';
import { allCategoriesEnabled } from './users.repository';

/** The robot's own account as the track record stores it (docs/decisions/060). */
export interface HouseAccount {
  readonly accountId: string;
  /** Not an address the register form accepts (no dot in the domain): nobody can take it. */
  readonly email: string;
  readonly name: string;
  readonly lastName: string;
  readonly startingBalanceCents: number;
}

/**
 * The robot's own account (docs/decisions/060): a fixed id, so every process and every restart
 * finds the same record; kept out of the support console's user search and the partner report.
 */
export const houseAccount: HouseAccount = {
  accountId: '00000000-0000-4000-8000-000000000060',
  email: 'robot@track-record',
  name: 'Tradebot',
  lastName: 'Robot',
  startingBalanceCents: builtInPlatform.startingBalanceCents,
};

/** A position in the list, newest opened first: the last row of a page. */
export interface TrackRecordCursor {
  readonly openedAt: number;
  readonly positionId: string;
}

/** The record's figures as stored, in cents and shares; null where nothing can be measured. */
export interface StoredTrackRecord {
  readonly openedAt: number;
  readonly depositsCents: number;
  readonly operations: number;
  readonly open: number;
  readonly closed: number;
  readonly wins: number;
  readonly profitCents: number;
  readonly averageWinCents: number | null;
  readonly averageLossCents: number | null;
  readonly geometryBreakEvenRate: number | null;
  readonly forecasts: number;
  readonly accuracy: number | null;
  readonly brierScore: number | null;
  readonly baseRate: number | null;
  readonly baseRateAccuracy: number | null;
  readonly baseRateBrierScore: number | null;
  readonly meanProbability: number | null;
  /** Scored operations by decile of the probability claimed (decision 093). */
  readonly calibration: readonly CalibrationRow[];
}

/** The realised profit of every operation closed by `at` (epoch ms). */
export interface ProfitPoint {
  readonly at: number;
  readonly cents: number;
}

const number = (value: unknown): number | null =>
  value === null || value === undefined ? null : Number(value);

/** The track record port services depend on; `TrackRecordRepository` is its database implementation. */
export interface TrackRecordStore {
  /**
   * Writes the house account's user, its settings (robot on, default risk, every category,
   * linked, paid) and its platform login, once. The process running the robot opens the
   * platform account from the login (`openPendingPlatformAccounts`). Returns true when it
   * wrote them now.
   */
  ensureHouseAccount(house: HouseAccount, passwordHash: () => Promise<string>): Promise<boolean>;
  /** The record's figures over every stored operation; undefined until the account opened. */
  record(accountId: string): Promise<StoredTrackRecord | undefined>;
  /** One page of every operation, open or closed, newest opened first, after `before`. */
  operationsPage(
    accountId: string,
    options: {
      limit: number;
      before: TrackRecordCursor | undefined;
    },
  ): Promise<{
    trades: TradeRecord[];
    more: boolean;
  }>;
  /**
   * The realised profit after each closure, oldest first, thinned to about `maxPoints` (every
   * n-th closure, and always the last).
   */
  profitAfterClosures(accountId: string, maxPoints: number): Promise<ProfitPoint[]>;
}

/** The house account's rows, and the record computed from its stored operations. */
export class TrackRecordRepository implements TrackRecordStore {
  constructor(private readonly db: Db) {}

  /**
   * Writes the house account's user, its settings (robot on, default risk, every category,
   * linked, paid) and its platform login, once. The process running the robot opens the
   * platform account from the login (`openPendingPlatformAccounts`). Returns true when it
   * wrote them now.
   */
  async ensureHouseAccount(
    house: HouseAccount,
    passwordHash: () => Promise<string>,
  ): Promise<boolean> {
    const [existing] = await this.db
      .select({ id: users.id })
      .from(users)
      .where(eq(users.id, house.accountId))
      .limit(1);
    if (existing) return false;
    const hash = await passwordHash();
    return this.db.transaction(async (tx) => {
      const created = await tx
        .insert(users)
        .values({
          id: house.accountId,
          name: house.name,
          lastName: house.lastName,
          email: house.email,
          passwordHash: hash,
        })
        .onConflictDoNothing({ target: users.id })
        .returning({ id: users.id });
      // Another process wrote it first.
      if (created.length === 0) return false;
      await tx.insert(userSettings).values({
        userId: house.accountId,
        botOn: true,
        risk: 1,
        categoriesEnabled: allCategoriesEnabled,
        linked: true,
        loginTradear: true,
        authorized: true,
      });
      await tx.insert(platformUsers).values({
        accountId: house.accountId,
        email: house.email,
        passwordHash: hash,
        startingBalanceCents: house.startingBalanceCents,
      });
      return true;
    });
  }

  /** The record's figures over every stored operation; undefined until the account opened. */
  async record(accountId: string): Promise<StoredTrackRecord | undefined> {
    const [account] = await this.db
      .select({
        openedAt: platformAccounts.openedAt,
        depositsCents: platformAccounts.depositsCents,
      })
      .from(platformAccounts)
      .where(eq(platformAccounts.accountId, accountId))
      .limit(1);
    if (!account) return undefined;
    // Scored: operations the market decided (TP first = 1, SL first = 0). The base rate a
    // forecast is set against is the share of take-profits closed before it (0.5 at first).
    const result = await this.db.execute(sql`
      with ops as (
        select profit_cents, close_reason, probability, break_even_probability, closed_at,
          position_id
        from operations where account_id = ${accountId}
      ),
      closed as (select * from ops where close_reason <> 'open'),
      scored as (
        select probability as p,
          case when close_reason = 'tp' then 1 else 0 end as y,
          coalesce(avg(case when close_reason = 'tp' then 1.0 else 0.0 end) over (
            order by closed_at, position_id rows between unbounded preceding and 1 preceding
          ), 0.5) as b
        from closed where close_reason in ('tp', 'sl')
      )
      select
        (select count(*) from ops)::int as operations,
        (select count(*) from ops where close_reason = 'open')::int as open,
        (select count(*) from closed)::int as closed,
        (select count(*) from closed where profit_cents > 0)::int as wins,
        (select coalesce(sum(profit_cents), 0) from closed)::float8 as profit_cents,
        (select avg(profit_cents) from closed where profit_cents > 0)::float8 as average_win_cents,
        (select avg(-profit_cents) from closed where profit_cents <= 0)::float8
          as average_loss_cents,
        (select avg(break_even_probability) from ops)::float8 as geometry,
        (select count(*) from scored)::int as forecasts,
        (select avg(case when (p >= 0.5) = (y = 1) then 1.0 else 0.0 end) from scored)::float8
          as accuracy,
        (select avg((p - y) * (p - y)) from scored)::float8 as brier,
        (select avg(y) from scored)::float8 as base_rate,
        (select avg(case when (b >= 0.5) = (y = 1) then 1.0 else 0.0 end) from scored)::float8
          as base_rate_accuracy,
        (select avg((b - y) * (b - y)) from scored)::float8 as base_rate_brier,
        (select avg(p) from scored)::float8 as mean_probability`);
    const row = rowsOf<Record<string, unknown>>(result)[0] ?? {};
    const deciles = await this.db.execute(sql`
      with scored as (
        select probability as p, case when close_reason = 'tp' then 1.0 else 0.0 end as y,
          ntile(10) over (order by probability, position_id) as decile
        from operations where account_id = ${accountId} and close_reason in ('tp', 'sl')
      )
      select decile, avg(p)::float8 as claimed, avg(y)::float8 as hit, count(*)::int as count
      from scored group by decile order by decile`);
    return {
      openedAt: account.openedAt.getTime(),
      depositsCents: account.depositsCents,
      operations: Number(row.operations ?? 0),
      open: Number(row.open ?? 0),
      closed: Number(row.closed ?? 0),
      wins: Number(row.wins ?? 0),
      profitCents: Number(row.profit_cents ?? 0),
      averageWinCents: number(row.average_win_cents),
      averageLossCents: number(row.average_loss_cents),
      geometryBreakEvenRate: number(row.geometry),
      forecasts: Number(row.forecasts ?? 0),
      accuracy: number(row.accuracy),
      brierScore: number(row.brier),
      baseRate: number(row.base_rate),
      baseRateAccuracy: number(row.base_rate_accuracy),
      baseRateBrierScore: number(row.base_rate_brier),
      meanProbability: number(row.mean_probability),
      calibration: rowsOf<Record<string, unknown>>(deciles).map((decile) => ({
        decile: Number(decile.decile),
        claimed: Number(decile.claimed),
        hit: Number(decile.hit),
        count: Number(decile.count),
      })),
    };
  }

  /** One page of every operation, open or closed, newest opened first, after `before`. */
  async operationsPage(
    accountId: string,
    options: { limit: number; before: TrackRecordCursor | undefined },
  ): Promise<{ trades: TradeRecord[]; more: boolean }> {
    const { before } = options;
    const rows = await this.db
      .select()
      .from(operations)
      .where(
        and(
          eq(operations.accountId, accountId),
          before === undefined
            ? undefined
            : sql`(${operations.openedAt}, ${operations.positionId}) < (${new Date(before.openedAt).toISOString()}::timestamptz, ${before.positionId})`,
        ),
      )
      .orderBy(desc(operations.openedAt), desc(operations.positionId))
      // One more than asked tells whether another page follows.
      .limit(options.limit + 1);
    return { trades: rows.slice(0, options.limit).map(tradeOf), more: rows.length > options.limit };
  }

  /**
   * The realised profit after each closure, oldest first, thinned to about `maxPoints` (every
   * n-th closure, and always the last).
   */
  async profitAfterClosures(accountId: string, maxPoints: number): Promise<ProfitPoint[]> {
    const result = await this.db.execute(sql`
      with closed as (
        select closed_at,
          sum(profit_cents) over (order by closed_at, position_id) as cumulative,
          row_number() over (order by closed_at, position_id) as n,
          count(*) over () as total
        from operations
        where account_id = ${accountId} and close_reason <> 'open'
      )
      select closed_at as at, cumulative::float8 as cents from closed
      where n = total or n % greatest(1, ceil(total::float8 / ${maxPoints}))::bigint = 0
      order by n`);
    return rowsOf<{ at: Date | string; cents: number | string }>(result).map((row) => ({
      at: new Date(row.at).getTime(),
      cents: Number(row.cents),
    }));
  }
}
