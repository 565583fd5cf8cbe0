import type { PartnerReportDimension } from '@tradebot/contract';
import { sql } from 'drizzle-orm';
import { houseAccount } from './track-record.repository';
import type { Db } from '../db/database';
import { rowsOf } from '../db/migrate';

export interface RegistrationsByKey {
  key: string | null;
  registrations: number;
}

/** Payments (or refunds) of one key in one currency. */
export interface MoneyByKey {
  key: string | null;
  /** Upper case. */
  currency: string;
  count: number;
  cents: number;
}

export interface MoneyTotal {
  currency: string;
  count: number;
  cents: number;
}

/** Registrations, payments and refunds in a period, by tracking parameter. */
export interface PartnerReportStore {
  registrations(
    dimension: PartnerReportDimension,
    from: Date,
    until: Date,
  ): Promise<{ rows: RegistrationsByKey[]; total: number }>;
  /** Payments made in [from, until) by accounts of each key, whenever those registered. */
  payments(
    dimension: PartnerReportDimension,
    from: Date,
    until: Date,
  ): Promise<{ rows: MoneyByKey[]; totals: MoneyTotal[] }>;
  /** Refunds made in [from, until), of payments of any date. */
  refunds(
    dimension: PartnerReportDimension,
    from: Date,
    until: Date,
  ): Promise<{ rows: MoneyByKey[]; totals: MoneyTotal[] }>;
}

/**
 * Each account's keys for a dimension, from `accounts (id, partner_id, ...)`. The referral
 * parameter is stored as "name=value|name=value|" (spec §4): each pair is a key of its own (a
 * pair given twice counts once), and an account without any has the null key.
 */
const keyedAccounts: Record<PartnerReportDimension, ReturnType<typeof sql>> = {
  partner_id: sql`select a.id as user_id, a.partner_id as key from accounts a`,
  client_source: sql`select a.id as user_id, a.client_source as key from accounts a`,
  promocode: sql`select a.id as user_id, a.promocode as key from accounts a`,
  referral: sql`select distinct a.id as user_id, pair.key from accounts a
    left join lateral unnest(array_remove(string_to_array(a.referral, '|'), '')) as pair(key)
    on true`,
};

const between = (column: ReturnType<typeof sql>, from: Date, until: Date) =>
  sql`${column} >= ${from.toISOString()}::timestamptz and ${column} < ${until.toISOString()}::timestamptz`;

interface MoneyRowOut {
  key: string | null;
  currency: string;
  count: number;
  cents: string | number | bigint;
}

const money = (row: { currency: string; count: number; cents: string | number | bigint }) => ({
  currency: row.currency,
  count: row.count,
  cents: Number(row.cents),
});

export class PartnerReportRepository implements PartnerReportStore {
  constructor(private readonly db: Db) {}

  /** Accounts registered in [from, until), by key, most first. */
  async registrations(dimension: PartnerReportDimension, from: Date, until: Date) {
    // The robot's own account (decision 060) registered nowhere: it is not counted.
    const period = sql`${between(sql`created_at`, from, until)} and id <> ${houseAccount.accountId}::uuid`;
    const [grouped, totals] = await Promise.all([
      this.db.execute(sql`
        with accounts as (
          select id, partner_id, client_source, promocode, referral from users where ${period}
        ),
        keyed as (${keyedAccounts[dimension]})
        select key, count(distinct user_id)::int as registrations
        from keyed
        group by key
        order by registrations desc, key asc nulls last`),
      this.db.execute(sql`select count(*)::int as total from users where ${period}`),
    ]);
    return {
      rows: rowsOf<RegistrationsByKey>(grouped),
      total: rowsOf<{ total: number }>(totals)[0]?.total ?? 0,
    };
  }

  payments(dimension: PartnerReportDimension, from: Date, until: Date) {
    return this.money(dimension, between(sql`p.paid_at`, from, until));
  }

  refunds(dimension: PartnerReportDimension, from: Date, until: Date) {
    return this.money(dimension, between(sql`p.refunded_at`, from, until));
  }

  /**
   * Payments matching `when`, joined on user_id to every account's keys (a payment counts once
   * in each key its account carries), and their totals over the same accounts.
   */
  private async money(dimension: PartnerReportDimension, when: ReturnType<typeof sql>) {
    const [grouped, totals] = await Promise.all([
      this.db.execute(sql`
        with accounts as (
          select id, partner_id, client_source, promocode, referral from users
          where id in (select p.user_id from payments p where ${when})
        ),
        keyed as (${keyedAccounts[dimension]})
        select k.key, upper(p.currency) as currency, count(*)::int as count,
          sum(p.amount_cents)::text as cents
        from keyed k join payments p on p.user_id = k.user_id
        where ${when}
        group by k.key, upper(p.currency)`),
      this.db.execute(sql`
        select upper(p.currency) as currency, count(*)::int as count,
          sum(p.amount_cents)::text as cents
        from payments p join users u on u.id = p.user_id
        where ${when}
        group by upper(p.currency)`),
    ]);
    return {
      rows: rowsOf<MoneyRowOut>(grouped).map((row) => ({ key: row.key, ...money(row) })),
      totals: rowsOf<MoneyRowOut>(totals).map(money),
    };
  }
}
