import { createHmac, timingSafeEqual } from 'node:crypto';
import {
  isLanguage,
  plans,
  simulatedPaymentsPath,
  type Language,
  type PlanId,
} from '@tradebot/contract';
import { and, asc, count, desc, eq, inArray, isNull } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { simPayCharges, simPayCheckouts, simPaySubscriptions } from '../../db/schema';
import {
  UnknownObject,
  WebhookRejected,
  type CheckoutInput,
  type CheckoutSessionInfo,
  type PaymentProvider,
  type ProviderEvent,
  type ProviderPayment,
  type ProviderSubscription,
} from '../payment-provider';
import type { CardForm, CardCheck } from './card';
import { checkCard } from './card';
import { addInterval, insertCharge, SimulatedRenewals } from './simulated-renewals';
import {
  newSimulatedId,
  SimulatedWebhookOutbox,
  type Tx,
  type WebhookOutboxOptions,
} from './webhook-outbox';
import { simulatedSignatureHeader, verifyWebhookSignature } from './webhook-signature';

type SubscriptionRow = typeof simPaySubscriptions.$inferSelect;
type CheckoutRow = typeof simPayCheckouts.$inferSelect;
export type SimulatedCheckout = CheckoutRow;
type ChargeRow = typeof simPayCharges.$inferSelect;

const hourMs = 3_600_000;
const dayMs = 24 * hourMs;
/** An open checkout expires after a day, as Stripe's do. */
const checkoutLifetimeMs = dayMs;
/** A link to the card page works for an hour, as Stripe's portal sessions are short-lived. */
const cardPageLifetimeMs = hourMs;

/** What the provider needs is what its outbox needs: the books, the clock, our webhook. */
export type SimulatedProviderOptions = WebhookOutboxOptions;

export type PayOutcome =
  | { kind: 'redirect'; url: string }
  | { kind: 'form'; checkout: CheckoutRow; check: CardCheck | { ok: false; declined: true } }
  /** The customer already has a subscription running: nothing charged, the checkout closed. */
  | { kind: 'subscribed'; checkout: CheckoutRow }
  | { kind: 'gone' };

/** A signed link to the card page: whose card, where the browser goes back, until when. */
export interface CardPageSession {
  customerId: string;
  returnUrl: string;
  language: Language;
  expiresAt: number;
}

/** What the card page shows: the subscription it pays, and a charge due if one failed. */
export interface CardPageView {
  session: CardPageSession;
  plan: PlanId;
  cardBrand: string;
  cardLast4: string;
  /** A past-due charge, tried again with the new card. */
  dueCents: number | null;
}

export type CardUpdateOutcome =
  | { kind: 'redirect'; url: string }
  | { kind: 'form'; view: CardPageView; check: CardCheck | { ok: false; declined: true } }
  | { kind: 'gone' };

const fillSessionId = (url: string, sessionId: string) =>
  url.replaceAll('{CHECKOUT_SESSION_ID}', sessionId);

/**
 * The built-in simulated payment provider (docs/decisions/047-payments.md): the embedded
 * default, so the whole journey works on one machine. It keeps its own books (sim_pay_*),
 * serves its hosted checkout on our port (checkout.routes.ts), renews on the app's clock and
 * tells our webhook what happened as a real provider would: signed events, delivered from a
 * durable outbox and retried with backoff until our endpoint answers 2xx.
 */
export class SimulatedPaymentProvider implements PaymentProvider {
  readonly name = 'simulated' as const;
  readonly hasPortal = true;
  private readonly outbox: SimulatedWebhookOutbox;
  private readonly renewals: SimulatedRenewals;

  constructor(private readonly options: SimulatedProviderOptions) {
    this.outbox = new SimulatedWebhookOutbox(options);
    this.renewals = new SimulatedRenewals({ ...options, outbox: this.outbox });
  }

  private now(): Date {
    return this.options.clock.now();
  }

  stop(): Promise<void> {
    return this.outbox.stop();
  }

  /**
   * Renewals, retries of declined renewals, cancellations at the period's end and expired
   * checkouts, everything due by the clock; then the events due are delivered.
   */
  runDue(): Promise<void> {
    return this.renewals.runDue();
  }

