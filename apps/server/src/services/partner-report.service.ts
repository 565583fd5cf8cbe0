import type {
  PartnerReport,
  PartnerReportDimension,
  PartnerReportRow,
  PartnerRevenue,
} from '@tradebot/contract';
import type { AdminAuditStore } from '../repositories/admin-audit.repository';
import type { AdminRow } from '../repositories/admins.repository';
import type { Clock } from '../repositories/clock';
import type {
  MoneyByKey,
  MoneyTotal,
  PartnerReportStore,
} from '../repositories/partner-report.repository';
import { nextDate, startOfLocalDay } from './working-hours';
import { toCsv } from './csv';

export interface PartnerReportQuery {
  dimension: PartnerReportDimension;
  /** Local dates (YYYY-MM-DD) in the operator's time zone, both included. */
  from: string;
  to: string;
}

/** Revenue in each currency: paid, refunded, and net of refunds. */
function revenueOf(
  currencies: string[],
  paid: readonly MoneyTotal[],
  refunded: readonly MoneyTotal[],
): PartnerRevenue[] {
  return currencies.map((currency) => {
    const grossCents = paid.find((row) => row.currency === currency)?.cents ?? 0;
    const refundedCents = refunded.find((row) => row.currency === currency)?.cents ?? 0;
    return { currency, grossCents, refundedCents, netCents: grossCents - refundedCents };
  });
}

const countOf = (rows: readonly MoneyTotal[]) => rows.reduce((sum, row) => sum + row.count, 0);

const sameKey = (key: string | null) => (row: { key: string | null }) => row.key === key;

/** Most registrations first, then most payments, then by key (the null key last). */
function byWeight(a: PartnerReportRow, b: PartnerReportRow): number {
  if (a.registrations !== b.registrations) return b.registrations - a.registrations;
  if (a.payments !== b.payments) return b.payments - a.payments;
  if (a.key === b.key) return 0;
  if (a.key === null) return 1;
  if (b.key === null) return -1;
  return a.key < b.key ? -1 : 1;
}

/**
 * Partners and referrals (decisions 057 and 059): in a period, by partner_id, client_source,
 * promo code or referral pair, the accounts registered, the payments made and refunded and the
 * revenue net of refunds, in each currency.
 */
export class PartnerReportService {
  constructor(
    private readonly reports: PartnerReportStore,
    private readonly audit: AdminAuditStore,
    private readonly clock: Clock,
    private readonly timeZone: string,
  ) {}

  async report(query: PartnerReportQuery): Promise<PartnerReport> {
    const from = startOfLocalDay(query.from, this.timeZone);
    const until = startOfLocalDay(nextDate(query.to), this.timeZone);
    const { dimension } = query;
    const [registered, paid, refunded] = await Promise.all([
      this.reports.registrations(dimension, from, until),
      this.reports.payments(dimension, from, until),
      this.reports.refunds(dimension, from, until),
    ]);
    const currencies = [
      ...new Set([...paid.totals, ...refunded.totals].map((row) => row.currency)),
    ].sort();
    const keys = new Set<string | null>(
      [...registered.rows, ...paid.rows, ...refunded.rows].map((row) => row.key),
    );
    const moneyOf = (rows: MoneyByKey[], key: string | null) => rows.filter(sameKey(key));
    const rows = [...keys]
      .map((key): PartnerReportRow => {
        const keyPaid = moneyOf(paid.rows, key);
        const keyRefunded = moneyOf(refunded.rows, key);
        return {
          key,
          registrations: registered.rows.find(sameKey(key))?.registrations ?? 0,
          payments: countOf(keyPaid),
          refunds: countOf(keyRefunded),
          revenue: revenueOf(currencies, keyPaid, keyRefunded),
        };
      })
      .sort(byWeight);
    return {
      dimension,
      from: query.from,
      to: query.to,
      timeZone: this.timeZone,
      currencies,
      rows,
      registrations: registered.total,
      payments: countOf(paid.totals),
      refunds: countOf(refunded.totals),
      revenue: revenueOf(currencies, paid.totals, refunded.totals),
    };
  }

  /** The report as CSV (UTF-8, a header row); exporting is an audited action. */
  async csv(admin: AdminRow, query: PartnerReportQuery): Promise<string> {
    const report = await this.report(query);
    await this.audit.record(
      {
        adminId: admin.id,
        action: 'report.exported',
        targetType: 'partner_report',
        targetId: null,
        before: null,
        after: {
          ...query,
          rows: report.rows.length,
          registrations: report.registrations,
          payments: report.payments,
        },
      },
      this.clock.now(),
    );
    // Money in the currency's units (cents / 100), one column group per currency, named in
    // the header: a spreadsheet sums them without knowing our minor units. The keys come from
    // registrations' query strings: toCsv escapes what a spreadsheet would run.
    const moneyHeaders = report.currencies.flatMap((currency) => [
      `gross_${currency}`,
      `refunded_${currency}`,
      `net_${currency}`,
    ]);
    const header = [report.dimension, 'registrations', 'payments', 'refunds', ...moneyHeaders];
    const fixed = 4;
    return toCsv(
      header,
      report.rows.map((row) => [
        row.key,
        row.registrations,
        row.payments,
        row.refunds,
        ...row.revenue.flatMap((item) =>
          [item.grossCents, item.refundedCents, item.netCents].map((cents) => cents / 100),
        ),
      ]),
      { moneyColumns: moneyHeaders.map((_, index) => fixed + index) },
    );
  }
}
