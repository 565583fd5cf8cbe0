import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import {
  isLanguage,
  plans,
  simulatedPaymentsPath,
  type Language,
  type PlanId,
} from '@tradebot/contract';
import { and, asc, count, desc, eq, inArray, isNotNull, isNull, lte } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { simPayCharges, simPayCheckouts, simPayEvents, simPaySubscriptions } from '../../db/schema';
import type { Clock } from '../../repositories/clock';
import type { JobClaims } from '../../repositories/job-claims.repository';
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
import { signWebhook, simulatedSignatureHeader, verifyWebhookSignature } from './webhook-signature';

type SubscriptionRow = typeof simPaySubscriptions.$inferSelect;
type CheckoutRow = typeof simPayCheckouts.$inferSelect;
export type SimulatedCheckout = CheckoutRow;
type ChargeRow = typeof simPayCharges.$inferSelect;
type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

const hourMs = 3_600_000;
const dayMs = 24 * hourMs;
/** An open checkout expires after a day, as Stripe's do. */
const checkoutLifetimeMs = dayMs;
/** A link to the card page works for an hour, as Stripe's portal sessions are short-lived. */
const cardPageLifetimeMs = hourMs;
/** A declined renewal is retried a day later, twice; the third decline cancels. */
const renewalAttempts = 3;
const renewalRetryMs = dayMs;
/** Webhook deliveries: 1 s, 2 s, 4 s, ... capped at an hour, 30 attempts (about a day). */
const deliveryAttempts = 30;
const deliveryBackoffCapMs = hourMs;
const deliveryTimeoutMs = 10_000;
/** The claims' name for one delivery attempt of one event. */
export const webhookDeliveryJob = 'simpay.webhook';

/** POSTs a webhook and resolves the answer's HTTP status (0 when none came). */
export type WebhookTransport = (
  url: string,
  body: string,
  headers: Record<string, string>,
) => Promise<number>;

export const fetchTransport: WebhookTransport = async (url, body, headers) => {
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body,
      signal: AbortSignal.timeout(deliveryTimeoutMs),
    });
    await response.arrayBuffer();
    return response.status;
  } catch {
    return 0;
  }
};

export interface SimulatedProviderOptions {
  db: Db;
  clock: Clock;
  /** The webhook signing secret, shared with our receiver. */
  secret: string;
  /** Our webhook's address, read at each delivery: undefined until the server listens. */
  webhookUrl: () => string | undefined;
  transport?: WebhookTransport;
  /**
   * Who delivers an event: each attempt is claimed first, so with several processes on one
   * database it is sent by one of them (decision 078).
   */
  claims: JobClaims;
  /** Deliver as soon as an event is recorded (and retry on a timer): off in tests. */
  autoDeliver: boolean;
  onError: (error: unknown, what: string) => void;
  /** A delivery that failed and will be tried again (or given up: `nextAttemptAt` null). */
  onRetry?: (retry: DeliveryRetry) => void;
}

/** What a failed delivery tells the log: ids and numbers only, never the body or signature. */
export interface DeliveryRetry {
  eventId: string;
  type: string;
  attempts: number;
  status: number;
  nextAttemptAt: Date | null;
}

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

const newId = (prefix: string) => `${prefix}_sim_${randomBytes(12).toString('base64url')}`;

