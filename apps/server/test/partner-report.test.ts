import type { PartnerReport, PartnerReportDimension } from '@tradebot/contract';
import { describe, expect, it } from 'vitest';
import { users as usersTable } from '../src/db/schema';
import { UsersRepository, type NewUser, type UserRow } from '../src/repositories/users.repository';
import { manualClock, v1 } from './helpers/accounts';
import { auditEntries, createAdmin, signedInAdmin } from './helpers/admin';
import { useTestApp } from './helpers/app';

/** Registrations around November 2026 in Buenos Aires (UTC-3): the period's edges included. */
const registrations: (Partial<NewUser> & { createdAt: Date })[] = [
  {
    // 1 November, 00:00 local: the first instant of the period.
    createdAt: new Date('2026-11-01T03:00:00Z'),
    partnerId: '77',
    clientSource: 'newsletter',
    promocode: 'MESGRATIS',
    referral: 'utm_source=google|utm_campaign=Invierno|',
  },
  // 31 October, 23:59:59 local: before the period.
  { createdAt: new Date('2026-11-01T02:59:59Z'), partnerId: '77', referral: 'utm_source=google|' },
  { createdAt: new Date('2026-11-15T12:00:00Z'), partnerId: '77', referral: 'utm_source=google|' },
  {
    createdAt: new Date('2026-11-30T23:00:00Z'),
    partnerId: '12',
    clientSource: 'ads',
    promocode: 'VERANO26',
  },
  {
    // 30 November, 23:59 local: still in the period. A pair given twice counts once.
    createdAt: new Date('2026-12-01T02:59:00Z'),
    clientSource: '=HYPERLINK("http://x")',
    referral: 'utm_source=meta|utm_source=meta|gclid=abc|',
  },
  // 1 December, 00:00 local: after the period.
  { createdAt: new Date('2026-12-01T03:00:00Z'), partnerId: '12', clientSource: 'ads' },
];

const period = { from: '2026-11-01', to: '2026-11-30' };
const periodStart = Date.parse('2026-11-01T03:00:00Z');
const periodEnd = Date.parse('2026-12-01T03:00:00Z');

/** What the report must say, computed here from the stored rows themselves. */
function expectedFrom(rows: UserRow[], dimension: PartnerReportDimension) {
  const inPeriod = rows.filter(
    (row) => row.createdAt.getTime() >= periodStart && row.createdAt.getTime() < periodEnd,
  );
  const byKey = new Map<string | null, Set<string>>();
  for (const row of inPeriod) {
    const keys: (string | null)[] =
      dimension === 'partner_id'
        ? [row.partnerId]
        : dimension === 'client_source'
          ? [row.clientSource]
          : dimension === 'promocode'
            ? [row.promocode]
            : (row.referral ?? '').split('|').filter(Boolean);
    for (const key of keys.length > 0 ? keys : [null]) {
      const set = byKey.get(key) ?? new Set<string>();
      set.add(row.id);
      byKey.set(key, set);
    }
  }
  const sorted = [...byKey]
    .map(([key, ids]) => ({ key, registrations: ids.size }))
    .sort(
      (a, b) =>
        b.registrations - a.registrations ||
        (a.key === null ? 1 : b.key === null ? -1 : a.key < b.key ? -1 : a.key > b.key ? 1 : 0),
    );
  return { rows: sorted, registrations: inPeriod.length };
}

describe('partner and referral report (decision 057)', () => {
  const clock = manualClock(new Date('2026-12-10T12:00:00Z'));
  const context = useTestApp({ SUPPORT_TIME_ZONE: 'America/Argentina/Buenos_Aires' }, () => ({
    clock,
  }));

  async function seed() {
    const repository = new UsersRepository(context.app.database.db);
    for (const [index, registration] of registrations.entries()) {
      await repository.create({
        name: 'Ana',
        lastName: 'Prueba',
        email: `usuario${String(index)}@example.com`,
        passwordHash: 'not-a-real-hash',
        ...registration,
      });
    }
    return context.app.database.db.select().from(usersTable);
  }

  const report = async (headers: Record<string, string>, dimension: PartnerReportDimension) => {
    const response = await context.app.inject({
      url: `${v1}/admin/reports/partners?from=${period.from}&to=${period.to}&dimension=${dimension}`,
      headers,
    });
    expect(response.statusCode).toBe(200);
    return response.json<{ data: PartnerReport }>().data;
  };

  it('matches the rows it is computed from, for every dimension', async () => {
    const rows = await seed();
    const headers = await signedInAdmin(context.app, clock, await createAdmin(context.app));
    for (const dimension of ['partner_id', 'client_source', 'promocode', 'referral'] as const) {
      const answer = await report(headers, dimension);
      expect(answer).toEqual({
        dimension,
        ...period,
        timeZone: 'America/Argentina/Buenos_Aires',
        ...expectedFrom(rows, dimension),
      });
    }
    // The same figures, written out, so that a shared mistake in both cannot pass.
    expect((await report(headers, 'partner_id')).rows).toEqual([
      { key: '77', registrations: 2 },
      { key: '12', registrations: 1 },
      { key: null, registrations: 1 },
    ]);
    const referral = await report(headers, 'referral');
    expect(referral.registrations).toBe(4);
    expect(referral.rows).toEqual([
      { key: 'utm_source=google', registrations: 2 },
      { key: 'gclid=abc', registrations: 1 },
      { key: 'utm_campaign=Invierno', registrations: 1 },
      { key: 'utm_source=meta', registrations: 1 },
      { key: null, registrations: 1 },
    ]);
  });

  it('exports CSV that a spreadsheet reads as text, and audits the export', async () => {
    await seed();
    const admin = await createAdmin(context.app);
    const headers = await signedInAdmin(context.app, clock, admin);
    const response = await context.app.inject({
      url: `${v1}/admin/reports/partners.csv?from=${period.from}&to=${period.to}&dimension=client_source`,
      headers,
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toBe(
      'attachment; filename="partners-client_source-2026-11-01-2026-11-30.csv"',
    );
    expect(response.body).toBe(
      [
        'client_source,registrations',
        `"'=HYPERLINK(""http://x"")",1`,
        'ads,1',
        'newsletter,1',
        ',1',
        '',
      ].join('\r\n'),
    );
    const [entry] = await auditEntries(context.app, headers);
    expect(entry).toMatchObject({
      action: 'report.exported',
      targetType: 'partner_report',
      after: { dimension: 'client_source', ...period, rows: 4, registrations: 4 },
      admin: { email: admin.email },
    });
  });

  it('refuses a reversed period and an unknown dimension', async () => {
    const headers = await signedInAdmin(context.app, clock, await createAdmin(context.app));
    const reversed = await context.app.inject({
      url: `${v1}/admin/reports/partners?from=2026-11-30&to=2026-11-01&dimension=partner_id`,
      headers,
    });
    expect(reversed.statusCode).toBe(422);
    expect(reversed.json()).toMatchObject({
      errors: { to: ['La fecha final debe ser igual o posterior a la inicial'] },
    });
    const unknown = await context.app.inject({
      url: `${v1}/admin/reports/partners?from=2026-11-01&to=2026-11-30&dimension=country`,
      headers,
    });
    expect(unknown.statusCode).toBe(422);
  });
});
