import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Db } from '../db/database';
import { sessions, signInLinks, users } from '../db/schema';

/** A session to open with a sign-in link, as `SessionsStore.create` takes one. */
export interface NewSession {
  tokenHash: string;
  expiresAt: Date;
  userAgent: string | null;
}

/** The sign-in links port (decision 130); `SignInLinksRepository` is its database implementation. */
export interface SignInLinksStore {
  create(userId: string, tokenHash: string, expiresAt: Date): Promise<void>;
  /** Whether the link is unused, unexpired and the account's whose e-mail this is. */
  usableFor(tokenHash: string, email: string, now: Date): Promise<boolean>;
  /**
   * Uses the link and opens the session, all or nothing. False when the link was used
   * meanwhile (two requests racing), expired, or is another user's: then no session opens.
   */
  consumeAndOpenSession(
    tokenHash: string,
    userId: string,
    now: Date,
    session: NewSession,
  ): Promise<boolean>;
}

export class SignInLinksRepository implements SignInLinksStore {
  constructor(private readonly db: Db) {}

  async create(userId: string, tokenHash: string, expiresAt: Date): Promise<void> {
    await this.db.insert(signInLinks).values({ userId, tokenHash, expiresAt });
  }

  async usableFor(tokenHash: string, email: string, now: Date): Promise<boolean> {
    const [row] = await this.db
      .select({ id: signInLinks.id })
      .from(signInLinks)
      .innerJoin(users, eq(users.id, signInLinks.userId))
      .where(
        and(
          eq(signInLinks.tokenHash, tokenHash),
          isNull(signInLinks.usedAt),
          gt(signInLinks.expiresAt, now),
          sql`lower(${users.email}) = lower(${email})`,
        ),
      )
      .limit(1);
    return row !== undefined;
  }

  async consumeAndOpenSession(
    tokenHash: string,
    userId: string,
    now: Date,
    session: NewSession,
  ): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const used = await tx
        .update(signInLinks)
        .set({ usedAt: now })
        .where(
          and(
            eq(signInLinks.tokenHash, tokenHash),
            eq(signInLinks.userId, userId),
            isNull(signInLinks.usedAt),
            gt(signInLinks.expiresAt, now),
          ),
        )
        .returning({ id: signInLinks.id });
      if (used.length === 0) return false;
      await tx.insert(sessions).values({ userId, ...session, lastUsedAt: now });
      return true;
    });
  }
}
