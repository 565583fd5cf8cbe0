import { z } from './zod';
import { languageSchema } from './common-schemas';
import { dataEnvelope } from './envelope';
import { planIds, subscriptionStatuses } from './plans';
import { accountCurrencySchema, accountKinds } from './trading';

/**
 * Billing (issue 10; docs/decisions/047-payments.md and 048-guarantee-and-refunds.md): plans,
 * checkout, the subscription and its payments. Times are ISO 8601 UTC; money is integer cents.
 */
export const paymentProviders = ['simulated', 'stripe'] as const;
export type PaymentProviderName = (typeof paymentProviders)[number];

export const checkoutRequestSchema = z.object({
  plan: z.enum(planIds, { error: 'validation.invalidValue' }),
  language: languageSchema.optional(),
});
export type CheckoutRequest = z.input<typeof checkoutRequestSchema>;
/** Where the browser goes to pay: the provider's hosted checkout page. */
export const checkoutResponseSchema = dataEnvelope(
  z.object({ sessionId: z.string(), url: z.string() }),
);
export type CheckoutSession = z.infer<typeof checkoutResponseSchema>['data'];

export const checkoutSessionIdSchema = z
  .string()
  .trim()
  .min(1, { error: 'validation.invalidValue' })
  .max(200, { error: 'validation.invalidValue' })
  .regex(/^[\w-]+$/, { error: 'validation.invalidValue' });
export const checkoutStatusParamsSchema = z.object({ sessionId: checkoutSessionIdSchema });

/**
 * What the return page polls: `pending` until the provider's signed event has been applied
 * (never from the redirect alone), then `paid`; `expired` when the checkout was abandoned.
 */
export const checkoutStates = ['pending', 'paid', 'expired'] as const;
export type CheckoutState = (typeof checkoutStates)[number];
export const checkoutStatusResponseSchema = dataEnvelope(
  z.object({ state: z.enum(checkoutStates), authorized: z.boolean() }),
);
export type CheckoutStatus = z.infer<typeof checkoutStatusResponseSchema>['data'];

export const subscriptionViewSchema = z.object({
  /** null for the free month. */
  plan: z.enum(planIds).nullable(),
  status: z.enum(subscriptionStatuses),
  /** The free month (a promo code's trial, without a card). */
  freeMonth: z.boolean(),
  startedAt: z.string(),
  currentPeriodEnd: z.string(),
  cancelAtPeriodEnd: z.boolean(),
  /** When the next charge is due and how much; null when none will be made. */
  nextChargeAt: z.string().nullable(),
  nextChargeCents: z.number().int().nullable(),
  /** Until when the user has access; null once it ended (or while a charge is past due). */
  accessUntil: z.string().nullable(),
  /** past_due: when the failed charge is tried again; null when it will not be. */
  retryAt: z.string().nullable(),
  endedAt: z.string().nullable(),
});
export type SubscriptionView = z.infer<typeof subscriptionViewSchema>;

export const paymentViewSchema = z.object({
  id: z.string(),
  plan: z.enum(planIds),
  amountCents: z.number().int(),
  currency: z.string(),
  paidAt: z.string(),
  periodEnd: z.string(),
  /** Never the card number: its brand and last four digits only. */
  cardBrand: z.string().nullable(),
  cardLast4: z.string().nullable(),
  status: z.enum(['paid', 'refunded']),
  refundedAt: z.string().nullable(),
});
export type PaymentView = z.infer<typeof paymentViewSchema>;

export const billingOverviewSchema = z.object({
  provider: z.enum(paymentProviders),
  authorized: z.boolean(),
  /** The subscription that matters now (the live one, else the latest); null before any. */
  subscription: subscriptionViewSchema.nullable(),
  /** Newest first. */
  payments: z.array(paymentViewSchema),
  /** spec §1 7-day refund: open until `until` for the first payment. */
  refund: z.object({
    eligible: z.boolean(),
    until: z.string().nullable(),
    amountCents: z.number().int().nullable(),
  }),
  /**
   * The linked trading account, so the page says its currency beside the prices (issue 39;
   * decision 097): `simulated` is the built-in platform (USD), `demo` or `live` a cTrader
   * account in the currency its broker said (null if it did not). Null while nothing is linked.
   */
  account: z.object({ kind: z.enum(accountKinds), currency: accountCurrencySchema }).nullable(),
  /**
   * The yearly plan's gift: simulated money on the built-in platform only (decision 157), owed
   * until the user has an account there.
   */
  gift: z
    .object({ cents: z.number().int(), status: z.enum(['owed', 'granted', 'canceled']) })
    .nullable(),
  /** The provider's page to change the card (Stripe's customer portal, the simulated one's). */
  portal: z.boolean(),
  /**
   * The 30-day money guarantee (decision 048): claimed through customer service until `until`
   * while the first payment is unrefunded.
   */
  guarantee: z.object({ eligible: z.boolean(), until: z.string().nullable() }),
  /** The free month was used already (a promo code gives it once). */
  freeMonthUsed: z.boolean(),
});
export type BillingOverview = z.infer<typeof billingOverviewSchema>;
export const billingOverviewResponseSchema = dataEnvelope(billingOverviewSchema);

/** Bodies of the billing actions: only the language may come. */
export const billingActionRequestSchema = z
  .object({ language: languageSchema.optional() })
  .nullish();

export const portalResponseSchema = dataEnvelope(z.object({ url: z.string() }));

export const webhookParamsSchema = z.object({
  provider: z.enum(paymentProviders, { error: 'validation.invalidValue' }),
});
export const webhookResponseSchema = z.object({ received: z.literal(true) });
