import { categories } from '@tradebot/contract';
import { eq, sql } from 'drizzle-orm';
import type { Db } from '../db/database';
import { users, userSettings } from '../db/schema';

export type UserRow = typeof users.$inferSelect;
export type NewUser = typeof users.$inferInsert;
export type SettingsRow = typeof userSettings.$inferSelect;
export type OnboardingFlags = Pick<SettingsRow, 'linked' | 'loginTradear' | 'authorized'>;

/** Every category on, so that a robot switched on trades everywhere until the user narrows it. */
export const allCategoriesEnabled = Object.fromEntries(
  [...categories, 'all'].map((category) => [category, true]),
) as SettingsRow['categoriesEnabled'];

export class UsersRepository {
  constructor(private readonly db: Db) {}

  async findByEmail(email: string): Promise<UserRow | undefined> {
    const [row] = await this.db
      .select()
      .from(users)
      .where(sql`lower(${users.email}) = lower(${email})`)
      .limit(1);
    return row;
  }

  async findSettings(userId: string): Promise<SettingsRow | undefined> {
    const [row] = await this.db
      .select()
      .from(userSettings)
      .where(eq(userSettings.userId, userId))
      .limit(1);
    return row;
  }

  /** The user and their settings row, together or not at all. */
  async create(user: NewUser, flags: Partial<OnboardingFlags> = {}): Promise<UserRow> {
    return this.db.transaction(async (tx) => {
      const [created] = await tx.insert(users).values(user).returning();
      if (!created) throw new Error('insert returned no row');
      await tx
        .insert(userSettings)
        .values({ userId: created.id, categoriesEnabled: allCategoriesEnabled, ...flags });
      return created;
    });
  }
}
