import { billingDurationsMs, type SubscriptionStatus } from '@tradebot/contract';
import type { ProviderSubscriptionStatus } from '../payments/payment-provider';
import type { SubscriptionRow } from '../repositories/billing.repository';

/**
 * The rules that turn a subscription into access (docs/decisions/047-payments.md) and decide
 * refunds (048). Pure functions of plain data and a time, in epoch ms.
 */

/**
 * A renewal is charged at the period's end and reported by a webhook moments later: an active
 * subscription keeps access this long past its period, so a late event does not lock anyone
 * out. One that will not renew ends exactly at its period's end.
 */
export const renewalSlackMs = 86_400_000;

export function ourStatus(
  provider: ProviderSubscriptionStatus,
  refunded: boolean,
): SubscriptionStatus | undefined {
  if (refunded) return 'refunded';
  switch (provider) {
    case 'incomplete':
      return undefined;
    case 'trialing':
    case 'active':
    case 'past_due':
    case 'canceled':
      return provider;
  }
}

export interface AccessInput {
  status: SubscriptionStatus;
  currentPeriodStart: number;
  currentPeriodEnd: number;
  cancelAtPeriodEnd: boolean;
}

/** Until when a subscription gives access; null once it gives none. */
export function accessUntil(subscription: AccessInput): number | null {
  switch (subscription.status) {
    case 'trialing':
      return subscription.currentPeriodEnd;
    case 'active':
      return subscription.cancelAtPeriodEnd
        ? subscription.currentPeriodEnd
        : subscription.currentPeriodEnd + renewalSlackMs;
    // A charge failed: the robot opens nothing new until the card pays (decision 058).
    case 'past_due':
    case 'canceled':
    case 'refunded':
      return null;
  }
}

export interface PaymentFacts {
  paidAt: number;
  refundedAt: number | null;
}

export interface RefundWindow {
  eligible: boolean;
  /** When the window closes (it may have closed already); null without a payment. */
  until: number | null;
}

/** spec §1: the user's first payment can be refunded by them within 7 days. */
export function selfRefundWindow(
  firstPayment: PaymentFacts | undefined,
  now: number,
): RefundWindow {
  if (!firstPayment) return { eligible: false, until: null };
  const until = firstPayment.paidAt + billingDurationsMs.refundWindow;
  return { eligible: firstPayment.refundedAt === null && now < until, until };
}

/**
 * The 30-day money guarantee (decision 048): claimed through support within 30 days of the
 * first payment, whatever the robot's results; it refunds the first payment in full, once.
 */
export function guaranteeWindow(firstPayment: PaymentFacts | undefined, now: number): RefundWindow {
  if (!firstPayment) return { eligible: false, until: null };
  const until = firstPayment.paidAt + billingDurationsMs.guarantee;
  return { eligible: firstPayment.refundedAt === null && now < until, until };
}

/** The subscription giving access now, else the newest (`rows` newest first). */
export function currentSubscription(
  rows: readonly SubscriptionRow[],
  now: Date,
): SubscriptionRow | undefined {
  return rows.find((row) => row.accessUntil !== null && row.accessUntil > now) ?? rows[0];
}
