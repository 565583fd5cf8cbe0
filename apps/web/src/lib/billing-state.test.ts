import type { BillingOverview, SubscriptionView } from '@tradebot/contract';
import { describe, expect, it } from 'vitest';
import { billingState, offersPlans } from './billing-state';

const subscription: SubscriptionView = {
  plan: 'monthly',
  status: 'active',
  freeMonth: false,
  startedAt: '2026-11-21T12:00:00.000Z',
  currentPeriodEnd: '2026-12-21T12:00:00.000Z',
  cancelAtPeriodEnd: false,
  nextChargeAt: '2026-12-21T12:00:00.000Z',
  nextChargeCents: 2900,
  accessUntil: '2026-12-22T12:00:00.000Z',
  retryAt: null,
  endedAt: null,
};

function overview(
  change: Partial<SubscriptionView> | null,
  extra: Partial<BillingOverview> = {},
): BillingOverview {
  return {
    provider: 'simulated',
    authorized: true,
    subscription: change === null ? null : { ...subscription, ...change },
    payments: [],
    refund: { eligible: false, until: null, amountCents: null },
    account: null,
    gift: null,
    portal: true,
    guarantee: { eligible: false, until: null },
    freeMonthUsed: false,
    ...extra,
  };
}

describe('what the billing screens say for each state (decision 058)', () => {
  it('never subscribed: the plans', () => {
    const state = billingState(overview(null));
    expect(state).toEqual({ kind: 'none' });
    expect(offersPlans(state)).toBe(true);
  });

  it('the free month, running and ended', () => {
    const running = billingState(
      overview({ plan: null, status: 'trialing', freeMonth: true, nextChargeAt: null }),
    );
    expect(running).toEqual({ kind: 'freeMonth', endsAt: '2026-12-21T12:00:00.000Z' });
    expect(offersPlans(running)).toBe(true);
    expect(
      billingState(
        overview({
          plan: null,
          status: 'canceled',
          freeMonth: true,
          accessUntil: null,
          endedAt: '2026-12-21T12:00:00.000Z',
        }),
      ),
    ).toEqual({ kind: 'freeMonthEnded', endedAt: '2026-12-21T12:00:00.000Z' });
  });

  it('trialing on a paid plan: the first charge at the trial’s end', () => {
    const state = billingState(overview({ status: 'trialing' }));
    expect(state).toEqual({
      kind: 'trialing',
      plan: 'monthly',
      firstChargeAt: '2026-12-21T12:00:00.000Z',
      amountCents: 2900,
    });
    expect(offersPlans(state)).toBe(false);
  });

  it('active: the next charge, never "active" for anything else', () => {
    expect(billingState(overview({}))).toEqual({
      kind: 'active',
      plan: 'monthly',
      nextChargeAt: '2026-12-21T12:00:00.000Z',
      amountCents: 2900,
    });
  });

  it('past_due: the failed charge, its retry and the card page, and no plans', () => {
    const state = billingState(
      overview(
        {
          status: 'past_due',
          accessUntil: null,
          nextChargeAt: null,
          retryAt: '2026-12-22T12:00:00.000Z',
        },
        { authorized: false },
      ),
    );
    expect(state).toEqual({
      kind: 'pastDue',
      plan: 'monthly',
      amountCents: 2900,
      retryAt: '2026-12-22T12:00:00.000Z',
      canUpdateCard: true,
    });
    expect(offersPlans(state)).toBe(false);
  });

  it('cancelled at the period’s end: the end date', () => {
    expect(
      billingState(
        overview({ cancelAtPeriodEnd: true, nextChargeAt: null, nextChargeCents: null }),
      ),
    ).toEqual({ kind: 'endsAtPeriodEnd', plan: 'monthly', endsAt: '2026-12-21T12:00:00.000Z' });
  });

  it('canceled and refunded: when, and the plans again', () => {
    const canceled = billingState(
      overview({ status: 'canceled', accessUntil: null, endedAt: '2026-12-23T12:00:00.000Z' }),
    );
    expect(canceled).toEqual({
      kind: 'canceled',
      plan: 'monthly',
      endedAt: '2026-12-23T12:00:00.000Z',
    });
    expect(offersPlans(canceled)).toBe(true);
    const refunded = billingState(
      overview(
        { status: 'refunded', accessUntil: null, endedAt: '2026-11-22T12:00:00.000Z' },
        {
          payments: [
            {
              id: 'p1',
              plan: 'monthly',
              amountCents: 2900,
              currency: 'USD',
              paidAt: '2026-11-21T12:00:00.000Z',
              periodEnd: '2026-12-21T12:00:00.000Z',
              cardBrand: 'visa',
              cardLast4: '4242',
              status: 'refunded',
              refundedAt: '2026-11-22T10:00:00.000Z',
            },
          ],
        },
      ),
    );
    expect(refunded).toEqual({
      kind: 'refunded',
      plan: 'monthly',
      refundedAt: '2026-11-22T10:00:00.000Z',
    });
    expect(offersPlans(refunded)).toBe(true);
  });

  it('active access that lapsed without an event reads as ended', () => {
    expect(billingState(overview({ accessUntil: null }))).toMatchObject({ kind: 'canceled' });
  });
});