  /** Sends every due event to our webhook; a failed answer is retried later, with backoff. */
  deliverDue(): Promise<void> {
    return this.outbox.deliverDue();
  }

  async createCheckout(input: CheckoutInput): Promise<{ sessionId: string; url: string }> {
    const id = newSimulatedId('cs');
    const now = this.now();
    const plan = plans[input.plan];
    await this.options.db.insert(simPayCheckouts).values({
      id,
      clientReference: input.userId,
      email: input.email,
      language: input.language,
      plan: input.plan,
      amountCents: plan.priceCents,
      currency: plan.currency,
      successUrl: fillSessionId(input.successUrl, id),
      cancelUrl: fillSessionId(input.cancelUrl, id),
      trialEnd: input.trialEndsAt === null ? null : new Date(input.trialEndsAt),
      status: 'open',
      createdAt: now,
      expiresAt: new Date(now.getTime() + checkoutLifetimeMs),
    });
    return { sessionId: id, url: `${simulatedPaymentsPath}/checkout/${id}` };
  }

  /** The checkout as its page shows it; an open one past its lifetime is expired. */
  async checkout(id: string): Promise<CheckoutRow | undefined> {
    const [row] = await this.options.db
      .select()
      .from(simPayCheckouts)
      .where(eq(simPayCheckouts.id, id))
      .limit(1);
    if (row?.status === 'open' && row.expiresAt <= this.now()) return { ...row, status: 'expired' };
    return row;
  }

  async getCheckout(sessionId: string): Promise<CheckoutSessionInfo | undefined> {
    const row = await this.checkout(sessionId);
    return (
      row && {
        id: row.id,
        status: row.status,
        userId: row.clientReference,
        subscriptionId: row.subscriptionId,
      }
    );
  }

  /**
   * The checkout page's form: a valid test card pays (or starts the carried-over trial), the
   * declined one is refused. Paying twice (a resubmitted form) pays once.
   */
  async pay(id: string, form: CardForm): Promise<PayOutcome> {
    const checkout = await this.checkout(id);
    if (!checkout || checkout.status === 'expired') return { kind: 'gone' };
    if (checkout.status === 'complete') return { kind: 'redirect', url: checkout.successUrl };
    const now = this.now();
    const check = checkCard(form, now);
    if (!check.ok) return { kind: 'form', checkout, check };
    if (check.outcome === 'declined') {
      return { kind: 'form', checkout, check: { ok: false, declined: true } };
    }
    const completed = await this.options.db.transaction(async (tx) => {
      // One subscription per customer, held when the money is taken (issue 18): the user's
      // checkouts are locked so two paid side by side see each other, and a checkout opened
      // before another one was paid is refused, uncharged, and closed.
      await tx
        .select({ id: simPayCheckouts.id })
        .from(simPayCheckouts)
        .where(eq(simPayCheckouts.clientReference, checkout.clientReference))
        .orderBy(asc(simPayCheckouts.id))
        .for('update');
      const [running] = await tx
        .select({ id: simPaySubscriptions.id })
        .from(simPaySubscriptions)
        .where(
          and(
            eq(simPaySubscriptions.clientReference, checkout.clientReference),
            inArray(simPaySubscriptions.status, ['trialing', 'active', 'past_due']),
          ),
        )
        .limit(1);
      if (running) {
        await tx
          .update(simPayCheckouts)
          .set({ status: 'expired' })
          .where(and(eq(simPayCheckouts.id, id), eq(simPayCheckouts.status, 'open')));
        return 'subscribed' as const;
      }
      // Only an open checkout completes: a concurrent submission finds it done.
      const [claimed] = await tx
        .update(simPayCheckouts)
        .set({ status: 'complete' })
        .where(and(eq(simPayCheckouts.id, id), eq(simPayCheckouts.status, 'open')))
        .returning();
      if (!claimed) return false;
      const subscriptionId = newSimulatedId('sub');
      const trialEnd = claimed.trialEnd && claimed.trialEnd > now ? claimed.trialEnd : null;
      const periodEnd = trialEnd ?? new Date(addInterval(now.getTime(), claimed.plan));
      await tx.insert(simPaySubscriptions).values({
        id: subscriptionId,
        customerId: newSimulatedId('cus'),
        clientReference: claimed.clientReference,
        plan: claimed.plan,
        amountCents: claimed.amountCents,
        currency: claimed.currency,
        status: trialEnd ? 'trialing' : 'active',
        createdAt: now,
        currentPeriodStart: now,
        currentPeriodEnd: periodEnd,
        cardBrand: check.brand,
        cardLast4: check.last4,
        declinesRenewals: check.outcome === 'renewals_declined',
        nextChargeAt: periodEnd,
      });
      await tx.update(simPayCheckouts).set({ subscriptionId }).where(eq(simPayCheckouts.id, id));
      await this.outbox.record(tx, 'checkout.session.completed', {
        id,
        subscription: subscriptionId,
      });
      await this.outbox.record(tx, 'customer.subscription.created', {
        id: subscriptionId,
        subscription: subscriptionId,
      });
      if (!trialEnd) {
        const chargeId = await insertCharge(tx, {
          subscriptionId,
          amountCents: claimed.amountCents,
          currency: claimed.currency,
          at: now,
          periodStart: now,
          periodEnd,
          cardBrand: check.brand,
          cardLast4: check.last4,
        });
        await this.outbox.record(tx, 'invoice.paid', {
          id: chargeId,
          subscription: subscriptionId,
        });
      }
      return true;
    });
    if (completed === 'subscribed') return { kind: 'subscribed', checkout };
    if (completed) this.outbox.kick();
    return { kind: 'redirect', url: checkout.successUrl };
  }

