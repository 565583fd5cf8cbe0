import { asc, eq } from 'drizzle-orm';
import type { Db } from '../db/database';
import { userConsents } from '../db/schema';

export type ConsentRow = typeof userConsents.$inferSelect;
export type NewConsent = Omit<typeof userConsents.$inferInsert, 'id' | 'createdAt'>;

/** The consents an account gave or refused, kept as evidence (decision 087). */
export interface ConsentsStore {
  /** Records them inside the caller's transaction (the account is created in the same one). */
  record(tx: Db, consents: NewConsent[]): Promise<void>;
  /** An account's consents, oldest first. */
  listFor(userId: string): Promise<ConsentRow[]>;
}

export class ConsentsRepository implements ConsentsStore {
  constructor(private readonly db: Db) {}

  async record(tx: Db, consents: NewConsent[]): Promise<void> {
    if (consents.length === 0) return;
    await tx.insert(userConsents).values(consents);
  }

  async listFor(userId: string): Promise<ConsentRow[]> {
    return this.db
      .select()
      .from(userConsents)
      .where(eq(userConsents.userId, userId))
      .orderBy(asc(userConsents.givenAt), asc(userConsents.purpose));
  }
}
