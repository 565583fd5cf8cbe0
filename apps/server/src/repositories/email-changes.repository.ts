import { and, eq, gt, isNull, lte, sql } from 'drizzle-orm';
import type { Db } from '../db/database';
import { emailChanges, sessions, users } from '../db/schema';
import { revokeOtherSessions } from './sessions.repository';
import { refusingDuplicates } from './errors';

export type EmailChangeRow = typeof emailChanges.$inferSelect;
export type NewEmailChange = Omit<
  typeof emailChanges.$inferInsert,
  'id' | 'createdAt' | 'confirmedAt' | 'cancelledAt'
>;

/** What using the old address's "it was not me" link did. */
export interface EmailChangeUndone {
  /** The old address is the account's again. */
  restored: boolean;
  /** Every session of the account ended. */
  ended: string[];
}

/** E-mail address changes (decision 089): each step in one transaction. */
export interface EmailChangesStore {
  /** Stores a request; any other waiting for the same user is cancelled (the newest wins). */
  add(change: NewEmailChange, now: Date): Promise<void>;
  /** The waiting change a link mailed to a new address stands for, if it can still be used. */
  findConfirmable(tokenHash: string, now: Date): Promise<EmailChangeRow | undefined>;
  /**
   * The address changes, the link is used up and every session but the one that asked ends,
   * together. Answers the ended sessions, or undefined when the link was used meanwhile.
   * Throws the database's unique violation when the address got an account meanwhile.
   */
  confirm(change: EmailChangeRow, now: Date): Promise<string[] | undefined>;
  /** A change whose "it was not me" link still works (a week), confirmed or not. */
  findUndoable(undoTokenHash: string, now: Date): Promise<EmailChangeRow | undefined>;
  /**
   * Cancels what waits, puts the old address back if this change made the current one, and
   * ends every session, together. Throws the unique violation when the old address got an
   * account meanwhile (nothing changes then).
   */
  undo(change: EmailChangeRow, now: Date): Promise<EmailChangeUndone>;
}

export class EmailChangesRepository implements EmailChangesStore {
  constructor(private readonly db: Db) {}

  async add(change: NewEmailChange, now: Date): Promise<void> {
    await this.db.transaction(async (tx) => {
      // Rows whose week is over can no longer be used by anyone.
      await tx
        .delete(emailChanges)
        .where(and(eq(emailChanges.userId, change.userId), lte(emailChanges.undoExpiresAt, now)));
      await cancelWaiting(tx, change.userId, now);
      await tx.insert(emailChanges).values(change);
    });
  }

  async findConfirmable(tokenHash: string, now: Date): Promise<EmailChangeRow | undefined> {
    const [row] = await this.db
      .select()
      .from(emailChanges)
      .where(
        and(
          eq(emailChanges.tokenHash, tokenHash),
          eq(emailChanges.mailed, true),
          isNull(emailChanges.confirmedAt),
          isNull(emailChanges.cancelledAt),
          gt(emailChanges.expiresAt, now),
        ),
      )
      .limit(1);
    return row;
  }

  confirm(change: EmailChangeRow, now: Date): Promise<string[] | undefined> {
    return refusingDuplicates(() =>
      this.db.transaction(async (tx) => {
        const used = await tx
          .update(emailChanges)
          .set({ confirmedAt: now })
          .where(
            and(
              eq(emailChanges.id, change.id),
              isNull(emailChanges.confirmedAt),
              isNull(emailChanges.cancelledAt),
            ),
          )
          .returning({ id: emailChanges.id });
        if (used.length === 0) return undefined;
        await tx
          .update(users)
          .set({ email: change.newEmail, updatedAt: now })
          .where(and(eq(users.id, change.userId), isNull(users.deletedAt)));
        if (change.sessionId) {
          return revokeOtherSessions(tx, change.userId, change.sessionId, now);
        }
        return endAll(tx, change.userId, now);
      }),
    );
  }

  async findUndoable(undoTokenHash: string, now: Date): Promise<EmailChangeRow | undefined> {
    const [row] = await this.db
      .select()
      .from(emailChanges)
      .where(
        and(eq(emailChanges.undoTokenHash, undoTokenHash), gt(emailChanges.undoExpiresAt, now)),
      )
      .limit(1);
    return row;
  }

  undo(change: EmailChangeRow, now: Date): Promise<EmailChangeUndone> {
    return refusingDuplicates(() =>
      this.db.transaction(async (tx) => {
        await cancelWaiting(tx, change.userId, now);
        let restored = false;
        if (change.confirmedAt) {
          // Only while the address this change set is still the account's.
          const back = await tx
            .update(users)
            .set({ email: change.oldEmail, updatedAt: now })
            .where(
              and(
                eq(users.id, change.userId),
                isNull(users.deletedAt),
                sql`lower(${users.email}) = lower(${change.newEmail})`,
              ),
            )
            .returning({ id: users.id });
          restored = back.length === 1;
        }
        const ended = await endAll(tx, change.userId, now);
        return { restored, ended };
      }),
    );
  }
}

async function cancelWaiting(tx: Db, userId: string, now: Date) {
  await tx
    .update(emailChanges)
    .set({ cancelledAt: now })
    .where(
      and(
        eq(emailChanges.userId, userId),
        isNull(emailChanges.confirmedAt),
        isNull(emailChanges.cancelledAt),
      ),
    );
}

/** Every live session of the user ends; answers their ids (for the caches and sockets). */
async function endAll(tx: Db, userId: string, now: Date): Promise<string[]> {
  const ended = await tx
    .update(sessions)
    .set({ revokedAt: now })
    .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt)))
    .returning({ id: sessions.id });
  return ended.map((row) => row.id);
}
