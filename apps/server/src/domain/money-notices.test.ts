import { plans } from '@tradebot/contract';
import { describe, expect, it } from 'vitest';
import {
  dueMoneyNotices,
  freeMonthNoticeDays,
  freeMonthPeriod,
  noticeKey,
  renewalNoticeDays,
  type NoticeSubscription,
} from './money-notices';

// Decision 148: when each money notice is due, on plain rows.

const dayMs = 86_400_000;
const now = new Date('2026-12-01T12:00:00Z');
const inDays = (days: number, extraMs = 0) => new Date(now.getTime() + days * dayMs + extraMs);

function yearly(overrides: Partial<NoticeSubscription> = {}): NoticeSubscription {
  return {
    id: 'sub-1',
    userId: 'user-1',
    provider: 'simulated',
    plan: 'yearly',
    status: 'active',
    currentPeriodStart: inDays(-358),
    currentPeriodEnd: inDays(renewalNoticeDays),
    cancelAtPeriodEnd: false,
    nextPaymentAttemptAt: null,
    ...overrides,
  };
}

function freeMonth(overrides: Partial<NoticeSubscription> = {}): NoticeSubscription {
  return {
    id: 'promo-1',
    userId: 'user-1',
    provider: 'promo',
    plan: null,
    status: 'trialing',
    currentPeriodStart: inDays(-27),
    currentPeriodEnd: inDays(freeMonthNoticeDays),
    cancelAtPeriodEnd: false,
    nextPaymentAttemptAt: null,
    ...overrides,
  };
}

const due = (rows: NoticeSubscription[], sent: string[] = []) =>
  dueMoneyNotices(rows, new Set(sent), now);

describe('the yearly renewal notice', () => {
  it('is due exactly 7 days before the renewal, with the amount and the day', () => {
    expect(due([yearly()])).toEqual([
      {
        userId: 'user-1',
        kind: 'renewal_notice',
        period: `sub-1:${inDays(7).toISOString()}`,
        facts: {
          kind: 'renewal_notice',
          plan: 'yearly',
          amountCents: plans.yearly.priceCents,
          chargeAt: inDays(7).toISOString(),
        },
      },
    ]);
  });

  it('is not due a millisecond earlier than 7 days before, and is due a day before', () => {
    expect(due([yearly({ currentPeriodEnd: inDays(7, 1) })])).toEqual([]);
    expect(due([yearly({ currentPeriodEnd: inDays(1) })]).map((n) => n.kind)).toEqual([
      'renewal_notice',
    ]);
  });

  it('is not due once the period has ended (the renewal is charged or failed)', () => {
    expect(due([yearly({ currentPeriodEnd: now })])).toEqual([]);
    expect(due([yearly({ currentPeriodEnd: inDays(-1) })])).toEqual([]);
  });

  it('is not sent twice for one period, and is due again for the next one', () => {
    const [first] = due([yearly()]);
    if (!first) throw new Error('no notice');
    expect(due([yearly()], [noticeKey(first)])).toEqual([]);
    // A year later, the next period has its own notice.
    const next = yearly({ currentPeriodEnd: inDays(7), id: 'sub-1' });
    expect(
      due([next], [noticeKey({ ...first, period: `sub-1:${inDays(-358).toISOString()}` })]),
    ).toHaveLength(1);
  });

  it('is not sent for a plan whose renewal was cancelled', () => {
    expect(due([yearly({ cancelAtPeriodEnd: true })])).toEqual([]);
  });

  it('is not sent for a monthly plan', () => {
    expect(due([yearly({ plan: 'monthly', currentPeriodEnd: inDays(3) })])).toEqual([]);
  });

  it('is not sent for a plan past due, canceled or refunded (nothing renews)', () => {
    for (const status of ['canceled', 'refunded'] as const) {
      expect(due([yearly({ status })])).toEqual([]);
    }
    expect(due([yearly({ status: 'past_due' })]).map((n) => n.kind)).toEqual(['payment_failed']);
  });
});

describe('the free month ending notice', () => {
  it('is due exactly 3 days before the end, saying nothing is charged without a plan', () => {
    expect(due([freeMonth()])).toEqual([
      {
        userId: 'user-1',
        kind: 'free_month_ending',
        period: freeMonthPeriod,
        facts: { kind: 'free_month_ending', endsAt: inDays(3).toISOString(), charge: null },
      },
    ]);
    expect(due([freeMonth({ currentPeriodEnd: inDays(3, 1) })])).toEqual([]);
    expect(due([freeMonth({ currentPeriodEnd: now })])).toEqual([]);
  });

  it('names the first charge when a plan was chosen during the free month', () => {
    const trial = yearly({ id: 'sub-2', status: 'trialing', plan: 'monthly' });
    const [notice] = due([{ ...trial, currentPeriodEnd: inDays(2) }]);
    expect(notice?.facts).toEqual({
      kind: 'free_month_ending',
      endsAt: inDays(2).toISOString(),
      charge: { plan: 'monthly', amountCents: plans.monthly.priceCents },
    });
  });

  it('is one notice per user, the plan’s charge winning over the free month row', () => {
    const trial = yearly({ id: 'sub-2', status: 'trialing', currentPeriodEnd: inDays(3) });
    const notices = due([freeMonth(), trial]);
    expect(notices).toHaveLength(1);
    expect(notices[0]?.facts).toMatchObject({ charge: { plan: 'yearly' } });
    expect(due([freeMonth()], [`user-1:free_month_ending:${freeMonthPeriod}`])).toEqual([]);
  });

  it('is not sent once the plan chosen during it was cancelled', () => {
    const trial = yearly({
      status: 'trialing',
      cancelAtPeriodEnd: true,
      currentPeriodEnd: inDays(2),
    });
    expect(due([trial])).toEqual([]);
  });
});

describe('the failed charge notice', () => {
  it('is due for a past-due plan, with the next attempt, once per period', () => {
    const row = yearly({
      plan: 'monthly',
      status: 'past_due',
      currentPeriodEnd: inDays(29),
      nextPaymentAttemptAt: inDays(1),
    });
    const [notice] = due([row]);
    expect(notice).toEqual({
      userId: 'user-1',
      kind: 'payment_failed',
      period: `sub-1:${inDays(29).toISOString()}`,
      facts: {
        kind: 'payment_failed',
        plan: 'monthly',
        amountCents: plans.monthly.priceCents,
        retryAt: inDays(1).toISOString(),
      },
    });
    if (!notice) throw new Error('no notice');
    expect(due([row], [noticeKey(notice)])).toEqual([]);
    expect(due([{ ...row, nextPaymentAttemptAt: null }])[0]?.facts).toMatchObject({
      retryAt: null,
    });
  });
});
