import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Db } from '../db/database';
import { sessions, users } from '../db/schema';
import type { UserRow } from './users.repository';

function insertSession(db: Db) {
  return db
    .insert(sessions)
    .values({
      userId: sql.placeholder('userId'),
      tokenHash: sql.placeholder('tokenHash'),
      expiresAt: sql.placeholder('expiresAt'),
    })
    .prepare('sessions_create');
}

export class SessionsRepository {
  /** Built once: every login and registration inserts a session. */
  private insertQuery: ReturnType<typeof insertSession> | undefined;

  constructor(private readonly db: Db) {}

  async create(userId: string, tokenHash: string, expiresAt: Date): Promise<void> {
    this.insertQuery ??= insertSession(this.db);
    await this.insertQuery.execute({ userId, tokenHash, expiresAt });
  }

  /** The user behind a live (unexpired, unrevoked) session. */
  async findActiveUser(
    tokenHash: string,
    now: Date,
  ): Promise<{ sessionId: string; user: UserRow; expiresAt: Date } | undefined> {
    const [row] = await this.db
      .select({ sessionId: sessions.id, user: users, expiresAt: sessions.expiresAt })
      .from(sessions)
      .innerJoin(users, eq(users.id, sessions.userId))
      .where(
        and(
          eq(sessions.tokenHash, tokenHash),
          isNull(sessions.revokedAt),
          gt(sessions.expiresAt, now),
        ),
      )
      .limit(1);
    return row;
  }

  async revoke(sessionId: string, now: Date): Promise<void> {
    await this.db
      .update(sessions)
      .set({ revokedAt: now })
      .where(and(eq(sessions.id, sessionId), isNull(sessions.revokedAt)));
  }
}

/** Used inside the password-change transaction: every session of the user ends. */
export async function revokeAllSessions(db: Db, userId: string, now: Date): Promise<void> {
  await db
    .update(sessions)
    .set({ revokedAt: now })
    .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt)));
}