  private async subscriptionRow(id: string): Promise<SubscriptionRow> {
    const [row] = await this.options.db
      .select()
      .from(simPaySubscriptions)
      .where(eq(simPaySubscriptions.id, id))
      .limit(1);
    if (!row) throw new UnknownObject(`no simulated subscription ${id}`);
    return row;
  }

  async getSubscription(subscriptionId: string): Promise<ProviderSubscription> {
    const row = await this.subscriptionRow(subscriptionId);
    return {
      id: row.id,
      customerId: row.customerId,
      userId: row.clientReference,
      plan: row.plan,
      status: row.status,
      startedAt: row.createdAt.getTime(),
      currentPeriodStart: row.currentPeriodStart.getTime(),
      currentPeriodEnd: row.currentPeriodEnd.getTime(),
      cancelAtPeriodEnd: row.cancelAtPeriodEnd,
      endedAt: row.status === 'canceled' ? (row.canceledAt?.getTime() ?? null) : null,
      nextPaymentAttemptAt:
        row.status === 'past_due' ? (row.nextChargeAt?.getTime() ?? null) : null,
    };
  }

  async getPayment(paymentId: string): Promise<ProviderPayment> {
    const [row] = await this.options.db
      .select()
      .from(simPayCharges)
      .where(eq(simPayCharges.id, paymentId))
      .limit(1);
    if (!row) throw new UnknownObject(`no simulated charge ${paymentId}`);
    return paymentOf(row);
  }

  /** Changes a subscription still running, with the event that reports it; false if none. */
  private async changeLive(
    subscriptionId: string,
    change: Partial<SubscriptionRow>,
    type: 'customer.subscription.updated' | 'customer.subscription.deleted',
  ): Promise<void> {
    const changed = await this.options.db.transaction(async (tx) => {
      const [row] = await tx
        .update(simPaySubscriptions)
        .set(change)
        .where(
          and(
            eq(simPaySubscriptions.id, subscriptionId),
            inArray(simPaySubscriptions.status, ['trialing', 'active', 'past_due']),
          ),
        )
        .returning();
      if (!row) return false;
      await this.outbox.record(tx, type, { id: subscriptionId, subscription: subscriptionId });
      return true;
    });
    if (changed) this.outbox.kick();
  }

