import { isPlanId, plans, type Language, type PlanId } from '@tradebot/contract';
import Stripe from 'stripe';
import {
  UnknownObject,
  WebhookRejected,
  type CheckoutInput,
  type CheckoutSessionInfo,
  type PaymentProvider,
  type ProviderEvent,
  type ProviderPayment,
  type ProviderSubscription,
  type ProviderSubscriptionStatus,
} from '../payment-provider';

export interface StripeProviderOptions {
  secretKey: string;
  webhookSecret: string;
  /** Stripe's API by default; tests point these at a local server that answers as Stripe does. */
  host?: string;
  port?: number;
  protocol?: 'http' | 'https';
  /** Signature tolerance, seconds (Stripe's default: 300). */
  toleranceSeconds?: number;
}

/** Stripe asks for a trial to end at least two days ahead; a shorter rest is not carried. */
const minimumTrialMs = 49 * 3_600_000;

const locales: Record<Language, Stripe.Checkout.SessionCreateParams.Locale> = {
  es: 'es-419',
  pt: 'pt-BR',
};

const productNames: Record<PlanId, string> = {
  monthly: 'Tradebot: plan mensual / plano mensal',
  yearly: 'Tradebot: plan anual / plano anual',
};

const idOf = (value: string | { id: string } | null | undefined): string | null =>
  value === null || value === undefined ? null : typeof value === 'string' ? value : value.id;

const seconds = (value: number) => value * 1000;

function statusOf(status: Stripe.Subscription.Status): ProviderSubscriptionStatus {
  switch (status) {
    case 'incomplete':
      return 'incomplete';
    case 'trialing':
      return 'trialing';
    case 'active':
      return 'active';
    case 'past_due':
    case 'unpaid':
      return 'past_due';
    case 'canceled':
    case 'incomplete_expired':
    case 'paused':
      return 'canceled';
    default:
      // A state newer than this code: recorded when it becomes one we know.
      return 'incomplete';
  }
}

function checkoutStatusOf(status: Stripe.Checkout.Session.Status): CheckoutSessionInfo['status'] {
  if (status === 'complete') return 'complete';
  return status === 'expired' ? 'expired' : 'open';
}

function isStripeError(error: unknown, predicate: (error: Stripe.errors.StripeError) => boolean) {
  return error instanceof Stripe.errors.StripeError && predicate(error);
}

/** Reads an object; one Stripe does not have (404) is an UnknownObject. */
async function known<T>(id: string, read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    if (isStripeError(error, (e) => e.statusCode === 404)) {
      throw new UnknownObject(`Stripe has no ${id}`);
    }
    throw error;
  }
}

/**
 * The Stripe adapter of the PaymentProvider port (decision 047): Checkout in subscription
 * mode with the contract's amounts (price_data, so the plans live in one place), webhook
 * signatures checked by the SDK, the customer portal. Chosen when STRIPE_SECRET_KEY and
 * STRIPE_WEBHOOK_SECRET are set.
 */
export class StripePaymentProvider implements PaymentProvider {
  readonly name = 'stripe' as const;
  readonly hasPortal = true;
  private readonly stripe: Stripe;

  constructor(private readonly options: StripeProviderOptions) {
    this.stripe = new Stripe(options.secretKey, {
      maxNetworkRetries: 2,
      timeout: 20_000,
      telemetry: false,
      ...(options.host ? { host: options.host } : {}),
      ...(options.port ? { port: options.port } : {}),
      ...(options.protocol ? { protocol: options.protocol } : {}),
    });
  }

  async createCheckout(input: CheckoutInput): Promise<{ sessionId: string; url: string }> {
    const plan = plans[input.plan];
    const metadata = { user_id: input.userId, plan: input.plan };
    const carryTrial =
      input.trialEndsAt !== null && input.trialEndsAt - Date.now() > minimumTrialMs;
    const session = await this.stripe.checkout.sessions.create({
      mode: 'subscription',
      line_items: [
        {
          quantity: 1,
          price_data: {
            currency: plan.currency.toLowerCase(),
            unit_amount: plan.priceCents,
            recurring: { interval: plan.interval },
            product_data: { name: productNames[input.plan] },
          },
        },
      ],
      client_reference_id: input.userId,
      ...(input.customerId ? { customer: input.customerId } : { customer_email: input.email }),
      metadata,
      subscription_data: {
        metadata,
        ...(carryTrial && input.trialEndsAt !== null
          ? { trial_end: Math.floor(input.trialEndsAt / 1000) }
          : {}),
      },
      success_url: input.successUrl,
      cancel_url: input.cancelUrl,
      locale: locales[input.language],
    });
    if (!session.url) throw new Error('Stripe answered a checkout session without a url');
    return { sessionId: session.id, url: session.url };
  }

  async getCheckout(sessionId: string): Promise<CheckoutSessionInfo | undefined> {
    let session: Stripe.Checkout.Session;
    try {
      session = await this.stripe.checkout.sessions.retrieve(sessionId);
    } catch (error) {
      if (isStripeError(error, (e) => e.statusCode === 404)) return undefined;
      throw error;
    }
    const userId = session.client_reference_id ?? session.metadata?.user_id;
    if (!userId || !session.status) return undefined;
    return {
      id: session.id,
      status: checkoutStatusOf(session.status),
      userId,
      subscriptionId: idOf(session.subscription),
    };
  }

