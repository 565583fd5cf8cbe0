import type { Clock } from '../repositories/clock';
import type { JobClaims } from '../repositories/job-claims.repository';
import type { MoneyNoticesStore } from '../repositories/money-notices.repository';
import {
  dueMoneyNotices,
  freeMonthNoticeDays,
  noticeKey,
  renewalNoticeDays,
} from '../domain/money-notices';

const dayMs = 86_400_000;
/** How far ahead the job looks: the longest notice period. */
const horizonMs = Math.max(renewalNoticeDays, freeMonthNoticeDays) * dayMs;
const claimJob = 'money.notice';

export interface MoneyNoticesOptions {
  readonly store: MoneyNoticesStore;
  /** Each notice is claimed before it is recorded: one process records it (decision 078). */
  readonly claims: JobClaims;
  readonly clock: Clock;
  readonly onError: (error: unknown, what: string) => void;
}

/**
 * Money notices (decision 148): a yearly plan renewing in 7 days, the free month ending in 3,
 * a charge that failed. Recorded once per (user, kind, period) into the notification outbox,
 * which mails and pushes them (decision 088). The job looks every few minutes; a failed charge
 * is looked at as soon as billing stores it.
 */
export class MoneyNoticesService {
  constructor(private readonly options: MoneyNoticesOptions) {}

  /** Every notice due now. How many were recorded by this run. */
  runDue(): Promise<number> {
    return this.recordDue(undefined);
  }

  /** Billing stored a failed charge: the user's notice is recorded now, not at the next run. */
  async chargeFailed(userId: string): Promise<void> {
    await this.recordDue(userId);
  }

  private async recordDue(userId: string | undefined): Promise<number> {
    const { store, claims, clock } = this.options;
    const now = clock.now();
    const rows = await store.candidates(now, horizonMs, userId);
    if (rows.length === 0) return 0;
    const sent = await store.sent(rows.map((row) => row.userId));
    let recorded = 0;
    for (const notice of dueMoneyNotices(rows, sent, now)) {
      const claim = await claims.claim(claimJob, noticeKey(notice));
      if (!claim) continue;
      try {
        if (await store.record(notice)) recorded += 1;
        await claim.finish();
      } catch (error) {
        await claim.release().catch(() => undefined);
        this.options.onError(error, 'recording a money notice');
      }
    }
    return recorded;
  }
}
