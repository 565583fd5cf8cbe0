import { and, eq, gt, isNotNull, isNull, lt, ne, or, sql } from 'drizzle-orm';
import type { Db } from '../db/database';
import { adminSessions, admins } from '../db/schema';

export type AdminRow = typeof admins.$inferSelect;
export type NewAdmin = typeof admins.$inferInsert;
export type AdminSessionRow = typeof adminSessions.$inferSelect;

/** The support team's accounts (docs/decisions/057-admin-console.md). */
export interface AdminsStore {
  create(admin: NewAdmin): Promise<AdminRow>;
  findByEmail(email: string): Promise<AdminRow | undefined>;
  /**
   * Records a TOTP time step as used, if it is later than the last one: false when the code
   * (or an older one) was already used, so a code signs in once.
   */
  useTotpStep(adminId: string, step: number): Promise<boolean>;
  /** Admins whose TOTP secret is in clear or sealed with another key than `keyId`. */
  totpNotSealedWith(keyId: string): Promise<AdminRow[]>;
  /** Admins whose TOTP secret is sealed (any key): the start checks each still opens. */
  withSealedTotp(): Promise<AdminRow[]>;
  /** Replaces a stored secret if it is still `from`: false when it changed meanwhile. */
  resealTotp(
    adminId: string,
    from: Pick<AdminRow, 'totpKeyId' | 'totpSecret'>,
    to: { keyId: string; ciphertext: string },
  ): Promise<boolean>;
}

/** Admin bearer tokens, kept as hashes, apart from users' sessions. */
export interface AdminSessionsStore {
  create(adminId: string, tokenHash: string, expiresAt: Date): Promise<void>;
  /** The unrevoked, unexpired session of a token, with its admin. */
  findActive(
    tokenHash: string,
    now: Date,
  ): Promise<{ session: AdminSessionRow; admin: AdminRow } | undefined>;
  completeSecondFactor(sessionId: string, now: Date, expiresAt: Date): Promise<void>;
  /** Counts a wrong code; returns how many this session has had. */
  recordFailedCode(sessionId: string): Promise<number>;
  revoke(sessionId: string, now: Date): Promise<void>;
}

export class AdminsRepository implements AdminsStore {
  constructor(private readonly db: Db) {}

  async create(admin: NewAdmin): Promise<AdminRow> {
    const [row] = await this.db.insert(admins).values(admin).returning();
    if (!row) throw new Error('insert returned no row');
    return row;
  }

  async findByEmail(email: string): Promise<AdminRow | undefined> {
    const [row] = await this.db
      .select()
      .from(admins)
      .where(sql`lower(${admins.email}) = lower(${email})`)
      .limit(1);
    return row;
  }

  async useTotpStep(adminId: string, step: number): Promise<boolean> {
    const updated = await this.db
      .update(admins)
      .set({ lastTotpStep: step })
      .where(
        and(eq(admins.id, adminId), or(isNull(admins.lastTotpStep), lt(admins.lastTotpStep, step))),
      )
      .returning({ id: admins.id });
    return updated.length === 1;
  }

  async withSealedTotp(): Promise<AdminRow[]> {
    return this.db.select().from(admins).where(isNotNull(admins.totpKeyId));
  }

  async totpNotSealedWith(keyId: string): Promise<AdminRow[]> {
    return this.db
      .select()
      .from(admins)
      .where(or(isNull(admins.totpKeyId), ne(admins.totpKeyId, keyId)));
  }

  async resealTotp(
    adminId: string,
    from: Pick<AdminRow, 'totpKeyId' | 'totpSecret'>,
    to: { keyId: string; ciphertext: string },
  ): Promise<boolean> {
    const updated = await this.db
      .update(admins)
      .set({ totpKeyId: to.keyId, totpSecret: to.ciphertext })
      .where(
        and(
          eq(admins.id, adminId),
          eq(admins.totpSecret, from.totpSecret),
          from.totpKeyId === null ? isNull(admins.totpKeyId) : eq(admins.totpKeyId, from.totpKeyId),
        ),
      )
      .returning({ id: admins.id });
    return updated.length === 1;
  }
}

export class AdminSessionsRepository implements AdminSessionsStore {
  constructor(private readonly db: Db) {}

  async create(adminId: string, tokenHash: string, expiresAt: Date): Promise<void> {
    await this.db.insert(adminSessions).values({ adminId, tokenHash, expiresAt });
  }

  async findActive(tokenHash: string, now: Date) {
    const [row] = await this.db
      .select({ session: adminSessions, admin: admins })
      .from(adminSessions)
      .innerJoin(admins, eq(admins.id, adminSessions.adminId))
      .where(
        and(
          eq(adminSessions.tokenHash, tokenHash),
          isNull(adminSessions.revokedAt),
          gt(adminSessions.expiresAt, now),
        ),
      )
      .limit(1);
    return row;
  }

  async completeSecondFactor(sessionId: string, now: Date, expiresAt: Date): Promise<void> {
    await this.db
      .update(adminSessions)
      .set({ secondFactorAt: now, expiresAt })
      .where(and(eq(adminSessions.id, sessionId), isNull(adminSessions.secondFactorAt)));
  }

  async recordFailedCode(sessionId: string): Promise<number> {
    const [row] = await this.db
      .update(adminSessions)
      .set({ failedCodes: sql`${adminSessions.failedCodes} + 1` })
      .where(eq(adminSessions.id, sessionId))
      .returning({ failedCodes: adminSessions.failedCodes });
    return row?.failedCodes ?? 0;
  }

  async revoke(sessionId: string, now: Date): Promise<void> {
    await this.db
      .update(adminSessions)
      .set({ revokedAt: now })
      .where(and(eq(adminSessions.id, sessionId), isNull(adminSessions.revokedAt)));
  }
}