  async getSubscription(subscriptionId: string): Promise<ProviderSubscription> {
    const subscription = await known(subscriptionId, () =>
      this.stripe.subscriptions.retrieve(subscriptionId),
    );
    const userId = subscription.metadata.user_id;
    const plan = subscription.metadata.plan;
    const item = subscription.items.data[0];
    const customerId = idOf(subscription.customer);
    if (!userId || !isPlanId(plan) || !item || !customerId) {
      throw new UnknownObject(`Stripe subscription ${subscriptionId} was not made by this app`);
    }
    const status = statusOf(subscription.status);
    return {
      id: subscription.id,
      customerId,
      userId,
      plan,
      status,
      startedAt: seconds(subscription.start_date),
      currentPeriodStart: seconds(item.current_period_start),
      currentPeriodEnd: seconds(item.current_period_end),
      cancelAtPeriodEnd: subscription.cancel_at_period_end,
      endedAt: subscription.ended_at === null ? null : seconds(subscription.ended_at),
      nextPaymentAttemptAt:
        status === 'past_due' ? await this.nextAttempt(subscription.latest_invoice) : null,
    };
  }

  /** When Stripe's Smart Retries try the unpaid invoice again (null: no more attempts). */
  private async nextAttempt(latest: string | Stripe.Invoice | null): Promise<number | null> {
    if (latest === null) return null;
    const invoice =
      typeof latest === 'string' ? await this.stripe.invoices.retrieve(latest) : latest;
    return invoice.next_payment_attempt === null ? null : seconds(invoice.next_payment_attempt);
  }

  /** A payment is a paid invoice; its card and refund are on the payment intent's charge. */
  async getPayment(paymentId: string): Promise<ProviderPayment> {
    const invoice = await known(paymentId, () =>
      this.stripe.invoices.retrieve(paymentId, { expand: ['payments'] }),
    );
    const subscriptionId = idOf(invoice.parent?.subscription_details?.subscription);
    const paymentIntentId = idOf(
      invoice.payments?.data.find((payment) => payment.status === 'paid')?.payment.payment_intent ??
        invoice.payments?.data[0]?.payment.payment_intent,
    );
    if (!invoice.id || !subscriptionId || !paymentIntentId) {
      throw new UnknownObject(`Stripe invoice ${paymentId} is not a paid subscription invoice`);
    }
    const intent = await this.stripe.paymentIntents.retrieve(paymentIntentId, {
      expand: ['latest_charge'],
    });
    const charge = typeof intent.latest_charge === 'object' ? intent.latest_charge : null;
    const card = charge?.payment_method_details?.card;
    const line = invoice.lines.data[0];
    const refundedAt = charge?.refunded
      ? seconds(charge.refunds?.data[0]?.created ?? charge.created)
      : null;
    return {
      id: invoice.id,
      subscriptionId,
      refundRef: paymentIntentId,
      amountCents: invoice.amount_paid,
      currency: invoice.currency.toUpperCase(),
      paidAt: seconds(invoice.status_transitions.paid_at ?? invoice.created),
      periodStart: seconds(line?.period.start ?? invoice.period_start),
      periodEnd: seconds(line?.period.end ?? invoice.period_end),
      cardBrand: card?.brand ?? null,
      cardLast4: card?.last4 ?? null,
      refundedAt,
    };
  }

  async setCancelAtPeriodEnd(subscriptionId: string, cancel: boolean): Promise<void> {
    await this.stripe.subscriptions.update(subscriptionId, { cancel_at_period_end: cancel });
  }

  async refund(refundRef: string): Promise<void> {
    try {
      await this.stripe.refunds.create({ payment_intent: refundRef });
    } catch (error) {
      // Refunded already (a retry after a failure further on): nothing more to do.
      if (isStripeError(error, (e) => e.code === 'charge_already_refunded')) return;
      throw error;
    }
  }

  async cancelNow(subscriptionId: string): Promise<void> {
    const subscription = await this.stripe.subscriptions.retrieve(subscriptionId);
    if (subscription.status === 'canceled' || subscription.status === 'incomplete_expired') return;
    await this.stripe.subscriptions.cancel(subscriptionId);
  }

  /** The customer portal: the card is changed there and Stripe retries an unpaid invoice. */
  async portalUrl(customerId: string, returnUrl: string, language: Language): Promise<string> {
    const session = await this.stripe.billingPortal.sessions.create({
      customer: customerId,
      return_url: returnUrl,
      locale: locales[language],
    });
    return session.url;
  }

  verifyWebhook(
    rawBody: string,
    headers: Record<string, string | string[] | undefined>,
    now: number,
  ): ProviderEvent {
    const signature = headers['stripe-signature'];
    if (typeof signature !== 'string') throw new WebhookRejected('missing signature');
    let event: Stripe.Event;
    try {
      event = this.stripe.webhooks.constructEvent(
        rawBody,
        signature,
        this.options.webhookSecret,
        this.options.toleranceSeconds ?? 300,
        undefined,
        // Epoch ms: the SDK measures the event's age from it.
        now,
      );
    } catch (error) {
      throw new WebhookRejected(error instanceof Error ? error.message : 'invalid signature');
    }
    const base = {
      id: event.id,
      type: event.type,
      subscriptionId: null,
      paymentId: null,
      refundRef: null,
    };
    // Only the events billing follows; any other is recorded and answered.
    if (event.type === 'checkout.session.completed') {
      return { ...base, subscriptionId: idOf(event.data.object.subscription) };
    }
    if (
      event.type === 'customer.subscription.created' ||
      event.type === 'customer.subscription.updated' ||
      event.type === 'customer.subscription.deleted'
    ) {
      return { ...base, subscriptionId: event.data.object.id };
    }
    if (event.type === 'invoice.paid' || event.type === 'invoice.payment_failed') {
      const invoice = event.data.object;
      return {
        ...base,
        subscriptionId: idOf(invoice.parent?.subscription_details?.subscription),
        paymentId: event.type === 'invoice.paid' ? invoice.id : null,
      };
    }
    if (event.type === 'charge.refunded') {
      return { ...base, refundRef: idOf(event.data.object.payment_intent) };
    }
    return base;
  }
}