  setCancelAtPeriodEnd(subscriptionId: string, cancel: boolean): Promise<void> {
    return this.changeLive(
      subscriptionId,
      { cancelAtPeriodEnd: cancel },
      'customer.subscription.updated',
    );
  }

  /** Refunds a charge in full; refunding it again changes nothing. */
  async refund(refundRef: string): Promise<void> {
    const refunded = await this.options.db.transaction(async (tx) => {
      const [row] = await tx
        .update(simPayCharges)
        .set({ refundedAt: this.now() })
        .where(and(eq(simPayCharges.id, refundRef), isNull(simPayCharges.refundedAt)))
        .returning();
      if (!row) return false;
      await this.outbox.record(tx, 'charge.refunded', {
        id: row.id,
        subscription: row.subscriptionId,
      });
      return true;
    });
    if (refunded) this.outbox.kick();
  }

  cancelNow(subscriptionId: string): Promise<void> {
    return this.changeLive(
      subscriptionId,
      { status: 'canceled', canceledAt: this.now(), nextChargeAt: null },
      'customer.subscription.deleted',
    );
  }

  /**
   * Its "customer portal": a hosted page to change the card (checkout.routes.ts), behind a
   * link signed with the provider's secret, valid for an hour.
   */
  portalUrl(customerId: string, returnUrl: string, language: Language): Promise<string> {
    const session: CardPageSession = {
      customerId,
      returnUrl,
      language,
      expiresAt: this.now().getTime() + cardPageLifetimeMs,
    };
    const payload = Buffer.from(JSON.stringify(session)).toString('base64url');
    return Promise.resolve(
      `${simulatedPaymentsPath}/card?session=${payload}.${this.cardSignature(payload)}`,
    );
  }

  private cardSignature(payload: string): string {
    return createHmac('sha256', this.options.secret)
      .update(`card-page.${payload}`)
      .digest('base64url');
  }

  /** The card page's link read back: undefined when forged, malformed or expired. */
  cardPageSession(token: string): CardPageSession | undefined {
    const [payload, signature, ...rest] = token.split('.');
    if (!payload || !signature || rest.length > 0) return undefined;
    const expected = Buffer.from(this.cardSignature(payload));
    const given = Buffer.from(signature);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return undefined;
    let session: Partial<CardPageSession>;
    try {
      session = JSON.parse(
        Buffer.from(payload, 'base64url').toString('utf8'),
      ) as Partial<CardPageSession>;
    } catch {
      return undefined;
    }
    if (
      typeof session.customerId !== 'string' ||
      typeof session.returnUrl !== 'string' ||
      typeof session.expiresAt !== 'number' ||
      !isLanguage(session.language) ||
      session.expiresAt <= this.now().getTime()
    ) {
      return undefined;
    }
    return session as CardPageSession;
  }

  /** The customer's subscription still running (its card is the one to change). */
  private async runningOf(customerId: string, tx: Tx | Db = this.options.db) {
    const [row] = await tx
      .select()
      .from(simPaySubscriptions)
      .where(
        and(
          eq(simPaySubscriptions.customerId, customerId),
          inArray(simPaySubscriptions.status, ['trialing', 'active', 'past_due']),
        ),
      )
      .orderBy(desc(simPaySubscriptions.createdAt))
      .limit(1);
    return row;
  }

  async cardPage(token: string): Promise<CardPageView | undefined> {
    const session = this.cardPageSession(token);
    const row = session && (await this.runningOf(session.customerId));
    return session && row && cardPageView(session, row);
  }

