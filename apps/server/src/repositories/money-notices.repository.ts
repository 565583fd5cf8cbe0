import { and, eq, gt, inArray, isNull, lte, or } from 'drizzle-orm';
import type { Db } from '../db/database';
import { moneyNotices, notificationOutbox, subscriptions, users } from '../db/schema';
import { noticeKey, type MoneyNotice, type NoticeSubscription } from '../domain/money-notices';

/** The money notices' port (decision 148); `MoneyNoticesRepository` is its database side. */
export interface MoneyNoticesStore {
  /**
   * Subscriptions that may call for a notice at `now`: running ones whose period ends within
   * `horizonMs`, and past-due ones; of users not deleted; of one user when `userId` is given.
   */
  candidates(now: Date, horizonMs: number, userId?: string): Promise<NoticeSubscription[]>;
  /** The `noticeKey`s already sent to these users. */
  sent(userIds: readonly string[]): Promise<Set<string>>;
  /**
   * Records the notice once: its (user, kind, period) row and its outbox entry, in one
   * transaction. False when that period's notice was recorded already (by any process).
   */
  record(notice: MoneyNotice): Promise<boolean>;
}

export class MoneyNoticesRepository implements MoneyNoticesStore {
  constructor(private readonly db: Db) {}

  async candidates(now: Date, horizonMs: number, userId?: string): Promise<NoticeSubscription[]> {
    const horizon = new Date(now.getTime() + horizonMs);
    const rows = await this.db
      .select({
        id: subscriptions.id,
        userId: subscriptions.userId,
        provider: subscriptions.provider,
        plan: subscriptions.plan,
        status: subscriptions.status,
        currentPeriodStart: subscriptions.currentPeriodStart,
        currentPeriodEnd: subscriptions.currentPeriodEnd,
        cancelAtPeriodEnd: subscriptions.cancelAtPeriodEnd,
        nextPaymentAttemptAt: subscriptions.nextPaymentAttemptAt,
      })
      .from(subscriptions)
      .innerJoin(users, eq(users.id, subscriptions.userId))
      .where(
        and(
          isNull(users.deletedAt),
          userId === undefined ? undefined : eq(subscriptions.userId, userId),
          or(
            eq(subscriptions.status, 'past_due'),
            and(
              inArray(subscriptions.status, ['trialing', 'active']),
              gt(subscriptions.currentPeriodEnd, now),
              lte(subscriptions.currentPeriodEnd, horizon),
            ),
          ),
        ),
      );
    return rows;
  }

  async sent(userIds: readonly string[]): Promise<Set<string>> {
    if (userIds.length === 0) return new Set();
    const rows = await this.db
      .select({ userId: moneyNotices.userId, kind: moneyNotices.kind, period: moneyNotices.period })
      .from(moneyNotices)
      .where(inArray(moneyNotices.userId, [...new Set(userIds)]));
    return new Set(rows.map(noticeKey));
  }

  async record(notice: MoneyNotice): Promise<boolean> {
    const eventKey = noticeKey(notice);
    return this.db.transaction(async (tx) => {
      const [row] = await tx
        .insert(moneyNotices)
        .values({ userId: notice.userId, kind: notice.kind, period: notice.period, eventKey })
        .onConflictDoNothing()
        .returning({ userId: moneyNotices.userId });
      if (!row) return false;
      // Its own delivery: one e-mail (and its pushes) per notice, as any event that is not an
      // operation (decision 088).
      await tx
        .insert(notificationOutbox)
        .values({
          userId: notice.userId,
          kind: notice.kind,
          eventKey,
          payload: { ...notice.facts },
          delivery: eventKey,
        })
        .onConflictDoNothing();
      return true;
    });
  }
}
