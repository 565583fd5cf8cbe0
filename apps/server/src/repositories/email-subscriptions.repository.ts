import { and, isNull, lt, or, sql } from 'drizzle-orm';
import type { Db } from '../db/database';
import { emailSubscriptions } from '../db/schema';

/** The e-mail subscriptions port services depend on; `EmailSubscriptionsRepository` is its database implementation. */
export interface EmailSubscriptionsStore {
  /** Stores the e-mail once. Returns true when it is new. */
  add(email: string, promo: string | null, language: string): Promise<boolean>;
  /**
   * Takes the right to mail the code now, atomically: true when it was never mailed or last
   * mailed before `mailedBefore` (two requests at once cannot both take it). Keeps the
   * visitor's latest language.
   */
  claimCodeMail(email: string, language: string, now: Date, mailedBefore: Date): Promise<boolean>;
}

export class EmailSubscriptionsRepository implements EmailSubscriptionsStore {
  constructor(private readonly db: Db) {}

  /** Stores the e-mail once. Returns true when it is new. */
  async add(email: string, promo: string | null, language: string): Promise<boolean> {
    const inserted = await this.db
      .insert(emailSubscriptions)
      .values({ email, promo, language })
      .onConflictDoNothing()
      .returning({ id: emailSubscriptions.id });
    return inserted.length > 0;
  }

  /**
   * Takes the right to mail the code now, atomically: true when it was never mailed or last
   * mailed before `mailedBefore` (two requests at once cannot both take it). Keeps the
   * visitor's latest language.
   */
  async claimCodeMail(
    email: string,
    language: string,
    now: Date,
    mailedBefore: Date,
  ): Promise<boolean> {
    const claimed = await this.db
      .update(emailSubscriptions)
      .set({ codeMailedAt: now, language })
      .where(
        and(
          sql`lower(${emailSubscriptions.email}) = lower(${email})`,
          or(
            isNull(emailSubscriptions.codeMailedAt),
            lt(emailSubscriptions.codeMailedAt, mailedBefore),
          ),
        ),
      )
      .returning({ id: emailSubscriptions.id });
    return claimed.length > 0;
  }
}
