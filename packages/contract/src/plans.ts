/**
 * The subscription plans and the rules of money around them (spec §1, §9; decisions 047 and
 * 048). The one place their amounts live: the server charges them, the web shows them.
 * Amounts are integer US cents: the product's users invest in dollars at their broker, and
 * one currency keeps the price a user sees the price they pay.
 */
export const planIds = ['monthly', 'yearly'] as const;
export type PlanId = (typeof planIds)[number];

export interface Plan {
  readonly id: PlanId;
  /** What one period costs, in cents of `currency`. */
  readonly priceCents: number;
  readonly currency: 'USD';
  readonly interval: 'month' | 'year';
  /** spec §1: the yearly plan's $100 gift at the broker, in cents; 0 without one. */
  readonly brokerGiftCents: number;
}

export const plans: Readonly<Record<PlanId, Plan>> = {
  monthly: {
    id: 'monthly',
    priceCents: 2_900,
    currency: 'USD',
    interval: 'month',
    brokerGiftCents: 0,
  },
  yearly: {
    id: 'yearly',
    priceCents: 29_000,
    currency: 'USD',
    interval: 'year',
    brokerGiftCents: 10_000,
  },
};

export function isPlanId(value: unknown): value is PlanId {
  return typeof value === 'string' && (planIds as readonly string[]).includes(value);
}

const dayMs = 86_400_000;

/** spec §1, §9: the user refunds themselves within 7 days of their first payment. */
export const refundWindowDays = 7;
/** spec §1, §9: the 30-day money guarantee, honoured by support (decision 048). */
export const guaranteeDays = 30;
/** The free-month promotion: a 30-day trial without a card. */
export const freeMonthDays = 30;

export const billingDurationsMs = {
  refundWindow: refundWindowDays * dayMs,
  guarantee: guaranteeDays * dayMs,
  freeMonth: freeMonthDays * dayMs,
} as const;

/** spec §3 subscription states; `authorized` follows them (decision 047). */
export const subscriptionStatuses = [
  'trialing',
  'active',
  'past_due',
  'canceled',
  'refunded',
] as const;
export type SubscriptionStatus = (typeof subscriptionStatuses)[number];

/** Test cards of the built-in simulated provider (README, and its checkout page). */
export const simulatedTestCards = {
  pays: '4242 4242 4242 4242',
  declined: '4000 0000 0000 0002',
  /** Pays the first charge; every renewal is declined (to see past_due). */
  renewalsDeclined: '4000 0000 0000 0341',
} as const;
