import { describe, expect, it } from 'vitest';
import { noticeKey, type MoneyNotice, type NoticeSubscription } from '../domain/money-notices';
import type { JobClaim, JobClaims } from '../repositories/job-claims.repository';
import type { MoneyNoticesStore } from '../repositories/money-notices.repository';
import { MoneyNoticesService } from './money-notices.service';

// Decision 148: the job records each due notice under a claim, once; plain stubs.

const dayMs = 86_400_000;
const now = new Date('2026-12-01T12:00:00Z');

const renewing: NoticeSubscription = {
  id: 'sub-1',
  userId: 'user-1',
  provider: 'simulated',
  plan: 'yearly',
  status: 'active',
  currentPeriodStart: new Date(now.getTime() - 358 * dayMs),
  currentPeriodEnd: new Date(now.getTime() + 7 * dayMs),
  cancelAtPeriodEnd: false,
  nextPaymentAttemptAt: null,
};

/** The store as the database would answer: a (user, kind, period) is recorded once. */
class StubStore implements MoneyNoticesStore {
  readonly recorded: MoneyNotice[] = [];
  readonly asked: (string | undefined)[] = [];
  failNext = false;
  constructor(private readonly rows: NoticeSubscription[]) {}
  candidates(_now: Date, _horizonMs: number, userId?: string) {
    this.asked.push(userId);
    return Promise.resolve(this.rows.filter((row) => !userId || row.userId === userId));
  }
  sent() {
    return Promise.resolve(new Set(this.recorded.map(noticeKey)));
  }
  record(notice: MoneyNotice) {
    if (this.failNext) {
      this.failNext = false;
      return Promise.reject(new Error('database down'));
    }
    if (this.recorded.some((done) => noticeKey(done) === noticeKey(notice))) {
      return Promise.resolve(false);
    }
    this.recorded.push(notice);
    return Promise.resolve(true);
  }
}

/** Claims as one database holds them: finished or held items are refused. */
class StubClaims implements JobClaims {
  readonly owner = 'test';
  readonly held = new Set<string>();
  readonly finished = new Set<string>();
  readonly released: string[] = [];
  claim(job: string, item: string): Promise<JobClaim | undefined> {
    const key = `${job}/${item}`;
    if (this.held.has(key) || this.finished.has(key)) return Promise.resolve(undefined);
    this.held.add(key);
    return Promise.resolve({
      run: 1,
      finish: () => {
        this.held.delete(key);
        this.finished.add(key);
        return Promise.resolve();
      },
      release: () => {
        this.held.delete(key);
        this.released.push(key);
        return Promise.resolve();
      },
    });
  }
  once(): never {
    throw new Error('not used');
  }
  prune() {
    return Promise.resolve(0);
  }
}

function serviceWith(store: StubStore, claims: JobClaims, errors: string[] = []) {
  return new MoneyNoticesService({
    store,
    claims,
    clock: { now: () => now },
    onError: (_error, what) => errors.push(what),
  });
}

describe('MoneyNoticesService', () => {
  it('records a due notice once: a second run finds it sent', async () => {
    const store = new StubStore([renewing]);
    const service = serviceWith(store, new StubClaims());
    expect(await service.runDue()).toBe(1);
    expect(await service.runDue()).toBe(0);
    expect(store.recorded.map((notice) => notice.kind)).toEqual(['renewal_notice']);
  });

  it('leaves a notice another process holds the claim of', async () => {
    const store = new StubStore([renewing]);
    const claims = new StubClaims();
    claims.held.add(
      `money.notice/user-1:renewal_notice:sub-1:${renewing.currentPeriodEnd.toISOString()}`,
    );
    expect(await serviceWith(store, claims).runDue()).toBe(0);
    expect(store.recorded).toEqual([]);
  });

  it('records nothing twice when the claim was pruned but the period’s row is there', async () => {
    const store = new StubStore([renewing]);
    await serviceWith(store, new StubClaims()).runDue();
    // Another process whose claims were forgotten: the store's unique row still says sent.
    const fresh = serviceWith(
      Object.assign(store, { sent: () => Promise.resolve(new Set<string>()) }),
      new StubClaims(),
    );
    expect(await fresh.runDue()).toBe(0);
    expect(store.recorded).toHaveLength(1);
  });

  it('gives the claim back when recording fails, and records at the next run', async () => {
    const store = new StubStore([renewing]);
    const claims = new StubClaims();
    const errors: string[] = [];
    const service = serviceWith(store, claims, errors);
    store.failNext = true;
    expect(await service.runDue()).toBe(0);
    expect(errors).toEqual(['recording a money notice']);
    expect(claims.released).toHaveLength(1);
    expect(await service.runDue()).toBe(1);
  });

  it('looks at the one user whose charge failed', async () => {
    const pastDue = { ...renewing, userId: 'user-2', id: 'sub-2', status: 'past_due' as const };
    const store = new StubStore([renewing, pastDue]);
    await serviceWith(store, new StubClaims()).chargeFailed('user-2');
    expect(store.asked).toEqual(['user-2']);
    expect(store.recorded.map((notice) => [notice.userId, notice.kind])).toEqual([
      ['user-2', 'payment_failed'],
    ]);
  });
});
