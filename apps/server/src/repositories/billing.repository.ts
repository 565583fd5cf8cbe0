import type { BillingOverview } from '@tradebot/contract';
import { and, desc, eq, gte, inArray, isNull, lte, sql } from 'drizzle-orm';
import type { Db } from '../db/database';
import type { Tx } from './transaction';
import {
  billingEvents,
  brokerGifts,
  payments,
  platformDeposits,
  subscriptions,
  userSettings,
} from '../db/schema';
import { refusingDuplicates } from './errors';
import { accountKindOf, linkRowOf } from './trading.repository';

export type SubscriptionRow = typeof subscriptions.$inferSelect;
export type NewSubscription = typeof subscriptions.$inferInsert;
export type PaymentRow = typeof payments.$inferSelect;
export type NewPayment = typeof payments.$inferInsert;
export type GiftRow = typeof brokerGifts.$inferSelect;
/** The linked account as the payment page names it: where it lives and its currency. */
export type LinkedAccount = NonNullable<BillingOverview['account']>;
/** A transaction, or the database itself. */
export type { Tx };

/** The billing port services depend on; `BillingRepository` is its database implementation. */
export interface BillingStore {
  transaction<T>(work: (tx: Tx) => Promise<T>): Promise<T>;
  /** Newest first. */
  subscriptionsOf(userId: string, db?: Db): Promise<SubscriptionRow[]>;
  /** Newest first. */
  paymentsOf(userId: string): Promise<PaymentRow[]>;
  firstPayment(userId: string): Promise<PaymentRow | undefined>;
  giftOf(userId: string): Promise<GiftRow | undefined>;
  /**
   * The linked account (issue 39): the built-in platform's is USD, a cTrader account's is what
   * its broker said when it was picked (decision 097); null while nothing is linked.
   */
  linkedAccount(userId: string): Promise<LinkedAccount | null>;
  findSubscription(
    provider: string,
    providerSubscriptionId: string,
    db?: Db,
  ): Promise<SubscriptionRow | undefined>;
  findPaymentByRefundRef(provider: string, refundRef: string): Promise<PaymentRow | undefined>;
  /** True the first time an event is recorded; a replay finds it there. */
  recordEvent(
    tx: Tx,
    event: {
      provider: string;
      eventId: string;
      type: string;
      receivedAt: Date;
    },
  ): Promise<boolean>;
  eventSeen(provider: string, eventId: string): Promise<boolean>;
  /** Stores a provider subscription's current state (keyed by the provider's id). */
  upsertSubscription(tx: Tx, row: NewSubscription): Promise<SubscriptionRow>;
  /**
   * Stores a payment once. A refund the provider reports later is added to the stored row.
   * Says whether the row was new and whether its refund is new.
   */
  upsertPayment(
    tx: Tx,
    row: NewPayment,
  ): Promise<{
    payment: PaymentRow;
    inserted: boolean;
    refundedNow: boolean;
  }>;
  /** Says why a refund is about to be asked of the provider, before its event can arrive. */
  noteRefundReason(paymentId: string, reason: string): Promise<void>;
  hasAnySubscription(tx: Tx, userId: string): Promise<boolean>;
  /** Refused with `DuplicateKey` when the user already had one (one free month per user). */
  insertFreeMonth(tx: Tx, userId: string, start: Date, end: Date): Promise<void>;
  /** A paid subscription takes over from a free month that is still running. */
  endFreeMonth(tx: Tx, userId: string, now: Date): Promise<void>;
  /** Free months whose 30 days are over. Returns their users. */
  endLapsedFreeMonths(now: Date): Promise<string[]>;
  /**
   * `authorized` (spec §3) as the user's subscriptions say at `now`: true while one gives
   * access. A user who never had a subscription keeps the stored flag (accounts from before
   * billing, such as the demo's). Returns true when the stored flag changed.
   */
  syncAuthorized(userId: string, now: Date, tx?: Tx): Promise<boolean>;
  /**
   * Access that ended by `now` (free months over, paid periods past their end with no renewal
   * heard of yet) taken from the users still marked authorized; returns those changed.
   */
  endLapsedAccess(now: Date): Promise<string[]>;
  /**
   * A provider's subscriptions whose period ended by `now` while we still hold them running
   * (active or trialing): their renewal's outcome is read from the provider, not awaited.
   */
  periodsEnded(provider: SubscriptionRow['provider'], now: Date): Promise<string[]>;
  /** A provider's subscriptions still running for users who have more than one (issue 18). */
  severalRunning(provider: SubscriptionRow['provider']): Promise<
    {
      providerSubscriptionId: string;
    }[]
  >;
  /** Users still marked authorized whose subscriptions no longer give access at `now`. */
  usersWithLapsedAccess(now: Date): Promise<string[]>;
  /** Payments of the last `since` whose receipt did not go out (a mail server that failed). */
  unsentReceipts(since: Date): Promise<PaymentRow[]>;
  markReceiptSent(paymentId: string, at: Date): Promise<void>;
  /** Owes the gift once per user: a second yearly payment owes nothing more. */
  oweGift(
    tx: Tx,
    gift: {
      userId: string;
      paymentId: string;
      cents: number;
      owedAt: Date;
    },
  ): Promise<void>;
  /** A gift not granted yet goes with the payment that owed it. */
  cancelOwedGift(tx: Tx, paymentId: string): Promise<void>;
  /** owed -> granting, once: the deposit about to be made is this gift's. */
  startGrant(userId: string, at: Date): Promise<boolean>;
  restartGrant(userId: string, at: Date): Promise<void>;
  finishGrant(userId: string, at: Date): Promise<void>;
  /** Gifts waiting for a deposit (owed, or interrupted between the deposit and its record). */
  pendingGifts(): Promise<GiftRow[]>;
  /** Whether the platform booked a deposit of exactly `cents` at or after `since` (robot time). */
  depositBookedSince(accountId: string, cents: number, since: Date): Promise<boolean>;
}

