import type { PartnerReportDimension } from '@tradebot/contract';
import { describe, expect, it } from 'vitest';
import type { AdminAuditStore, AuditEntryInput } from '../repositories/admin-audit.repository';
import type { AdminRow } from '../repositories/admins.repository';
import type {
  MoneyByKey,
  MoneyTotal,
  PartnerReportStore,
  RegistrationsByKey,
} from '../repositories/partner-report.repository';
import { PartnerReportService, type PartnerReportQuery } from './partner-report.service';

const now = new Date('2026-12-02T15:00:00Z');
const admin = { id: 'a1', email: 'soporte@tradebot.example' } as AdminRow;
const query: PartnerReportQuery = { dimension: 'partner_id', from: '2026-11-01', to: '2026-11-30' };

interface Figures {
  registered: { rows: RegistrationsByKey[]; total: number };
  paid: { rows: MoneyByKey[]; totals: MoneyTotal[] };
  refunded: { rows: MoneyByKey[]; totals: MoneyTotal[] };
}

/** Two partners and accounts without one; dollars and reais. */
const figures: Figures = {
  registered: {
    rows: [
      { key: 'acme', registrations: 3 },
      { key: null, registrations: 5 },
      { key: 'beta', registrations: 3 },
    ],
    total: 11,
  },
  paid: {
    rows: [
      { key: 'acme', currency: 'USD', count: 2, cents: 5_998 },
      { key: 'acme', currency: 'BRL', count: 1, cents: 14_990 },
      { key: 'beta', currency: 'USD', count: 1, cents: 2_999 },
      // A payment this period of an account that registered before it.
      { key: 'gamma', currency: 'USD', count: 1, cents: 2_999 },
    ],
    totals: [
      { currency: 'USD', count: 4, cents: 11_996 },
      { currency: 'BRL', count: 1, cents: 14_990 },
    ],
  },
  refunded: {
    rows: [{ key: 'acme', currency: 'USD', count: 1, cents: 2_999 }],
    totals: [{ currency: 'USD', count: 1, cents: 2_999 }],
  },
};

/** The service with plain stubs: the periods it asked for, and the audit entries it wrote. */
function rig(data: Figures = figures, options: { auditFails?: boolean } = {}) {
  const asked: { what: string; dimension: PartnerReportDimension; from: Date; until: Date }[] = [];
  const entries: { entry: AuditEntryInput; at: Date }[] = [];
  const reports: PartnerReportStore = {
    registrations: (dimension, from, until) => {
      asked.push({ what: 'registrations', dimension, from, until });
      return Promise.resolve(data.registered);
    },
    payments: (dimension, from, until) => {
      asked.push({ what: 'payments', dimension, from, until });
      return Promise.resolve(data.paid);
    },
    refunds: (dimension, from, until) => {
      asked.push({ what: 'refunds', dimension, from, until });
      return Promise.resolve(data.refunded);
    },
  };
  const audit: AdminAuditStore = {
    record: (entry, at) => {
      if (options.auditFails) return Promise.reject(new Error('database down'));
      entries.push({ entry, at });
      return Promise.resolve();
    },
    page: () => Promise.reject(new Error('not read here')),
  };
  const service = new PartnerReportService(reports, audit, { now: () => now }, 'America/Sao_Paulo');
  return { service, asked, entries };
}

