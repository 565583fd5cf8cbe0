import type { Db } from '../db/database';
import { emailSubscriptions } from '../db/schema';

export class EmailSubscriptionsRepository {
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
}
