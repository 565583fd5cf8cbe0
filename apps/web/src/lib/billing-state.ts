import type { BillingOverview, PlanId } from '@tradebot/contract';
import { plans } from '@tradebot/contract/constants';

/**
 * What the billing screens say about a subscription (/payment, /payment/return's next step and
 * the profile's billing section), from the server's overview alone: one place decides it, so
 * every screen agrees (decision 058).
 */
export type BillingState =
  /** Never subscribed: choose a plan. */
  | { kind: 'none' }
  /** The free month (a promo code, no card), until `endsAt`. */
  | { kind: 'freeMonth'; endsAt: string }
  | { kind: 'freeMonthEnded'; endedAt: string }
  /** A paid plan whose first charge waits for the free month's end. */
  | { kind: 'trialing'; plan: PlanId; firstChargeAt: string; amountCents: number }
  | { kind: 'active'; plan: PlanId; nextChargeAt: string; amountCents: number }
  /** Cancelled at the period's end: access until `endsAt`, nothing more charged. */
  | { kind: 'endsAtPeriodEnd'; plan: PlanId; endsAt: string }
  /** The last charge failed: no access until the card pays; retried at `retryAt` (null: no more). */
  | {
      kind: 'pastDue';
      plan: PlanId;
      amountCents: number;
      retryAt: string | null;
      canUpdateCard: boolean;
    }
  | { kind: 'canceled'; plan: PlanId | null; endedAt: string }
  | { kind: 'refunded'; plan: PlanId | null; refundedAt: string };

export function billingState(overview: BillingOverview): BillingState {
  const subscription = overview.subscription;
  if (!subscription) return { kind: 'none' };
  const live = subscription.accessUntil !== null;
  const ended = subscription.endedAt ?? subscription.accessUntil ?? subscription.currentPeriodEnd;
  if (subscription.freeMonth || !subscription.plan) {
    return live
      ? { kind: 'freeMonth', endsAt: subscription.currentPeriodEnd }
      : { kind: 'freeMonthEnded', endedAt: ended };
  }
  const plan = subscription.plan;
  const price = plans[plan].priceCents;
  switch (subscription.status) {
    case 'past_due':
      return {
        kind: 'pastDue',
        plan,
        amountCents: price,
        retryAt: subscription.retryAt,
        canUpdateCard: overview.portal,
      };
    case 'refunded':
      return {
        kind: 'refunded',
        plan,
        refundedAt:
          overview.payments.find((payment) => payment.refundedAt !== null)?.refundedAt ?? ended,
      };
    case 'canceled':
      return { kind: 'canceled', plan, endedAt: ended };
    case 'trialing':
    case 'active':
      // Access that lapsed without an event: it ended.
      if (!live) return { kind: 'canceled', plan, endedAt: ended };
      if (subscription.cancelAtPeriodEnd || !subscription.nextChargeAt) {
        return { kind: 'endsAtPeriodEnd', plan, endsAt: subscription.currentPeriodEnd };
      }
      return subscription.status === 'trialing'
        ? {
            kind: 'trialing',
            plan,
            firstChargeAt: subscription.nextChargeAt,
            amountCents: subscription.nextChargeCents ?? price,
          }
        : {
            kind: 'active',
            plan,
            nextChargeAt: subscription.nextChargeAt,
            amountCents: subscription.nextChargeCents ?? price,
          };
  }
}

/** The states in which /payment offers the plans (a checkout can be opened). */
export function offersPlans(state: BillingState): boolean {
  return (
    state.kind === 'none' ||
    state.kind === 'freeMonth' ||
    state.kind === 'freeMonthEnded' ||
    state.kind === 'canceled' ||
    state.kind === 'refunded'
  );
}
