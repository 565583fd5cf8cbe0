import { and, eq, gt, isNull, lt, lte, or, sql } from 'drizzle-orm';
import type { Db } from '../db/database';
import { promoCodes, promoCodeUses } from '../db/schema';

export type PromoCodeRow = typeof promoCodes.$inferSelect;
export type NewPromoCode = typeof promoCodes.$inferInsert;
export type NewPromoCodeUse = Omit<typeof promoCodeUses.$inferInsert, 'id'>;

export const normalizePromocode = (code: string) => code.trim().toUpperCase();

function usableAt(now: Date) {
  return and(
    lte(promoCodes.validFrom, now),
    or(isNull(promoCodes.validUntil), gt(promoCodes.validUntil, now)),
    or(isNull(promoCodes.maxUses), lt(promoCodes.uses, promoCodes.maxUses)),
  );
}

/** The promo codes port services depend on; `PromoCodesRepository` is its implementation. */
export interface PromoCodesStore {
  findUsable(code: string, now: Date, db?: Db): Promise<PromoCodeRow | undefined>;
  redeem(code: string, now: Date, db?: Db): Promise<PromoCodeRow | undefined>;
  recordUse(db: Db, use: NewPromoCodeUse): Promise<void>;
  upsert(code: NewPromoCode): Promise<void>;
}

export class PromoCodesRepository implements PromoCodesStore {
  constructor(private readonly db: Db) {}

  async findUsable(code: string, now: Date, db: Db = this.db): Promise<PromoCodeRow | undefined> {
    const [row] = await db
      .select()
      .from(promoCodes)
      .where(and(eq(promoCodes.code, normalizePromocode(code)), usableAt(now)))
      .limit(1);
    return row;
  }

  /**
   * Takes one use of the code if it is still usable, atomically (no oversubscription when
   * two people redeem the last use at once). Pass a transaction to tie it to other writes.
   */
  async redeem(code: string, now: Date, db: Db = this.db): Promise<PromoCodeRow | undefined> {
    const [row] = await db
      .update(promoCodes)
      .set({ uses: sql`${promoCodes.uses} + 1` })
      .where(and(eq(promoCodes.code, normalizePromocode(code)), usableAt(now)))
      .returning();
    return row;
  }

  /** A use's history row: written in the transaction of the `redeem` it records. */
  async recordUse(db: Db, use: NewPromoCodeUse): Promise<void> {
    await db.insert(promoCodeUses).values({ ...use, code: normalizePromocode(use.code) });
  }

  async upsert(code: NewPromoCode): Promise<void> {
    const values = { ...code, code: normalizePromocode(code.code) };
    await this.db.insert(promoCodes).values(values).onConflictDoNothing();
  }
}
