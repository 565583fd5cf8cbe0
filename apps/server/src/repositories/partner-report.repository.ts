import type { PartnerReportDimension } from '@tradebot/contract';
import { sql } from 'drizzle-orm';
import type { Db } from '../db/database';
import { rowsOf } from '../db/migrate';

export interface RegistrationsByKey {
  key: string | null;
  registrations: number;
}

/** Registrations (and, once payments are stored, payments and revenue) by tracking parameter. */
export interface PartnerReportStore {
  registrations(
    dimension: PartnerReportDimension,
    from: Date,
    until: Date,
  ): Promise<{ rows: RegistrationsByKey[]; total: number }>;
}

/**
 * Each registration's key for a dimension. The referral parameter is stored as
 * "name=value|name=value|" (spec §4): each pair is a key of its own, and a registration
 * without any has the null key.
 */
const keyedRegistrations: Record<PartnerReportDimension, ReturnType<typeof sql>> = {
  partner_id: sql`select r.id as user_id, r.partner_id as key from registered r`,
  client_source: sql`select r.id as user_id, r.client_source as key from registered r`,
  promocode: sql`select r.id as user_id, r.promocode as key from registered r`,
  referral: sql`select r.id as user_id, pair.key from registered r
    left join lateral unnest(array_remove(string_to_array(r.referral, '|'), '')) as pair(key)
    on true`,
};

export class PartnerReportRepository implements PartnerReportStore {
  constructor(private readonly db: Db) {}

  /**
   * Accounts registered in [from, until), by key, most first. The query is built on
   * `keyed (user_id, key)`: payments join it on user_id (a left join on the payments of the
   * period) to add their count and revenue per key, without changing what is counted here.
   */
  async registrations(dimension: PartnerReportDimension, from: Date, until: Date) {
    const period = sql`created_at >= ${from.toISOString()}::timestamptz and created_at < ${until.toISOString()}::timestamptz`;
    const [grouped, totals] = await Promise.all([
      this.db.execute(sql`
        with registered as (
          select id, partner_id, client_source, promocode, referral from users where ${period}
        ),
        keyed as (${keyedRegistrations[dimension]})
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
}