/** Subscriptions, payments, applied events and broker gifts (decision 047). */
export class BillingRepository implements BillingStore {
  constructor(private readonly db: Db) {}

  transaction<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    return this.db.transaction(work);
  }

  /** Newest first. */
  async subscriptionsOf(userId: string, db: Db = this.db): Promise<SubscriptionRow[]> {
    return db
      .select()
      .from(subscriptions)
      .where(eq(subscriptions.userId, userId))
      .orderBy(desc(subscriptions.createdAt), desc(subscriptions.startedAt));
  }

  /** Newest first. */
  async paymentsOf(userId: string): Promise<PaymentRow[]> {
    return this.db
      .select()
      .from(payments)
      .where(eq(payments.userId, userId))
      .orderBy(desc(payments.paidAt));
  }

  async firstPayment(userId: string): Promise<PaymentRow | undefined> {
    const [row] = await this.db
      .select()
      .from(payments)
      .where(eq(payments.userId, userId))
      .orderBy(payments.paidAt)
      .limit(1);
    return row;
  }

  async giftOf(userId: string): Promise<GiftRow | undefined> {
    const [row] = await this.db
      .select()
      .from(brokerGifts)
      .where(eq(brokerGifts.userId, userId))
      .limit(1);
    return row;
  }

  async linkedAccount(userId: string): Promise<LinkedAccount | null> {
    const row = await linkRowOf(this.db, userId);
    if (!row) return null;
    const kind = accountKindOf(row);
    return { kind, currency: kind === 'simulated' ? 'USD' : (row.brokerAccount?.currency ?? null) };
  }

  async findSubscription(
    provider: string,
    providerSubscriptionId: string,
    db: Db = this.db,
  ): Promise<SubscriptionRow | undefined> {
    const [row] = await db
      .select()
      .from(subscriptions)
      .where(
        and(
          eq(subscriptions.provider, provider as SubscriptionRow['provider']),
          eq(subscriptions.providerSubscriptionId, providerSubscriptionId),
        ),
      )
      .limit(1);
    return row;
  }

  async findPaymentByRefundRef(
    provider: string,
    refundRef: string,
  ): Promise<PaymentRow | undefined> {
    const [row] = await this.db
      .select()
      .from(payments)
      .where(
        and(
          eq(payments.provider, provider as PaymentRow['provider']),
          eq(payments.refundRef, refundRef),
        ),
      )
      .limit(1);
    return row;
  }

  /** True the first time an event is recorded; a replay finds it there. */
  async recordEvent(
    tx: Tx,
    event: { provider: string; eventId: string; type: string; receivedAt: Date },
  ): Promise<boolean> {
    const inserted = await tx
      .insert(billingEvents)
      .values(event)
      .onConflictDoNothing()
      .returning({ eventId: billingEvents.eventId });
    return inserted.length > 0;
  }

  async eventSeen(provider: string, eventId: string): Promise<boolean> {
    const [row] = await this.db
      .select({ eventId: billingEvents.eventId })
      .from(billingEvents)
      .where(and(eq(billingEvents.provider, provider), eq(billingEvents.eventId, eventId)))
      .limit(1);
    return row !== undefined;
  }

  /** Stores a provider subscription's current state (keyed by the provider's id). */
  async upsertSubscription(tx: Tx, row: NewSubscription): Promise<SubscriptionRow> {
    const [stored] = await tx
      .insert(subscriptions)
      .values(row)
      .onConflictDoUpdate({
        target: [subscriptions.provider, subscriptions.providerSubscriptionId],
        set: {
          providerCustomerId: row.providerCustomerId,
          plan: row.plan,
          status: row.status,
          currentPeriodStart: row.currentPeriodStart,
          currentPeriodEnd: row.currentPeriodEnd,
          cancelAtPeriodEnd: row.cancelAtPeriodEnd,
          accessUntil: row.accessUntil,
          nextPaymentAttemptAt: row.nextPaymentAttemptAt ?? null,
          endedAt: row.endedAt,
          refundedAt: sql`coalesce(${subscriptions.refundedAt}, excluded.refunded_at)`,
          updatedAt: row.updatedAt,
        },
      })
      .returning();
    if (!stored) throw new Error('subscription upsert returned no row');
    return stored;
  }

  /**
   * Stores a payment once. A refund the provider reports later is added to the stored row.
   * Says whether the row was new and whether its refund is new.
   */
  async upsertPayment(
    tx: Tx,
    row: NewPayment,
  ): Promise<{ payment: PaymentRow; inserted: boolean; refundedNow: boolean }> {
    const [inserted] = await tx.insert(payments).values(row).onConflictDoNothing().returning();
    if (inserted)
      return { payment: inserted, inserted: true, refundedNow: inserted.refundedAt !== null };
    const [existing] = await tx
      .select()
      .from(payments)
      .where(
        and(
          eq(payments.provider, row.provider),
          eq(payments.providerPaymentId, row.providerPaymentId),
        ),
      )
      .for('update');
    if (!existing) throw new Error('payment vanished');
    if (existing.refundedAt !== null || !row.refundedAt) {
      return { payment: existing, inserted: false, refundedNow: false };
    }
    const [updated] = await tx
      .update(payments)
      .set({
        refundedAt: row.refundedAt,
        refundReason: sql`coalesce(${payments.refundReason}, ${row.refundReason ?? 'provider'})`,
      })
      .where(eq(payments.id, existing.id))
      .returning();
    if (!updated) throw new Error('payment vanished');
    return { payment: updated, inserted: false, refundedNow: true };
  }

  /** Says why a refund is about to be asked of the provider, before its event can arrive. */
  async noteRefundReason(paymentId: string, reason: string): Promise<void> {
    await this.db
      .update(payments)
      .set({ refundReason: reason })
      .where(and(eq(payments.id, paymentId), isNull(payments.refundedAt)));
  }

  async hasAnySubscription(tx: Tx, userId: string): Promise<boolean> {
    const [row] = await tx
      .select({ id: subscriptions.id })
      .from(subscriptions)
      .where(eq(subscriptions.userId, userId))
      .limit(1);
    return row !== undefined;
  }

  /** Refused with `DuplicateKey` when the user already had one (one free month per user). */
  async insertFreeMonth(tx: Tx, userId: string, start: Date, end: Date): Promise<void> {
    await refusingDuplicates(() =>
      tx.insert(subscriptions).values({
        userId,
        provider: 'promo',
        status: 'trialing',
        startedAt: start,
        currentPeriodStart: start,
        currentPeriodEnd: end,
        accessUntil: end,
        createdAt: start,
        updatedAt: start,
      }),
    );
  }

  /** A paid subscription takes over from a free month that is still running. */
  async endFreeMonth(tx: Tx, userId: string, now: Date): Promise<void> {
    await tx
      .update(subscriptions)
      .set({ status: 'canceled', accessUntil: null, endedAt: now, updatedAt: now })
      .where(
        and(
          eq(subscriptions.userId, userId),
          eq(subscriptions.provider, 'promo'),
          eq(subscriptions.status, 'trialing'),
        ),
      );
  }

  /** Free months whose 30 days are over. Returns their users. */
  async endLapsedFreeMonths(now: Date): Promise<string[]> {
    const rows = await this.db
      .update(subscriptions)
      .set({
        status: 'canceled',
        accessUntil: null,
        endedAt: subscriptions.currentPeriodEnd,
        updatedAt: now,
      })
      .where(
        and(
          eq(subscriptions.provider, 'promo'),
          eq(subscriptions.status, 'trialing'),
          lte(subscriptions.currentPeriodEnd, now),
        ),
      )
      .returning({ userId: subscriptions.userId });
    return rows.map((row) => row.userId);
  }

  /**
   * `authorized` (spec §3) as the user's subscriptions say at `now`: true while one gives
   * access. A user who never had a subscription keeps the stored flag (accounts from before
   * billing, such as the demo's). Returns true when the stored flag changed.
   */
  async syncAuthorized(userId: string, now: Date, tx: Tx = this.db): Promise<boolean> {
    const rows = await tx
      .select({ accessUntil: subscriptions.accessUntil })
      .from(subscriptions)
      .where(eq(subscriptions.userId, userId));
    if (rows.length === 0) return false;
    const authorized = rows.some((row) => row.accessUntil !== null && row.accessUntil > now);
    const changed = await tx
      .update(userSettings)
      .set({ authorized, updatedAt: now })
      .where(and(eq(userSettings.userId, userId), sql`${userSettings.authorized} <> ${authorized}`))
      .returning({ userId: userSettings.userId });
    return changed.length > 0;
  }

  /**
   * Access that ended by `now` (free months over, paid periods past their end with no renewal
   * heard of yet) taken from the users still marked authorized; returns those changed.
   */
  async endLapsedAccess(now: Date): Promise<string[]> {
    const ended = await this.endLapsedFreeMonths(now);
    const lapsed = await this.usersWithLapsedAccess(now);
    const changed: string[] = [];
    for (const userId of new Set([...ended, ...lapsed])) {
      if (await this.syncAuthorized(userId, now)) changed.push(userId);
    }
    return changed;
  }

  /**
   * A provider's subscriptions whose period ended by `now` while we still hold them running
   * (active or trialing): their renewal's outcome is read from the provider, not awaited.
   */
  async periodsEnded(provider: SubscriptionRow['provider'], now: Date): Promise<string[]> {
    const rows = await this.db
      .select({ providerSubscriptionId: subscriptions.providerSubscriptionId })
      .from(subscriptions)
      .where(
        and(
          eq(subscriptions.provider, provider),
          inArray(subscriptions.status, ['trialing', 'active']),
          lte(subscriptions.currentPeriodEnd, now),
        ),
      )
      .limit(100);
    return rows.flatMap((row) => (row.providerSubscriptionId ? [row.providerSubscriptionId] : []));
  }

  /** A provider's subscriptions still running for users who have more than one (issue 18). */
  async severalRunning(
    provider: SubscriptionRow['provider'],
  ): Promise<{ providerSubscriptionId: string }[]> {
    const running = and(
      eq(subscriptions.provider, provider),
      inArray(subscriptions.status, ['trialing', 'active', 'past_due']),
    );
    const rows = await this.db
      .select({ providerSubscriptionId: subscriptions.providerSubscriptionId })
      .from(subscriptions)
      .where(
        and(
          running,
          inArray(
            subscriptions.userId,
            this.db
              .select({ userId: subscriptions.userId })
              .from(subscriptions)
              .where(running)
              .groupBy(subscriptions.userId)
              .having(sql`count(*) > 1`),
          ),
        ),
      )
      .limit(100);
    return rows.flatMap((row) =>
      row.providerSubscriptionId ? [{ providerSubscriptionId: row.providerSubscriptionId }] : [],
    );
  }

  /** Users still marked authorized whose subscriptions no longer give access at `now`. */
  async usersWithLapsedAccess(now: Date): Promise<string[]> {
    const rows = await this.db
      .selectDistinct({ userId: subscriptions.userId })
      .from(subscriptions)
      .innerJoin(userSettings, eq(userSettings.userId, subscriptions.userId))
      .where(
        and(
          eq(userSettings.authorized, true),
          sql`not exists (select 1 from ${subscriptions} s2 where s2.user_id = ${subscriptions.userId} and s2.access_until > ${now})`,
        ),
      );
    return rows.map((row) => row.userId);
  }

  /** Payments of the last `since` whose receipt did not go out (a mail server that failed). */
  async unsentReceipts(since: Date): Promise<PaymentRow[]> {
    return this.db
      .select()
      .from(payments)
      .where(and(isNull(payments.receiptSentAt), gte(payments.paidAt, since)))
      .limit(100);
  }

  async markReceiptSent(paymentId: string, at: Date): Promise<void> {
    await this.db.update(payments).set({ receiptSentAt: at }).where(eq(payments.id, paymentId));
  }

  /** Owes the gift once per user: a second yearly payment owes nothing more. */
  async oweGift(tx: Tx, gift: { userId: string; paymentId: string; cents: number; owedAt: Date }) {
    await tx
      .insert(brokerGifts)
      .values({ ...gift, status: 'owed' })
      .onConflictDoNothing();
  }

  /** A gift not granted yet goes with the payment that owed it. */
  async cancelOwedGift(tx: Tx, paymentId: string): Promise<void> {
    await tx
      .update(brokerGifts)
      .set({ status: 'canceled' })
      .where(and(eq(brokerGifts.paymentId, paymentId), eq(brokerGifts.status, 'owed')));
  }

  /** owed -> granting, once: the deposit about to be made is this gift's. */
  async startGrant(userId: string, at: Date): Promise<boolean> {
    const rows = await this.db
      .update(brokerGifts)
      .set({ status: 'granting', grantStartedAt: at })
      .where(and(eq(brokerGifts.userId, userId), eq(brokerGifts.status, 'owed')))
      .returning({ userId: brokerGifts.userId });
    return rows.length > 0;
  }

  async restartGrant(userId: string, at: Date): Promise<void> {
    await this.db
      .update(brokerGifts)
      .set({ grantStartedAt: at })
      .where(and(eq(brokerGifts.userId, userId), eq(brokerGifts.status, 'granting')));
  }

  async finishGrant(userId: string, at: Date): Promise<void> {
    await this.db
      .update(brokerGifts)
      .set({ status: 'granted', grantedAt: at })
      .where(and(eq(brokerGifts.userId, userId), eq(brokerGifts.status, 'granting')));
  }

  /** Gifts waiting for a deposit (owed, or interrupted between the deposit and its record). */
  async pendingGifts(): Promise<GiftRow[]> {
    return this.db
      .select()
      .from(brokerGifts)
      .where(inArray(brokerGifts.status, ['owed', 'granting']));
  }

  /** Whether the platform booked a deposit of exactly `cents` at or after `since` (robot time). */
  async depositBookedSince(accountId: string, cents: number, since: Date): Promise<boolean> {
    const [row] = await this.db
      .select({ cents: platformDeposits.cents })
      .from(platformDeposits)
      .where(
        and(
          eq(platformDeposits.accountId, accountId),
          eq(platformDeposits.cents, cents),
          gte(platformDeposits.depositedAt, since),
        ),
      )
      .limit(1);
    return row !== undefined;
  }
}
