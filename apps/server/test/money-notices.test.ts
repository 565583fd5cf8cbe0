import { plans } from '@tradebot/contract';
import { eq } from 'drizzle-orm';
import { simpleParser } from 'mailparser';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/database';
import { moneyNotices, notificationOutbox, subscriptions, users } from '../src/db/schema';
import { DrizzleJobClaims } from '../src/repositories/job-claims.repository';
import { MoneyNoticesRepository } from '../src/repositories/money-notices.repository';
import { MoneyNoticesService } from '../src/services/money-notices.service';
import { useTestApp } from './helpers/app';
import { getSettings, manualClock, readMails } from './helpers/accounts';
import { customer, pay, simSecret, testCards } from './helpers/billing';
import { createTestDatabase, type TestDatabase } from './helpers/database';

// Decision 148: money notices are recorded once per (user, kind, period) with their outbox row,
// whatever the runs and the processes; a failed charge is told at once.

const dayMs = 86_400_000;
const now = new Date('2026-12-01T12:00:00Z');
const inDays = (days: number) => new Date(now.getTime() + days * dayMs);

async function aUser(db: Database['db'], email: string, deleted = false): Promise<string> {
  const [row] = await db
    .insert(users)
    .values({
      name: 'Ana',
      lastName: 'Test',
      email,
      passwordHash: 'x',
      ...(deleted ? { deletedAt: now } : {}),
    })
    .returning({ id: users.id });
  if (!row) throw new Error('no user');
  return row.id;
}

function subscription(
  userId: string,
  values: Partial<typeof subscriptions.$inferInsert>,
): typeof subscriptions.$inferInsert {
  return {
    userId,
    provider: 'simulated',
    providerSubscriptionId: `sub_${userId}`,
    providerCustomerId: `cus_${userId}`,
    plan: 'yearly',
    status: 'active',
    startedAt: inDays(-358),
    currentPeriodStart: inDays(-358),
    currentPeriodEnd: inDays(7),
    cancelAtPeriodEnd: false,
    accessUntil: inDays(8),
    ...values,
  };
}

/** One server process's job on `db`, named `owner`. */
const processOn = (db: Database['db'], owner: string) =>
  new MoneyNoticesService({
    store: new MoneyNoticesRepository(db),
    claims: new DrizzleJobClaims(db, owner),
    clock: { now: () => now },
    onError: (error) => {
      throw error;
    },
  });

describe('the money notices job on the database', () => {
  let testDatabase: TestDatabase;
  beforeEach(async () => {
    testDatabase = await createTestDatabase();
  });
  afterEach(async () => {
    await testDatabase.drop();
  });

  it('writes one outbox row per notice due, and a second run writes none', async () => {
    const { db } = testDatabase.database;
    const renewing = await aUser(db, 'renewing@example.com');
    const monthly = await aUser(db, 'monthly@example.com');
    const cancelled = await aUser(db, 'cancelled@example.com');
    const free = await aUser(db, 'free@example.com');
    const early = await aUser(db, 'early@example.com');
    const gone = await aUser(db, 'gone@example.com', true);
    await db.insert(subscriptions).values([
      subscription(renewing, {}),
      subscription(monthly, { plan: 'monthly', currentPeriodEnd: inDays(3) }),
      subscription(cancelled, { cancelAtPeriodEnd: true }),
      subscription(free, {
        provider: 'promo',
        providerSubscriptionId: null,
        providerCustomerId: null,
        plan: null,
        status: 'trialing',
        currentPeriodEnd: inDays(3),
        accessUntil: inDays(3),
      }),
      subscription(early, { currentPeriodEnd: new Date(inDays(7).getTime() + 1) }),
      subscription(gone, {}),
    ]);
    const job = processOn(db, 'process-a');
    expect(await job.runDue()).toBe(2);
    const rows = await db
      .select({
        userId: notificationOutbox.userId,
        kind: notificationOutbox.kind,
        delivery: notificationOutbox.delivery,
        payload: notificationOutbox.payload,
      })
      .from(notificationOutbox);
    expect(rows.map((row) => [row.userId, row.kind]).sort()).toEqual(
      [
        [renewing, 'renewal_notice'],
        [free, 'free_month_ending'],
      ].sort(),
    );
    expect(rows.find((row) => row.kind === 'renewal_notice')?.payload).toEqual({
      kind: 'renewal_notice',
      plan: 'yearly',
      amountCents: plans.yearly.priceCents,
      chargeAt: inDays(7).toISOString(),
    });
    // Each is its own delivery, and has its period's row.
    expect(rows.every((row) => row.delivery !== null)).toBe(true);
    expect(await db.select().from(moneyNotices)).toHaveLength(2);

    expect(await job.runDue()).toBe(0);
    expect(await db.select().from(notificationOutbox)).toHaveLength(2);
  });

  it('three processes running at once record each notice once', async () => {
    const { db } = testDatabase.database;
    for (let index = 0; index < 5; index++) {
      const userId = await aUser(db, `user${String(index)}@example.com`);
      await db.insert(subscriptions).values(subscription(userId, {}));
    }
    const counts = await Promise.all(
      ['a', 'b', 'c'].map((owner) => processOn(db, `process-${owner}`).runDue()),
    );
    expect(counts.reduce((sum, count) => sum + count, 0)).toBe(5);
    expect(await db.select().from(notificationOutbox)).toHaveLength(5);
  });

  it('a process whose claims were pruned still records nothing twice: the period’s row says sent', async () => {
    const { db } = testDatabase.database;
    const userId = await aUser(db, 'ana@example.com');
    await db.insert(subscriptions).values(subscription(userId, {}));
    expect(await processOn(db, 'process-a').runDue()).toBe(1);
    const store = new MoneyNoticesRepository(db);
    const [notice] = await store.candidates(now, 7 * dayMs);
    if (!notice) throw new Error('no candidate');
    // As if the claims had been forgotten and the rules had not seen the row: the insert refuses.
    expect(
      await store.record({
        userId,
        kind: 'renewal_notice',
        period: `${notice.id}:${notice.currentPeriodEnd.toISOString()}`,
        facts: {
          kind: 'renewal_notice',
          plan: 'yearly',
          amountCents: 1,
          chargeAt: inDays(7).toISOString(),
        },
      }),
    ).toBe(false);
    expect(await db.select().from(notificationOutbox)).toHaveLength(1);
  });
});

