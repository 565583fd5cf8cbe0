import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { and, eq, isNotNull, isNull, lt, sql } from 'drizzle-orm';
import type { Db } from '../db/database';
import { jobClaims } from '../db/schema';
import { jobClaims as claimsCounted, jobFailures } from '../metrics/server-metrics';

/** One process's hold on one timed item (decision 078). */
export interface JobClaim {
  /** 1 on the first run, 2 on the retry after a run that died. */
  readonly run: number;
  /** The item is done: nobody takes it again. */
  finish(): Promise<void>;
  /** The run ended without doing it (a failure it handled): the item may be taken again. */
  release(): Promise<void>;
}

/**
 * Who does a timed item: the one process whose claim succeeds. A claim lasts a lease on the
 * database's clock; one that lapsed unfinished (its process died mid-job) is taken again by one
 * process, once.
 */
export interface JobClaims {
  /** This process's name in the claims. */
  readonly owner: string;
  claim(job: string, item: string): Promise<JobClaim | undefined>;
  /** Does `work` under a claim, finishing it after; undefined when another process holds it. */
  once<T>(job: string, item: string, work: () => Promise<T>): Promise<{ value: T } | undefined>;
  /** Forgets finished claims older than `olderThanMs` (their items' own state says done). */
  prune(olderThanMs: number): Promise<number>;
}

/** A run, and at most one retry after a run that died. */
export const maxRuns = 2;
/** A job that outlasts this is taken for dead: longer than any one item's work (10 s webhook). */
export const defaultJobLeaseMs = 60_000;

/** A process's name: host, pid and a random part, so a restarted pid is not the old process. */
export function processName(): string {
  return `${hostname()}:${String(process.pid)}:${randomUUID().slice(0, 8)}`;
}

export class DrizzleJobClaims implements JobClaims {
  constructor(
    private readonly db: Db,
    readonly owner: string,
    private readonly leaseMs: number = defaultJobLeaseMs,
    private readonly onGivenUp?: (job: string, item: string) => void,
  ) {}

  async claim(job: string, item: string): Promise<JobClaim | undefined> {
    const lease = sql`now() + ${this.leaseMs} * interval '1 millisecond'`;
    const rows = await this.db
      .insert(jobClaims)
      .values({ job, item, owner: this.owner, claims: 1, claimedUntil: lease })
      .onConflictDoUpdate({
        target: [jobClaims.job, jobClaims.item],
        set: { owner: this.owner, claims: sql`${jobClaims.claims} + 1`, claimedUntil: lease },
        setWhere: and(
          isNull(jobClaims.finishedAt),
          sql`${jobClaims.claimedUntil} <= now()`,
          lt(jobClaims.claims, maxRuns),
        ),
      })
      .returning({ claims: jobClaims.claims });
    const run = rows[0]?.claims;
    if (run === undefined) {
      if (this.onGivenUp) await this.reportGivenUp(job, item);
      return undefined;
    }
    claimsCounted.inc({ job });
    const mine = and(
      eq(jobClaims.job, job),
      eq(jobClaims.item, item),
      eq(jobClaims.owner, this.owner),
      isNull(jobClaims.finishedAt),
    );
    return {
      run,
      finish: async () => {
        await this.db
          .update(jobClaims)
          .set({ finishedAt: sql`now()` })
          .where(mine);
      },
      release: async () => {
        jobFailures.inc({ job });
        await this.db.delete(jobClaims).where(mine);
      },
    };
  }

  async once<T>(
    job: string,
    item: string,
    work: () => Promise<T>,
  ): Promise<{ value: T } | undefined> {
    const claim = await this.claim(job, item);
    if (!claim) return undefined;
    let value: T;
    try {
      value = await work();
    } catch (error) {
      await claim.release();
      throw error;
    }
    await claim.finish();
    return { value };
  }

  async prune(olderThanMs: number): Promise<number> {
    const rows = await this.db
      .delete(jobClaims)
      .where(
        and(
          isNotNull(jobClaims.finishedAt),
          sql`${jobClaims.finishedAt} < now() - ${olderThanMs} * interval '1 millisecond'`,
        ),
      )
      .returning({ job: jobClaims.job });
    return rows.length;
  }

  /** A refusal because both runs died (not because another process holds it) is said once. */
  private async reportGivenUp(job: string, item: string): Promise<void> {
    const [row] = await this.db
      .update(jobClaims)
      .set({ claims: sql`${jobClaims.claims} + 1` })
      .where(
        and(
          eq(jobClaims.job, job),
          eq(jobClaims.item, item),
          isNull(jobClaims.finishedAt),
          eq(jobClaims.claims, maxRuns),
          sql`${jobClaims.claimedUntil} <= now()`,
        ),
      )
      .returning({ claims: jobClaims.claims });
    if (!row) return;
    jobFailures.inc({ job });
    this.onGivenUp?.(job, item);
  }
}
