import type { Language, PaymentProviderName, PlanId } from '@tradebot/contract';

/**
 * The PaymentProvider port (docs/decisions/047-payments.md): what billing asks of whoever
 * takes the money, in plain data. Two adapters: the built-in simulated provider (default) and
 * Stripe. Times are epoch milliseconds; money is integer cents.
 */

export interface CheckoutInput {
  userId: string;
  email: string;
  plan: PlanId;
  language: Language;
  /** Where the provider sends the browser back; `{CHECKOUT_SESSION_ID}` is filled in. */
  successUrl: string;
  cancelUrl: string;
  /** The provider's customer from an earlier subscription, if any. */
  customerId: string | null;
  /** A free month still running: the first charge waits until it ends. */
  trialEndsAt: number | null;
}

export interface CheckoutSessionInfo {
  id: string;
  status: 'open' | 'complete' | 'expired';
  userId: string;
  subscriptionId: string | null;
}

/** The provider's states; ours add `refunded` (decision 047). */
export type ProviderSubscriptionStatus =
  'incomplete' | 'trialing' | 'active' | 'past_due' | 'canceled';

export interface ProviderSubscription {
  id: string;
  customerId: string;
  userId: string;
  plan: PlanId;
  status: ProviderSubscriptionStatus;
  startedAt: number;
  currentPeriodStart: number;
  currentPeriodEnd: number;
  cancelAtPeriodEnd: boolean;
  endedAt: number | null;
  /** past_due: when the provider tries the failed charge again; null when it will not. */
  nextPaymentAttemptAt: number | null;
}

export interface ProviderPayment {
  id: string;
  subscriptionId: string;
  /** What `refund` takes. */
  refundRef: string;
  amountCents: number;
  currency: string;
  paidAt: number;
  periodStart: number;
  periodEnd: number;
  cardBrand: string | null;
  cardLast4: string | null;
  refundedAt: number | null;
}

/**
 * A verified event, reduced to what it is about. Billing never trusts the event's copy of an
 * object: it reads the object's current state from the provider, so events replayed or out of
 * order have one effect.
 */
export interface ProviderEvent {
  id: string;
  type: string;
  subscriptionId: string | null;
  paymentId: string | null;
  /** A refund names the payment only by this (Stripe: the payment intent). */
  refundRef: string | null;
}

/** A webhook whose signature is wrong or whose timestamp is too old or too far ahead. */
export class WebhookRejected extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'WebhookRejected';
  }
}

/**
 * The provider does not know the object an event is about, or it is not one this app made
 * (another integration on the same account): the event is acknowledged and ignored.
 */
export class UnknownObject extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnknownObject';
  }
}

/** The provider could not be reached or refused a call it should have taken. */
export class ProviderUnavailable extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'ProviderUnavailable';
  }
}

export interface PaymentProvider {
  readonly name: PaymentProviderName;
  /** Whether a hosted page to change the card (Stripe: the customer portal) exists. */
  readonly hasPortal: boolean;
  createCheckout(input: CheckoutInput): Promise<{ sessionId: string; url: string }>;
  getCheckout(sessionId: string): Promise<CheckoutSessionInfo | undefined>;
  getSubscription(subscriptionId: string): Promise<ProviderSubscription>;
  getPayment(paymentId: string): Promise<ProviderPayment>;
  /** Cancel at the period's end (true) or keep renewing (false). */
  setCancelAtPeriodEnd(subscriptionId: string, cancel: boolean): Promise<void>;
  /** Refunds a payment in full. */
  refund(refundRef: string): Promise<void>;
  /** Ends a subscription now, without refunding anything. */
  cancelNow(subscriptionId: string): Promise<void>;
  /** The hosted page where the customer changes the card; a past-due charge is retried there. */
  portalUrl(customerId: string, returnUrl: string, language: Language): Promise<string>;
  /**
   * Checks the signature over the raw body and the timestamp (at `now`, epoch ms), then reads
   * the event. Throws WebhookRejected.
   */
  verifyWebhook(
    rawBody: string,
    headers: Record<string, string | string[] | undefined>,
    now: number,
  ): ProviderEvent;
}
