import { eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '../db/database';
import { isUniqueViolation } from '../db/errors';
import { platformAccounts, platformUsers } from '../db/schema';

export type PlatformUserRow = typeof platformUsers.$inferSelect;

/** The built-in platform's logins (its own user table). */
export class PlatformUsersRepository {
  constructor(private readonly db: Db) {}

  /** Inserts the login unless the e-mail (in any case) or the account already has one. */
  async create(row: typeof platformUsers.$inferInsert): Promise<boolean> {
    const inserted = await this.db
      .insert(platformUsers)
      .values(row)
      .onConflictDoNothing()
      .returning({ accountId: platformUsers.accountId });
    return inserted.length > 0;
  }

  async findByEmail(email: string): Promise<PlatformUserRow | undefined> {
    const [row] = await this.db
      .select()
      .from(platformUsers)
      .where(sql`lower(${platformUsers.email}) = lower(${email})`)
      .limit(1);
    return row;
  }

  /** The login of one account (the Tradebot user's id, decision 042). */
  async findByAccount(accountId: string): Promise<PlatformUserRow | undefined> {
    const [row] = await this.db
      .select()
      .from(platformUsers)
      .where(eq(platformUsers.accountId, accountId))
      .limit(1);
    return row;
  }

  /**
   * Gives an account's login the user's current e-mail; false when another login has that
   * address (then the login keeps its own, and signing in still works by the account).
   */
  async changeEmail(accountId: string, email: string): Promise<boolean> {
    if (await this.findByEmail(email)) return false;
    try {
      const changed = await this.db
        .update(platformUsers)
        .set({ email })
        .where(eq(platformUsers.accountId, accountId))
        .returning({ accountId: platformUsers.accountId });
      return changed.length > 0;
    } catch (error) {
      // Another login took the address in between (the unique index on the e-mail).
      if (isUniqueViolation(error)) return false;
      throw error;
    }
  }

  /** Whether the platform opened this account, in any process (with leases, maybe not this one). */
  async isOpened(accountId: string): Promise<boolean> {
    const [row] = await this.db
      .select({ accountId: platformAccounts.accountId })
      .from(platformAccounts)
      .where(eq(platformAccounts.accountId, accountId))
      .limit(1);
    return row !== undefined;
  }

  /** Logins whose account the platform has not opened yet (oldest first). */
  async unopened(limit: number): Promise<PlatformUserRow[]> {
    return this.db
      .select({
        accountId: platformUsers.accountId,
        email: platformUsers.email,
        passwordHash: platformUsers.passwordHash,
        startingBalanceCents: platformUsers.startingBalanceCents,
        createdAt: platformUsers.createdAt,
      })
      .from(platformUsers)
      .leftJoin(platformAccounts, eq(platformAccounts.accountId, platformUsers.accountId))
      .where(isNull(platformAccounts.accountId))
      .orderBy(platformUsers.createdAt)
      .limit(limit);
  }
}
