import type { PartnerReport, PartnerReportDimension } from '@tradebot/contract';
import { describe, expect, it } from 'vitest';
import { payments, subscriptions, users as usersTable } from '../src/db/schema';
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

/**
 * Payments by the index of the registration above: in the period or not, refunded in it or
 * not, in USD and (as Stripe writes it) lower-case "brl". Accounts registered before the period
 * pay in it too: their payments count, their registrations do not.
 */
const seededPayments: {
  user: number;
  cents: number;
  currency: string;
  paidAt: string;
  refundedAt?: string;
}[] = [
  { user: 0, cents: 2_900, currency: 'USD', paidAt: '2026-11-02T10:00:00Z' },
  // Paid in the period, refunded in it: counted in both, net zero.
  {
    user: 0,
    cents: 29_000,
    currency: 'USD',
    paidAt: '2026-11-03T10:00:00Z',
    refundedAt: '2026-11-20T10:00:00Z',
  },
  // Registered before the period, pays in it.
  { user: 1, cents: 2_900, currency: 'USD', paidAt: '2026-11-10T10:00:00Z' },
  // Paid before the period, refunded in it: only the refund counts (net negative).
  {
    user: 1,
    cents: 2_900,
    currency: 'USD',
    paidAt: '2026-10-10T10:00:00Z',
    refundedAt: '2026-11-05T10:00:00Z',
  },
  // Paid in the period, refunded after it: a payment, no refund in the period.
  {
    user: 2,
    cents: 2_900,
    currency: 'USD',
    paidAt: '2026-11-30T10:00:00Z',
    refundedAt: '2026-12-02T10:00:00Z',
  },
  // The last instant of the period, in another currency.
  { user: 3, cents: 15_000, currency: 'brl', paidAt: '2026-12-01T02:59:59Z' },
  { user: 4, cents: 2_900, currency: 'USD', paidAt: '2026-11-15T00:00:00Z' },
  // After the period.
  { user: 5, cents: 2_900, currency: 'USD', paidAt: '2026-12-01T03:00:00Z' },
];

interface SeededPayment {
  userId: string;
  amountCents: number;
  currency: string;
  paidAt: Date;
  refundedAt: Date | null;
}

const inPeriod = (at: Date | null) =>
  at !== null && at.getTime() >= periodStart && at.getTime() < periodEnd;

function keysOf(row: UserRow, dimension: PartnerReportDimension): (string | null)[] {
  const keys: (string | null)[] =
    dimension === 'partner_id'
      ? [row.partnerId]
      : dimension === 'client_source'
        ? [row.clientSource]
        : dimension === 'promocode'
          ? [row.promocode]
          : [...new Set((row.referral ?? '').split('|').filter(Boolean))];
  return keys.length > 0 ? keys : [null];
}

/** What the report must say, computed here from the stored rows themselves. */
function expectedFrom(
  rows: UserRow[],
  payments: SeededPayment[],
  dimension: PartnerReportDimension,
) {
  const registered = rows.filter((row) => inPeriod(row.createdAt));
  const paid = payments.filter((payment) => inPeriod(payment.paidAt));
  const refunded = payments.filter((payment) => inPeriod(payment.refundedAt));
  const currencies = [
    ...new Set([...paid, ...refunded].map((payment) => payment.currency.toUpperCase())),
  ].sort();
  const revenue = (paidHere: SeededPayment[], refundedHere: SeededPayment[]) =>
    currencies.map((currency) => {
      const sum = (list: SeededPayment[]) =>
        list
          .filter((payment) => payment.currency.toUpperCase() === currency)
          .reduce((total, payment) => total + payment.amountCents, 0);
      const grossCents = sum(paidHere);
      const refundedCents = sum(refundedHere);
      return { currency, grossCents, refundedCents, netCents: grossCents - refundedCents };
    });
  const userById = new Map(rows.map((row) => [row.id, row]));
  const keysOfUser = (userId: string) => {
    const user = userById.get(userId);
    if (!user) throw new Error('payment of an unknown user');
    return keysOf(user, dimension);
  };
  const allKeys = new Set<string | null>([
    ...registered.flatMap((row) => keysOf(row, dimension)),
    ...[...paid, ...refunded].flatMap((payment) => keysOfUser(payment.userId)),
  ]);
  const sorted = [...allKeys]
    .map((key) => {
      const paidHere = paid.filter((payment) => keysOfUser(payment.userId).includes(key));
      const refundedHere = refunded.filter((payment) => keysOfUser(payment.userId).includes(key));
      return {
        key,
        registrations: registered.filter((row) => keysOf(row, dimension).includes(key)).length,
        payments: paidHere.length,
        refunds: refundedHere.length,
        revenue: revenue(paidHere, refundedHere),
      };
    })
    .sort(
      (a, b) =>
        b.registrations - a.registrations ||
        b.payments - a.payments ||
        (a.key === null ? 1 : b.key === null ? -1 : a.key < b.key ? -1 : a.key > b.key ? 1 : 0),
    );
  return {
    currencies,
    rows: sorted,
    registrations: registered.length,
    payments: paid.length,
    refunds: refunded.length,
    revenue: revenue(paid, refunded),
  };
}

