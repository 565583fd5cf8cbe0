import type { PartnerReport, PartnerReportDimension } from '@tradebot/contract';
import type { AdminAuditStore } from '../repositories/admin-audit.repository';
import type { AdminRow } from '../repositories/admins.repository';
import type { Clock } from '../repositories/clock';
import type { PartnerReportStore } from '../repositories/partner-report.repository';
import { nextDate, startOfLocalDay } from './working-hours';

export interface PartnerReportQuery {
  dimension: PartnerReportDimension;
  /** Local dates (YYYY-MM-DD) in the operator's time zone, both included. */
  from: string;
  to: string;
}

/** A spreadsheet must not run what a registration's query string put in a cell. */
function csvField(value: string | number | null): string {
  if (value === null) return '';
  let text = String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/**
 * Partners and referrals: registrations in a period by partner_id, client_source, promo code
 * or referral pair. Payments and revenue join the same rows once payments are stored.
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
    const { rows, total } = await this.reports.registrations(query.dimension, from, until);
    return {
      dimension: query.dimension,
      from: query.from,
      to: query.to,
      timeZone: this.timeZone,
      rows,
      registrations: total,
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
        after: { ...query, rows: report.rows.length, registrations: report.registrations },
      },
      this.clock.now(),
    );
    const lines = [
      [report.dimension, 'registrations'].join(','),
      ...report.rows.map((row) => [csvField(row.key), csvField(row.registrations)].join(',')),
    ];
    return `${lines.join('\r\n')}\r\n`;
  }
}