/** A calendar month or year after `from`, in UTC (Jan 31 + 1 month = Mar 3, as Date does). */
export function addInterval(from: number, plan: PlanId): number {
  const date = new Date(from);
  if (plans[plan].interval === 'year') date.setUTCFullYear(date.getUTCFullYear() + 1);
  else date.setUTCMonth(date.getUTCMonth() + 1);
  return date.getTime();
}

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
  private readonly transport: WebhookTransport;
  private delivering: Promise<void> | undefined;
  private deliverAgain = false;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(private readonly options: SimulatedProviderOptions) {
    this.transport = options.transport ?? fetchTransport;
  }

  private now(): Date {
    return this.options.clock.now();
  }

  /** Retries due deliveries every second (with autoDeliver). */
  start(): void {
    if (!this.options.autoDeliver) return;
    this.timer = setInterval(() => {
      void this.deliverDue();
    }, 1000);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.delivering;
  }

  async createCheckout(input: CheckoutInput): Promise<{ sessionId: string; url: string }> {
    const id = newId('cs');
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
      const subscriptionId = newId('sub');
      const trialEnd = claimed.trialEnd && claimed.trialEnd > now ? claimed.trialEnd : null;
      const periodEnd = trialEnd ?? new Date(addInterval(now.getTime(), claimed.plan));
      await tx.insert(simPaySubscriptions).values({
        id: subscriptionId,
        customerId: newId('cus'),
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
      await this.record(tx, 'checkout.session.completed', {
        id,
        subscription: subscriptionId,
      });
      await this.record(tx, 'customer.subscription.created', {
        id: subscriptionId,
        subscription: subscriptionId,
      });
      if (!trialEnd) {
        const chargeId = await this.charge(tx, {
          subscriptionId,
          amountCents: claimed.amountCents,
          currency: claimed.currency,
          at: now,
          periodStart: now,
          periodEnd,
          cardBrand: check.brand,
          cardLast4: check.last4,
        });
        await this.record(tx, 'invoice.paid', { id: chargeId, subscription: subscriptionId });
      }
      return true;
    });
    if (completed === 'subscribed') return { kind: 'subscribed', checkout };
    if (completed) this.kick();
    return { kind: 'redirect', url: checkout.successUrl };
  }

  private async charge(
    tx: Tx,
    charge: {
      subscriptionId: string;
      amountCents: number;
      currency: string;
      at: Date;
      periodStart: Date;
      periodEnd: Date;
      cardBrand: string;
      cardLast4: string;
    },
  ): Promise<string> {
    const id = newId('ch');
    await tx.insert(simPayCharges).values({
      id,
      subscriptionId: charge.subscriptionId,
      amountCents: charge.amountCents,
      currency: charge.currency,
      createdAt: charge.at,
      periodStart: charge.periodStart,
      periodEnd: charge.periodEnd,
      cardBrand: charge.cardBrand,
      cardLast4: charge.cardLast4,
    });
    return id;
  }

  /** An event for our webhook, in the outbox, in the same transaction as what it reports. */
  private async record(
    tx: Tx,
    type: string,
    object: { id: string; subscription: string },
  ): Promise<void> {
    const now = this.now();
    const id = newId('evt');
    await tx.insert(simPayEvents).values({
      id,
      type,
      payload: {
        id,
        object: 'event',
        type,
        created: Math.floor(now.getTime() / 1000),
        data: { object },
      },
      createdAt: now,
      nextAttemptAt: now,
    });
  }

  private kick(): void {
    if (this.options.autoDeliver && !this.stopped) {
      setImmediate(() => {
        void this.deliverDue();
      });
    }
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
      await this.record(tx, type, { id: subscriptionId, subscription: subscriptionId });
      return true;
    });
    if (changed) this.kick();
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
      await this.record(tx, 'charge.refunded', { id: row.id, subscription: row.subscriptionId });
      return true;
    });
    if (refunded) this.kick();
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
      const chargeId = await this.charge(tx, {
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
      await this.record(tx, 'invoice.paid', { id: chargeId, subscription: sub.id });
      await this.record(tx, 'customer.subscription.updated', event);
      return { kind: 'redirect', url: session.returnUrl };
    });
    if (outcome.kind === 'redirect') this.kick();
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

  /**
   * Renewals, retries of declined renewals, cancellations at the period's end and expired
   * checkouts, everything due by the clock (each subscription catches up period by period);
   * then the events due are delivered.
   */
  async runDue(): Promise<void> {
    const now = this.now();
    const due = await this.options.db
      .select({ id: simPaySubscriptions.id })
      .from(simPaySubscriptions)
      .where(
        and(
          isNotNull(simPaySubscriptions.nextChargeAt),
          lte(simPaySubscriptions.nextChargeAt, now),
        ),
      )
      .orderBy(asc(simPaySubscriptions.nextChargeAt));
    let recorded = false;
    for (const { id } of due) {
      try {
        recorded = (await this.renew(id, now)) || recorded;
      } catch (error) {
        this.options.onError(error, `renewing simulated subscription ${id}`);
      }
    }
    await this.options.db
      .update(simPayCheckouts)
      .set({ status: 'expired' })
      .where(and(eq(simPayCheckouts.status, 'open'), lte(simPayCheckouts.expiresAt, now)));
    if (recorded) this.kick();
    await this.deliverDue();
  }

  private async renew(id: string, now: Date): Promise<boolean> {
    return this.options.db.transaction(async (tx) => {
      let recorded = false;
      for (let step = 0; step < 1000; step++) {
        const [sub] = await tx
          .select()
          .from(simPaySubscriptions)
          .where(eq(simPaySubscriptions.id, id))
          .for('update');
        if (!sub?.nextChargeAt || sub.nextChargeAt > now || sub.status === 'canceled') break;
        const at = sub.nextChargeAt;
        const event = { id, subscription: id };
        if (sub.cancelAtPeriodEnd) {
          await tx
            .update(simPaySubscriptions)
            .set({ status: 'canceled', canceledAt: at, nextChargeAt: null })
            .where(eq(simPaySubscriptions.id, id));
          await this.record(tx, 'customer.subscription.deleted', event);
          recorded = true;
          break;
        }
        // A renewal opens the next period, paid or not (as Stripe does); a retry stays in it.
        const retry = sub.status === 'past_due';
        const periodStart = retry ? sub.currentPeriodStart : sub.currentPeriodEnd;
        const periodEnd = retry
          ? sub.currentPeriodEnd
          : new Date(addInterval(sub.currentPeriodEnd.getTime(), sub.plan));
        const [charged] = await tx
          .select({ charges: count() })
          .from(simPayCharges)
          .where(eq(simPayCharges.subscriptionId, id));
        const declined = sub.declinesRenewals && (charged?.charges ?? 0) > 0;
        if (!declined) {
          const chargeId = await this.charge(tx, {
            subscriptionId: id,
            amountCents: sub.amountCents,
            currency: sub.currency,
            at,
            periodStart,
            periodEnd,
            cardBrand: sub.cardBrand,
            cardLast4: sub.cardLast4,
          });
          await tx
            .update(simPaySubscriptions)
            .set({
              status: 'active',
              currentPeriodStart: periodStart,
              currentPeriodEnd: periodEnd,
              nextChargeAt: periodEnd,
              failedAttempts: 0,
            })
            .where(eq(simPaySubscriptions.id, id));
          await this.record(tx, 'invoice.paid', { id: chargeId, subscription: id });
          await this.record(tx, 'customer.subscription.updated', event);
        } else {
          const failedAttempts = sub.failedAttempts + 1;
          const givesUp = failedAttempts >= renewalAttempts;
          await tx
            .update(simPaySubscriptions)
            .set({
              status: givesUp ? 'canceled' : 'past_due',
              canceledAt: givesUp ? at : null,
              currentPeriodStart: periodStart,
              currentPeriodEnd: periodEnd,
              nextChargeAt: givesUp ? null : new Date(at.getTime() + renewalRetryMs),
              failedAttempts,
            })
            .where(eq(simPaySubscriptions.id, id));
          await this.record(tx, 'invoice.payment_failed', event);
          await this.record(
            tx,
            givesUp ? 'customer.subscription.deleted' : 'customer.subscription.updated',
            event,
          );
        }
        recorded = true;
      }
      return recorded;
    });
  }

  /** Sends every due event to our webhook; a failed answer is retried later, with backoff. */
  deliverDue(): Promise<void> {
    if (this.delivering) {
      this.deliverAgain = true;
      return this.delivering;
    }
    this.delivering = (async () => {
      for (;;) {
        this.deliverAgain = false;
        await this.deliverBatch();
        if (!this.moreToDeliver()) break;
      }
    })()
      .catch((error: unknown) => {
        this.options.onError(error, 'delivering simulated payment webhooks');
      })
      .finally(() => {
        this.delivering = undefined;
      });
    return this.delivering;
  }

  /** Another delivery was asked for while one ran. */
  private moreToDeliver(): boolean {
    return this.deliverAgain && !this.stopped;
  }

  private async deliverBatch(): Promise<void> {
    const url = this.options.webhookUrl();
    if (!url) return;
    const due = await this.options.db
      .select()
      .from(simPayEvents)
      .where(
        and(
          isNull(simPayEvents.deliveredAt),
          isNotNull(simPayEvents.nextAttemptAt),
          lte(simPayEvents.nextAttemptAt, this.now()),
        ),
      )
      .orderBy(asc(simPayEvents.sequence))
      .limit(100);
    for (const event of due) {
      if (this.stopped) return;
      // One attempt, one claim: another process that listed the same attempt finds it taken
      // (or finished), and the next attempt is an item of its own.
      const claim = await this.options.claims.claim(
        webhookDeliveryJob,
        `${event.id}:${String(event.attempts)}`,
      );
      if (!claim) continue;
      const body = JSON.stringify(event.payload);
      const signature = signWebhook(
        this.options.secret,
        body,
        Math.floor(this.now().getTime() / 1000),
      );
      const status = await this.transport(url, body, { [simulatedSignatureHeader]: signature });
      const now = this.now();
      if (status >= 200 && status < 300) {
        await this.options.db
          .update(simPayEvents)
          .set({ deliveredAt: now, attempts: event.attempts + 1, lastStatus: status })
          .where(eq(simPayEvents.id, event.id));
        await claim.finish();
        continue;
      }
      const attempts = event.attempts + 1;
      const delay = Math.min(1000 * 2 ** (attempts - 1), deliveryBackoffCapMs);
      const nextAttemptAt = attempts >= deliveryAttempts ? null : new Date(now.getTime() + delay);
      await this.options.db
        .update(simPayEvents)
        .set({ attempts, lastStatus: status, nextAttemptAt })
        .where(eq(simPayEvents.id, event.id));
      await claim.finish();
      this.options.onRetry?.({
        eventId: event.id,
        type: event.type,
        attempts,
        status,
        nextAttemptAt,
      });
    }
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