  /**
   * The card page's form. A test card that pays replaces the card; when a charge is past due
   * it is tried again at once with the new card, and on success the subscription is active
   * again and our webhook hears it (invoice.paid, customer.subscription.updated). Nothing
   * here trusts the browser: the app learns the outcome from the signed events.
   */
  async updateCard(token: string, form: CardForm): Promise<CardUpdateOutcome> {
    const session = this.cardPageSession(token);
    if (!session) return { kind: 'gone' };
    const now = this.now();
    const check = checkCard(form, now);
    const outcome = await this.options.db.transaction(async (tx): Promise<CardUpdateOutcome> => {
      const sub = await this.runningOf(session.customerId, tx);
      if (!sub) return { kind: 'gone' };
      const view = cardPageView(session, sub);
      if (!check.ok) return { kind: 'form', view, check };
      const [charged] = await tx
        .select({ charges: count() })
        .from(simPayCharges)
        .where(eq(simPayCharges.subscriptionId, sub.id));
      // 0341 pays only a subscription's first charge: as a new card it declines this one too.
      const declines =
        check.outcome === 'declined' ||
        (check.outcome === 'renewals_declined' && (charged?.charges ?? 0) > 0);
      if (sub.status === 'past_due' && declines) {
        return { kind: 'form', view, check: { ok: false, declined: true } };
      }
      if (check.outcome === 'declined') {
        return { kind: 'form', view, check: { ok: false, declined: true } };
      }
      const card = {
        cardBrand: check.brand,
        cardLast4: check.last4,
        declinesRenewals: check.outcome === 'renewals_declined',
      };
      if (sub.status !== 'past_due') {
        await tx.update(simPaySubscriptions).set(card).where(eq(simPaySubscriptions.id, sub.id));
        return { kind: 'redirect', url: session.returnUrl };
      }
      const chargeId = await insertCharge(tx, {
        subscriptionId: sub.id,
        amountCents: sub.amountCents,
        currency: sub.currency,
        at: now,
        periodStart: sub.currentPeriodStart,
        periodEnd: sub.currentPeriodEnd,
        cardBrand: check.brand,
        cardLast4: check.last4,
      });
      await tx
        .update(simPaySubscriptions)
        .set({
          ...card,
          status: 'active',
          nextChargeAt: sub.currentPeriodEnd,
          failedAttempts: 0,
        })
        .where(eq(simPaySubscriptions.id, sub.id));
      const event = { id: sub.id, subscription: sub.id };
      await this.outbox.record(tx, 'invoice.paid', { id: chargeId, subscription: sub.id });
      await this.outbox.record(tx, 'customer.subscription.updated', event);
      return { kind: 'redirect', url: session.returnUrl };
    });
    if (outcome.kind === 'redirect') this.outbox.kick();
    return outcome;
  }

  verifyWebhook(
    rawBody: string,
    headers: Record<string, string | string[] | undefined>,
    now: number,
  ): ProviderEvent {
    verifyWebhookSignature(this.options.secret, rawBody, headers[simulatedSignatureHeader], now);
    let event: unknown;
    try {
      event = JSON.parse(rawBody);
    } catch {
      throw new WebhookRejected('body is not JSON');
    }
    const { id, type, data } = (event ?? {}) as {
      id?: unknown;
      type?: unknown;
      data?: { object?: { id?: unknown; subscription?: unknown } };
    };
    const object = data?.object;
    if (
      typeof id !== 'string' ||
      typeof type !== 'string' ||
      typeof object?.id !== 'string' ||
      typeof object.subscription !== 'string'
    ) {
      throw new WebhookRejected('not an event');
    }
    const isPayment = type === 'invoice.paid' || type === 'charge.refunded';
    return {
      id,
      type,
      subscriptionId: object.subscription,
      paymentId: isPayment ? object.id : null,
      refundRef: type === 'charge.refunded' ? object.id : null,
    };
  }
}

function cardPageView(session: CardPageSession, row: SubscriptionRow): CardPageView {
  return {
    session,
    plan: row.plan,
    cardBrand: row.cardBrand,
    cardLast4: row.cardLast4,
    dueCents: row.status === 'past_due' ? row.amountCents : null,
  };
}

function paymentOf(row: ChargeRow): ProviderPayment {
  return {
    id: row.id,
    subscriptionId: row.subscriptionId,
    refundRef: row.id,
    amountCents: row.amountCents,
    currency: row.currency,
    paidAt: row.createdAt.getTime(),
    periodStart: row.periodStart.getTime(),
    periodEnd: row.periodEnd.getTime(),
    cardBrand: row.cardBrand,
    cardLast4: row.cardLast4,
    refundedAt: row.refundedAt?.getTime() ?? null,
  };
}