describe('money notices in the app', () => {
  let clock = manualClock();
  const context = useTestApp(
    () => ({ SIM_PAY_WEBHOOK_SECRET: simSecret }),
    () => {
      clock = manualClock(new Date('2026-11-21T12:00:00Z'));
      return { clock, billingTimers: false, notificationTimers: false };
    },
  );
  beforeEach(async () => {
    await context.app.listen({ port: 0, host: '127.0.0.1' });
  });

  const outboxOf = async (userId: string) =>
    context.app.database.db
      .select({ kind: notificationOutbox.kind })
      .from(notificationOutbox)
      .where(eq(notificationOutbox.userId, userId));

  it('a declined renewal is told at once: one e-mail, with the payment page, once per period', async () => {
    const { app } = context;
    const user = await customer(app, clock);
    await pay(app, user, 'monthly', testCards.renewalsDeclined);
    const userId = (await getSettings(app, await user.token())).json<{
      data: { user: { id: string } };
    }>().data.user.id;
    const before = (await readMails(context.mailDir, 2)).length;
    clock.advance(30 * dayMs + 60_000);
    await app.services.billing.runDue();
    // Billing's event recorded it; no money-notices run was needed.
    expect(await outboxOf(userId)).toEqual([{ kind: 'payment_failed' }]);
    await app.services.notifications.runDue();
    const mails = await Promise.all(
      (await readMails(context.mailDir, before + 1)).map((mail) => simpleParser(mail)),
    );
    const notice = mails.find((mail) => mail.subject === 'No pudimos cobrar tu suscripción');
    expect(notice?.text?.replace(/\s+/g, ' ')).toContain(
      'No pudimos cobrar USD 29.00 del plan mensual a tu tarjeta.',
    );
    expect(notice?.text).toContain('Volveremos a intentar el cobro el 22 de diciembre de 2026');
    expect(notice?.text).toMatch(/https?:\/\/[^\s]+\/payment/);
    // The retry a day later fails again, in the same period: no second notice.
    clock.advance(dayMs);
    await app.services.billing.runDue();
    expect(await app.services.moneyNotices.runDue()).toBe(0);
    expect(await outboxOf(userId)).toEqual([{ kind: 'payment_failed' }]);
  });

  it('a yearly plan is told 7 days before it renews, once', async () => {
    const { app } = context;
    const user = await customer(app, clock, { language: 'pt' });
    await pay(app, user, 'yearly');
    expect(await app.services.moneyNotices.runDue()).toBe(0);
    clock.advance(365 * dayMs - 7 * dayMs);
    expect(await app.services.moneyNotices.runDue()).toBe(1);
    expect(await app.services.moneyNotices.runDue()).toBe(0);
    await app.services.notifications.runDue();
    const mails = await Promise.all(
      (await readMails(context.mailDir, 3)).map((mail) => simpleParser(mail)),
    );
    expect(mails.map((mail) => mail.subject)).toContain(
      'Seu plano anual será renovado em 21 de novembro de 2027',
    );
  });
});
