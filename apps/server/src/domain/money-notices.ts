import { plans, type PlanId } from '@tradebot/contract';

/**
 * When a money notice is due (decision 148). Pure functions of plain rows and a time: the job
 * and the charge-failed event both ask them, the unit tests pin their boundaries.
 */

const dayMs = 86_400_000;

/** A yearly plan's renewal is announced this many days before it is charged. */
export const renewalNoticeDays = 7;
/** The end of the free month is announced this many days before it. */
export const freeMonthNoticeDays = 3;

export const moneyNoticeKinds = ['renewal_notice', 'free_month_ending', 'payment_failed'] as const;
export type MoneyNoticeKind = (typeof moneyNoticeKinds)[number];

/** The free month is once per user (a unique index): its notice's period names no row. */
export const freeMonthPeriod = 'free-month';

/** A subscription as the rules read it (billing's row, decision 047). */
export interface NoticeSubscription {
  readonly id: string;
  readonly userId: string;
  /** `promo` is the free month without a card; any other is a payment provider. */
  readonly provider: string;
  readonly plan: PlanId | null;
  readonly status: 'trialing' | 'active' | 'past_due' | 'canceled' | 'refunded';
  readonly currentPeriodStart: Date;
  readonly currentPeriodEnd: Date;
  readonly cancelAtPeriodEnd: boolean;
  /** past_due: when the provider tries the charge again; null when it will not. */
  readonly nextPaymentAttemptAt: Date | null;
}

/** What the e-mail says: figures as they were when the notice was recorded. */
export type MoneyNoticeFacts =
  | {
      readonly kind: 'renewal_notice';
      readonly plan: 'yearly';
      readonly amountCents: number;
      /** ISO: the day the renewal is charged (the period's end). */
      readonly chargeAt: string;
    }
  | {
      readonly kind: 'free_month_ending';
      /** ISO: the day the free month (or the trial it carried into a plan) ends. */
      readonly endsAt: string;
      /** The plan charged that day, or null: no plan chosen, nothing is charged. */
      readonly charge: { readonly plan: PlanId; readonly amountCents: number } | null;
    }
  | {
      readonly kind: 'payment_failed';
      readonly plan: PlanId;
      readonly amountCents: number;
      /** ISO: the provider's next attempt, or null: no more attempts. */
      readonly retryAt: string | null;
    };

export interface MoneyNotice {
  readonly userId: string;
  readonly kind: MoneyNoticeKind;
  /** Which period it is about: once per (user, kind, period). */
  readonly period: string;
  readonly facts: MoneyNoticeFacts;
}

/** The key a notice already sent is known by. */
export const noticeKey = (notice: {
  readonly userId: string;
  readonly kind: string;
  readonly period: string;
}) => `${notice.userId}:${notice.kind}:${notice.period}`;

/** Whether `now` is in the `days` before `end`: from exactly `days` before, until `end`. */
function within(end: Date, days: number, now: Date): boolean {
  const left = end.getTime() - now.getTime();
  return left > 0 && left <= days * dayMs;
}

/** The notice a subscription calls for at `now`, if any. */
export function noticeFor(row: NoticeSubscription, now: Date): MoneyNotice | undefined {
  const period = `${row.id}:${row.currentPeriodEnd.toISOString()}`;
  const paid = row.provider !== 'promo' && row.plan !== null;
  // A yearly plan that will renew: its amount, its day, how to cancel. A monthly plan gets none
  // (its receipt comes every month), nor one cancelled (nothing more is charged).
  if (
    paid &&
    row.plan === 'yearly' &&
    row.status === 'active' &&
    !row.cancelAtPeriodEnd &&
    within(row.currentPeriodEnd, renewalNoticeDays, now)
  ) {
    return {
      userId: row.userId,
      kind: 'renewal_notice',
      period,
      facts: {
        kind: 'renewal_notice',
        plan: 'yearly',
        amountCents: plans.yearly.priceCents,
        chargeAt: row.currentPeriodEnd.toISOString(),
      },
    };
  }
  // The free month ending: without a plan nothing is charged and the robot stops; with a plan
  // chosen during it (its trial), the first charge. Not once the plan was cancelled.
  if (
    row.status === 'trialing' &&
    !row.cancelAtPeriodEnd &&
    within(row.currentPeriodEnd, freeMonthNoticeDays, now)
  ) {
    return {
      userId: row.userId,
      kind: 'free_month_ending',
      period: freeMonthPeriod,
      facts: {
        kind: 'free_month_ending',
        endsAt: row.currentPeriodEnd.toISOString(),
        charge: paid ? { plan: row.plan, amountCents: plans[row.plan].priceCents } : null,
      },
    };
  }
  // A charge that failed: the robot opens nothing new until it is paid (decision 058).
  if (paid && row.status === 'past_due') {
    return {
      userId: row.userId,
      kind: 'payment_failed',
      period,
      facts: {
        kind: 'payment_failed',
        plan: row.plan,
        amountCents: plans[row.plan].priceCents,
        retryAt: row.nextPaymentAttemptAt?.toISOString() ?? null,
      },
    };
  }
  return undefined;
}

/**
 * The notices due at `now` for these subscriptions, leaving out those already sent (`sent`
 * holds `noticeKey`s) and a second one of the same key (a user's free month seen on two rows).
 */
export function dueMoneyNotices(
  rows: readonly NoticeSubscription[],
  sent: ReadonlySet<string>,
  now: Date,
): MoneyNotice[] {
  const due = new Map<string, MoneyNotice>();
  for (const row of rows) {
    const notice = noticeFor(row, now);
    if (!notice) continue;
    const key = noticeKey(notice);
    if (sent.has(key)) continue;
    // The free month seen on the promo row and on the plan carrying it: the plan's charge wins.
    const earlier = due.get(key);
    const charges = notice.facts.kind === 'free_month_ending' && notice.facts.charge !== null;
    if (!earlier || charges) due.set(key, notice);
  }
  return [...due.values()];
}