describe('PartnerReportService.report', () => {
  it("reads the period from the first day's local midnight to the midnight after the last day", async () => {
    const { service, asked } = rig();

    await service.report(query);

    // São Paulo is three hours behind UTC.
    const from = new Date('2026-11-01T03:00:00Z');
    const until = new Date('2026-12-01T03:00:00Z');
    expect(asked).toEqual([
      { what: 'registrations', dimension: 'partner_id', from, until },
      { what: 'payments', dimension: 'partner_id', from, until },
      { what: 'refunds', dimension: 'partner_id', from, until },
    ]);
  });

  it('gives each key its registrations, payments, refunds and net revenue in every currency', async () => {
    const { service } = rig();

    const report = await service.report(query);

    expect(report.currencies).toEqual(['BRL', 'USD']);
    expect(report.rows.find((row) => row.key === 'acme')).toEqual({
      key: 'acme',
      registrations: 3,
      payments: 3,
      refunds: 1,
      revenue: [
        { currency: 'BRL', grossCents: 14_990, refundedCents: 0, netCents: 14_990 },
        { currency: 'USD', grossCents: 5_998, refundedCents: 2_999, netCents: 2_999 },
      ],
    });
    // A key that only paid this period still has its row, with no registrations.
    expect(report.rows.find((row) => row.key === 'gamma')).toMatchObject({
      registrations: 0,
      payments: 1,
      refunds: 0,
    });
    // A key with no money still names every currency, at zero.
    expect(report.rows.find((row) => row.key === null)?.revenue).toEqual([
      { currency: 'BRL', grossCents: 0, refundedCents: 0, netCents: 0 },
      { currency: 'USD', grossCents: 0, refundedCents: 0, netCents: 0 },
    ]);
  });

  it('totals from the period as a whole, not from the rows', async () => {
    const { service } = rig({
      ...figures,
      // One account paying under two referral pairs counts in both rows, once in the total.
      paid: {
        rows: figures.paid.rows.filter((row) => row.currency === 'USD'),
        totals: [{ currency: 'USD', count: 3, cents: 8_997 }],
      },
      refunded: { rows: [], totals: [] },
    });

    const report = await service.report(query);

    expect(report).toMatchObject({
      dimension: 'partner_id',
      from: '2026-11-01',
      to: '2026-11-30',
      timeZone: 'America/Sao_Paulo',
      registrations: 11,
      payments: 3,
      refunds: 0,
      currencies: ['USD'],
      revenue: [{ currency: 'USD', grossCents: 8_997, refundedCents: 0, netCents: 8_997 }],
    });
  });

  it.each([
    ['last', ['b', 'a', 'z', 'paid', null]],
    ['first', [null, 'b', 'a', 'z', 'paid']],
  ])(
    'orders rows by registrations, then payments, then key, with no key last (read %s)',
    async (_where, keys) => {
      const { service } = rig({
        registered: {
          rows: keys.map((key) => ({ key, registrations: key === 'z' ? 9 : 2 })),
          total: 17,
        },
        paid: {
          rows: [{ key: 'paid', currency: 'USD', count: 1, cents: 100 }],
          totals: [{ currency: 'USD', count: 1, cents: 100 }],
        },
        refunded: { rows: [], totals: [] },
      });

      const report = await service.report(query);

      expect(report.rows.map((row) => row.key)).toEqual(['z', 'paid', 'a', 'b', null]);
    },
  );

  it('answers an empty period with no rows and no currencies', async () => {
    const { service } = rig({
      registered: { rows: [], total: 0 },
      paid: { rows: [], totals: [] },
      refunded: { rows: [], totals: [] },
    });

    expect(await service.report(query)).toMatchObject({
      currencies: [],
      rows: [],
      registrations: 0,
      payments: 0,
      refunds: 0,
      revenue: [],
    });
  });

  it('writes nothing to the audit log for a report read on screen', async () => {
    const { service, entries } = rig();

    await service.report(query);

    expect(entries).toEqual([]);
  });
});

describe('PartnerReportService.csv', () => {
  it('audits the export, naming the admin, the period and what it held', async () => {
    const { service, entries } = rig();

    await service.csv(admin, query);

    expect(entries).toEqual([
      {
        entry: {
          adminId: 'a1',
          action: 'report.exported',
          targetType: 'partner_report',
          targetId: null,
          before: null,
          after: {
            dimension: 'partner_id',
            from: '2026-11-01',
            to: '2026-11-30',
            rows: 4,
            registrations: 11,
            payments: 5,
          },
        },
        at: now,
      },
    ]);
  });

  it('writes money in currency units with two decimals, one column group per currency', async () => {
    const { service } = rig();

    const lines = (await service.csv(admin, query)).split('\r\n');

    expect(lines[0]).toBe(
      'partner_id,registrations,payments,refunds,gross_BRL,refunded_BRL,net_BRL,gross_USD,refunded_USD,net_USD',
    );
    expect(lines).toContain('acme,3,3,1,149.90,0.00,149.90,59.98,29.99,29.99');
    // No key: an empty field.
    expect(lines).toContain(',5,0,0,0.00,0.00,0.00,0.00,0.00,0.00');
  });

  it('defuses a key a spreadsheet would run as a formula', async () => {
    const { service } = rig({
      registered: { rows: [{ key: '=HYPERLINK("http://evil")', registrations: 1 }], total: 1 },
      paid: { rows: [], totals: [] },
      refunded: { rows: [], totals: [] },
    });

    const lines = (await service.csv(admin, { ...query, dimension: 'client_source' })).split(
      '\r\n',
    );

    expect(lines[0]).toBe('client_source,registrations,payments,refunds');
    expect(lines[1]).toBe(`"'=HYPERLINK(""http://evil"")",1,0,0`);
  });

  it('hands out no CSV when the export could not be audited', async () => {
    const { service } = rig(figures, { auditFails: true });

    await expect(service.csv(admin, query)).rejects.toThrow('database down');
  });
});
