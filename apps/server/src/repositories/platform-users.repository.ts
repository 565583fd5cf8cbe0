import { eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '../db/database';
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
