import { and, desc, eq, gt, gte, isNull, ne, sql } from 'drizzle-orm';
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
      userAgent: sql.placeholder('userAgent'),
      lastUsedAt: sql.placeholder('lastUsedAt'),
    })
    .prepare('sessions_create');
}

/** The sessions port services depend on; `SessionsRepository` is its implementation. */
export interface SessionsStore {
  create(
    userId: string,
    tokenHash: string,
    expiresAt: Date,
    userAgent?: string | null,
    now?: Date | null,
  ): Promise<void>;
  /** The user behind a live (unexpired, unrevoked) session. */
  findActiveUser(
    tokenHash: string,
    now: Date,
  ): Promise<
    { sessionId: string; user: UserRow; expiresAt: Date; lastUsedAt: Date | null } | undefined
  >;
  revoke(sessionId: string, now: Date): Promise<void>;
  /** Notes that the session was used now (decision 080: at most every few minutes). */
  touch(sessionId: string, now: Date): Promise<void>;
  /** A user's live sessions, the most recently used first. */
  listActive(userId: string, now: Date): Promise<ActiveSessionRow[]>;
  /** Ends one live session of this user; false when there was none (gone, or another's). */
  revokeOwn(userId: string, sessionId: string, now: Date): Promise<boolean>;
  /** Ends every session of the user but `keep`; returns the ids it ended. */
  revokeOthers(userId: string, keep: string, now: Date): Promise<string[]>;
}

export class SessionsRepository implements SessionsStore {
  /** Built once: every login and registration inserts a session. */
  private insertQuery: ReturnType<typeof insertSession> | undefined;

  constructor(private readonly db: Db) {}

  async create(
    userId: string,
    tokenHash: string,
    expiresAt: Date,
    userAgent: string | null = null,
    now: Date | null = null,
  ): Promise<void> {
    this.insertQuery ??= insertSession(this.db);
    await this.insertQuery.execute({ userId, tokenHash, expiresAt, userAgent, lastUsedAt: now });
  }

  /** The user behind a live (unexpired, unrevoked) session. */
  async findActiveUser(
    tokenHash: string,
    now: Date,
  ): Promise<
    { sessionId: string; user: UserRow; expiresAt: Date; lastUsedAt: Date | null } | undefined
  > {
    const [row] = await this.db
      .select({
        sessionId: sessions.id,
        user: users,
        expiresAt: sessions.expiresAt,
        lastUsedAt: sessions.lastUsedAt,
      })
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

  /** Notes that the session was used now (decision 080: at most every few minutes). */
  async touch(sessionId: string, now: Date): Promise<void> {
    await this.db.update(sessions).set({ lastUsedAt: now }).where(eq(sessions.id, sessionId));
  }

  /**
   * The user's sessions for the new-device alert (decision 163): the User-Agents of those opened
   * since `since`, live or not, and how many they ever had.
   */
  async devicesSince(
    userId: string,
    since: Date,
  ): Promise<{ recent: (string | null)[]; ever: number }> {
    const rows = await this.db
      .select({ userAgent: sessions.userAgent, recent: gte(sessions.createdAt, since) })
      .from(sessions)
      .where(eq(sessions.userId, userId));
    return {
      recent: rows.filter((row) => row.recent).map((row) => row.userAgent),
      ever: rows.length,
    };
  }

  /** A user's live sessions, the most recently used first. */
  async listActive(userId: string, now: Date): Promise<ActiveSessionRow[]> {
    const lastUsed = sql<Date>`coalesce(${sessions.lastUsedAt}, ${sessions.createdAt})`;
    return this.db
      .select({
        id: sessions.id,
        createdAt: sessions.createdAt,
        lastUsedAt: sessions.lastUsedAt,
        expiresAt: sessions.expiresAt,
        userAgent: sessions.userAgent,
      })
      .from(sessions)
      .where(
        and(eq(sessions.userId, userId), isNull(sessions.revokedAt), gt(sessions.expiresAt, now)),
      )
      .orderBy(desc(lastUsed), desc(sessions.createdAt));
  }

  /** Ends one live session of this user; false when there was none (gone, or another's). */
  async revokeOwn(userId: string, sessionId: string, now: Date): Promise<boolean> {
    const revoked = await this.db
      .update(sessions)
      .set({ revokedAt: now })
      .where(
        and(eq(sessions.id, sessionId), eq(sessions.userId, userId), isNull(sessions.revokedAt)),
      )
      .returning({ id: sessions.id });
    return revoked.length > 0;
  }

  /** Ends every session of the user but `keep`; returns the ids it ended. */
  revokeOthers(userId: string, keep: string, now: Date): Promise<string[]> {
    return revokeOtherSessions(this.db, userId, keep, now);
  }
}

export interface ActiveSessionRow {
  id: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  expiresAt: Date;
  userAgent: string | null;
}

/** Every session of the user but `keep` ends, inside the caller's transaction when given one. */
export async function revokeOtherSessions(
  db: Db,
  userId: string,
  keep: string,
  now: Date,
): Promise<string[]> {
  const revoked = await db
    .update(sessions)
    .set({ revokedAt: now })
    .where(and(eq(sessions.userId, userId), ne(sessions.id, keep), isNull(sessions.revokedAt)))
    .returning({ id: sessions.id });
  return revoked.map((row) => row.id);
}

/** Used inside the password-change transaction: every session of the user ends. */
export async function revokeAllSessions(db: Db, userId: string, now: Date): Promise<void> {
  await db
    .update(sessions)
    .set({ revokedAt: now })
    .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt)));
}
