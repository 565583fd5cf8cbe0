import { and, desc, eq, gt, inArray, isNull, lt, sql } from 'drizzle-orm';
import type { Db } from '../db/database';
import { passwordResetCodes, users } from '../db/schema';
import { revokeAllSessions } from './sessions.repository';

export type ResetCodeRow = typeof passwordResetCodes.$inferSelect;

/** The password reset port services depend on; `PasswordResetRepository` is its database implementation. */
export interface PasswordResetStore {
  /** A new code replaces every earlier unused one. */
  replaceCode(userId: string, codeHash: string, now: Date, expiresAt: Date): Promise<void>;
  /**
   * Takes one of the tries of the user's newest usable code, atomically, before the code is
   * compared: concurrent guesses each need a try of their own, so no more than `maxAttempts`
   * comparisons ever happen (a concurrent update waits for the other and re-checks the count).
   * Undefined when there is no usable code or no try left.
   */
  claimTry(userId: string, now: Date, maxAttempts: number): Promise<ResetCodeRow | undefined>;
  /**
   * Uses the code, sets the new password and ends every session, all or nothing.
   * Returns false when the code was used meanwhile (two requests racing).
   */
  consumeAndSetPassword(
    codeId: string,
    userId: string,
    passwordHash: string,
    now: Date,
  ): Promise<boolean>;
}

export class PasswordResetRepository implements PasswordResetStore {
  constructor(private readonly db: Db) {}

  /** A new code replaces every earlier unused one. */
  async replaceCode(userId: string, codeHash: string, now: Date, expiresAt: Date): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx
        .update(passwordResetCodes)
        .set({ usedAt: now })
        .where(and(eq(passwordResetCodes.userId, userId), isNull(passwordResetCodes.usedAt)));
      await tx.insert(passwordResetCodes).values({ userId, codeHash, expiresAt });
    });
  }

  /**
   * Takes one of the tries of the user's newest usable code, atomically, before the code is
   * compared: concurrent guesses each need a try of their own, so no more than `maxAttempts`
   * comparisons ever happen (a concurrent update waits for the other and re-checks the count).
   * Undefined when there is no usable code or no try left.
   */
  async claimTry(
    userId: string,
    now: Date,
    maxAttempts: number,
  ): Promise<ResetCodeRow | undefined> {
    const usable = and(
      eq(passwordResetCodes.userId, userId),
      isNull(passwordResetCodes.usedAt),
      gt(passwordResetCodes.expiresAt, now),
    );
    const newest = this.db
      .select({ id: passwordResetCodes.id })
      .from(passwordResetCodes)
      .where(usable)
      .orderBy(desc(passwordResetCodes.createdAt))
      .limit(1);
    const [row] = await this.db
      .update(passwordResetCodes)
      .set({ attempts: sql`${passwordResetCodes.attempts} + 1` })
      .where(
        and(
          inArray(passwordResetCodes.id, newest),
          usable,
          lt(passwordResetCodes.attempts, maxAttempts),
        ),
      )
      .returning();
    return row;
  }

  /**
   * Uses the code, sets the new password and ends every session, all or nothing.
   * Returns false when the code was used meanwhile (two requests racing).
   */
  async consumeAndSetPassword(
    codeId: string,
    userId: string,
    passwordHash: string,
    now: Date,
  ): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const used = await tx
        .update(passwordResetCodes)
        .set({ usedAt: now })
        .where(and(eq(passwordResetCodes.id, codeId), isNull(passwordResetCodes.usedAt)))
        .returning({ id: passwordResetCodes.id });
      if (used.length === 0) return false;
      await tx.update(users).set({ passwordHash, updatedAt: now }).where(eq(users.id, userId));
      await revokeAllSessions(tx, userId, now);
      return true;
    });
  }
}
