import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/database';
import { jobClaims } from '../db/schema';

/** Something done once per window: given back if it could not be done after all. */
export interface WindowTaken {
  /** The work failed: the item may be taken again at once (by any process). */
  release(): Promise<void>;
}

/**
 * At most once per window per item, across every process sharing the database (decision 079):
 * the first to take an item holds it until the window ends; everyone else, meanwhile, gets
 * nothing.
 */
export interface OncePerWindow {
  take(job: string, item: string, windowMs: number): Promise<WindowTaken | undefined>;
}

/**
 * On decision 078's `job_claims`: a row per item whose `claimed_until` is the end of its window,
 * on the database's clock. One statement takes it: inserted, or taken over once the window
 * ended; concurrent takers are serialised by the primary key, so exactly one gets a row. The
 * row is marked finished at once, so billing's pruning forgets it three days later.
 */
export class DrizzleOncePerWindow implements OncePerWindow {
  constructor(
    private readonly db: Db,
    private readonly owner: string,
  ) {}

  async take(job: string, item: string, windowMs: number): Promise<WindowTaken | undefined> {
    const until = sql`now() + ${windowMs} * interval '1 millisecond'`;
    const rows = await this.db
      .insert(jobClaims)
      .values({
        job,
        item,
        owner: this.owner,
        claims: 1,
        claimedUntil: until,
        finishedAt: sql`now()`,
      })
      .onConflictDoUpdate({
        target: [jobClaims.job, jobClaims.item],
        set: {
          owner: this.owner,
          claims: sql`${jobClaims.claims} + 1`,
          claimedUntil: until,
          finishedAt: sql`now()`,
        },
        setWhere: sql`${jobClaims.claimedUntil} <= now()`,
      })
      .returning({ claims: jobClaims.claims });
    const taken = rows[0]?.claims;
    if (taken === undefined) return undefined;
    return {
      release: async () => {
        await this.db
          .delete(jobClaims)
          .where(
            and(
              eq(jobClaims.job, job),
              eq(jobClaims.item, item),
              eq(jobClaims.owner, this.owner),
              eq(jobClaims.claims, taken),
            ),
          );
      },
    };
  }
}