describe('partner and referral report (decision 057)', () => {
  const clock = manualClock(new Date('2026-12-10T12:00:00Z'));
  const context = useTestApp({ SUPPORT_TIME_ZONE: 'America/Argentina/Buenos_Aires' }, () => ({
    clock,
  }));

  async function seed() {
    const { db } = context.app.database;
    const repository = new UsersRepository(db);
    const created: UserRow[] = [];
    for (const [index, registration] of registrations.entries()) {
      created.push(
        await repository.create({
          name: 'Ana',
          lastName: 'Prueba',
          email: `usuario${String(index)}@example.com`,
          passwordHash: 'not-a-real-hash',
          ...registration,
        }),
      );
    }
    for (const [index, payment] of seededPayments.entries()) {
      const user = created[payment.user];
      if (!user) throw new Error('no such registration');
      const paidAt = new Date(payment.paidAt);
      const [subscription] = await db
        .insert(subscriptions)
        .values({
          userId: user.id,
          provider: 'simulated',
          providerSubscriptionId: `sub_${String(index)}`,
          plan: 'monthly',
          status: payment.refundedAt ? 'refunded' : 'active',
          startedAt: paidAt,
          currentPeriodStart: paidAt,
          currentPeriodEnd: new Date(paidAt.getTime() + 30 * 86_400_000),
        })
        .returning();
      if (!subscription) throw new Error('no subscription');
      await db.insert(payments).values({
        userId: user.id,
        subscriptionId: subscription.id,
        provider: 'simulated',
        providerPaymentId: `pay_${String(index)}`,
        refundRef: `ref_${String(index)}`,
        plan: 'monthly',
        amountCents: payment.cents,
        currency: payment.currency,
        paidAt,
        periodStart: paidAt,
        periodEnd: new Date(paidAt.getTime() + 30 * 86_400_000),
        refundedAt: payment.refundedAt ? new Date(payment.refundedAt) : null,
      });
    }
    return {
      rows: await db.select().from(usersTable),
      payments: await db
        .select({
          userId: payments.userId,
          amountCents: payments.amountCents,
          currency: payments.currency,
          paidAt: payments.paidAt,
          refundedAt: payments.refundedAt,
        })
        .from(payments),
    };
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
    const stored = await seed();
    const headers = await signedInAdmin(context.app, clock, await createAdmin(context.app));
    for (const dimension of ['partner_id', 'client_source', 'promocode', 'referral'] as const) {
      const answer = await report(headers, dimension);
      expect(answer).toEqual({
        dimension,
        ...period,
        timeZone: 'America/Argentina/Buenos_Aires',
        ...expectedFrom(stored.rows, stored.payments, dimension),
      });
    }
    // The same figures, written out, so that a shared mistake in both cannot pass.
    const usd = (grossCents: number, refundedCents: number) => ({
      currency: 'USD',
      grossCents,
      refundedCents,
      netCents: grossCents - refundedCents,
    });
    const brl = (grossCents: number) => ({
      currency: 'BRL',
      grossCents,
      refundedCents: 0,
      netCents: grossCents,
    });
    const byPartner = await report(headers, 'partner_id');
    expect(byPartner.currencies).toEqual(['BRL', 'USD']);
    expect(byPartner.rows).toEqual([
      {
        key: '77',
        registrations: 2,
        payments: 4,
        refunds: 2,
        revenue: [brl(0), usd(2_900 + 29_000 + 2_900 + 2_900, 29_000 + 2_900)],
      },
      { key: '12', registrations: 1, payments: 1, refunds: 0, revenue: [brl(15_000), usd(0, 0)] },
      { key: null, registrations: 1, payments: 1, refunds: 0, revenue: [brl(0), usd(2_900, 0)] },
    ]);
    expect(byPartner).toMatchObject({
      registrations: 4,
      payments: 6,
      refunds: 2,
      revenue: [brl(15_000), usd(40_600, 31_900)],
    });
    const referral = await report(headers, 'referral');
    expect(referral.registrations).toBe(4);
    expect(
      referral.rows.map(({ key, registrations, payments }) => ({ key, registrations, payments })),
    ).toEqual([
      { key: 'utm_source=google', registrations: 2, payments: 4 },
      { key: 'utm_campaign=Invierno', registrations: 1, payments: 2 },
      { key: 'gclid=abc', registrations: 1, payments: 1 },
      { key: 'utm_source=meta', registrations: 1, payments: 1 },
      { key: null, registrations: 1, payments: 1 },
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
        'client_source,registrations,payments,refunds,gross_BRL,refunded_BRL,net_BRL,gross_USD,refunded_USD,net_USD',
        'newsletter,1,2,1,0.00,0.00,0.00,319.00,290.00,29.00',
        ',1,2,1,0.00,0.00,0.00,58.00,29.00,29.00',
        `"'=HYPERLINK(""http://x"")",1,1,0,0.00,0.00,0.00,29.00,0.00,29.00`,
        'ads,1,1,0,150.00,0.00,150.00,0.00,0.00,0.00',
        '',
      ].join('\r\n'),
    );
    const [entry] = await auditEntries(context.app, headers);
    expect(entry).toMatchObject({
      action: 'report.exported',
      targetType: 'partner_report',
      after: { dimension: 'client_source', ...period, rows: 4, registrations: 4, payments: 6 },
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
