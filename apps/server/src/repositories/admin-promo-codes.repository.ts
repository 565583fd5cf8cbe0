import { and, asc, desc, eq, gt, isNull, or } from 'drizzle-orm';
import type { Db } from '../db/database';
import { promoCodes, promoCodeUses, users } from '../db/schema';
import type { NewPromoCode, PromoCodeRow } from './promo-codes.repository';
import type { UserRow } from './users.repository';

export interface PromoCodeUseListing {
  use: typeof promoCodeUses.$inferSelect;
  user: Pick<UserRow, 'id' | 'email' | 'name' | 'lastName' | 'promocode'>;
}

/** The console's side of promotional codes: every code, created and retired by hand. */
export interface AdminPromoCodesStore {
  all(): Promise<PromoCodeRow[]>;
  find(code: string): Promise<PromoCodeRow | undefined>;
  /** undefined when the code exists already. */
  create(code: NewPromoCode, db?: Db): Promise<PromoCodeRow | undefined>;
  /** Ends the code's validity now, if it has not ended: undefined otherwise. */
  retire(code: string, now: Date, db?: Db): Promise<PromoCodeRow | undefined>;
  /** The code's recorded uses, newest first, with their accounts. */
  usesOf(code: string, limit: number): Promise<PromoCodeUseListing[]>;
}

export class AdminPromoCodesRepository implements AdminPromoCodesStore {
  constructor(private readonly db: Db) {}

  async all(): Promise<PromoCodeRow[]> {
    return this.db
      .select()
      .from(promoCodes)
      .orderBy(desc(promoCodes.createdAt), asc(promoCodes.code));
  }

  async find(code: string): Promise<PromoCodeRow | undefined> {
    const [row] = await this.db.select().from(promoCodes).where(eq(promoCodes.code, code)).limit(1);
    return row;
  }

  async create(code: NewPromoCode, db: Db = this.db): Promise<PromoCodeRow | undefined> {
    const [row] = await db.insert(promoCodes).values(code).onConflictDoNothing().returning();
    return row;
  }

  async retire(code: string, now: Date, db: Db = this.db): Promise<PromoCodeRow | undefined> {
    const [row] = await db
      .update(promoCodes)
      .set({ validUntil: now })
      .where(
        and(
          eq(promoCodes.code, code),
          or(isNull(promoCodes.validUntil), gt(promoCodes.validUntil, now)),
        ),
      )
      .returning();
    return row;
  }

  async usesOf(code: string, limit: number): Promise<PromoCodeUseListing[]> {
    return this.db
      .select({
        use: promoCodeUses,
        user: {
          id: users.id,
          email: users.email,
          name: users.name,
          lastName: users.lastName,
          promocode: users.promocode,
        },
      })
      .from(promoCodeUses)
      .innerJoin(users, eq(users.id, promoCodeUses.userId))
      .where(eq(promoCodeUses.code, code))
      .orderBy(desc(promoCodeUses.usedAt), desc(promoCodeUses.id))
      .limit(limit);
  }
}
