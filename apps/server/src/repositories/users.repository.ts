import { categories } from '@tradebot/contract';
import { eq, sql } from 'drizzle-orm';
import type { Db } from '../db/database';
import { users, userSettings } from '../db/schema';
import { refusingDuplicates } from './errors';

export type UserRow = typeof users.$inferSelect;
export type NewUser = typeof users.$inferInsert;
export type SettingsRow = typeof userSettings.$inferSelect;
export type OnboardingFlags = Pick<SettingsRow, 'linked' | 'loginTradear' | 'authorized'>;

/** Every category on, so that a robot switched on trades everywhere until the user narrows it. */
export const allCategoriesEnabled = Object.fromEntries(
  [...categories, 'all'].map((category) => [category, true]),
) as SettingsRow['categoriesEnabled'];

/** What a login needs of a user: whom the session is for, and the hash to verify against. */
export type LoginCredentials = Pick<UserRow, 'id' | 'passwordHash'>;

function credentialsByEmail(db: Db) {
  return db
    .select({ id: users.id, passwordHash: users.passwordHash })
    .from(users)
    .where(sql`lower(${users.email}) = lower(${sql.placeholder('email')})`)
    .limit(1)
    .prepare('users_credentials_by_email');
}

/**
 * The users port services depend on (issue 19: services are unit-tested with plain stubs).
 * `UsersRepository` is its database implementation, `CachedUsersRepository` adds the session
 * cache. Methods that take `db` run inside the caller's transaction when given one.
 */
export interface UsersStore {
  findCredentials(email: string): Promise<LoginCredentials | undefined>;
  findByEmail(email: string): Promise<UserRow | undefined>;
  findSettings(userId: string): Promise<SettingsRow | undefined>;
  findById(id: string): Promise<UserRow | undefined>;
  create(
    user: NewUser,
    flags?: Partial<OnboardingFlags>,
    before?: (tx: Db) => Promise<void>,
    after?: (tx: Db, created: UserRow) => Promise<void>,
  ): Promise<UserRow>;
  updateRobotSettings(
    userId: string,
    settings: Pick<SettingsRow, 'botOn' | 'risk' | 'categoriesEnabled'>,
    now: Date,
  ): Promise<SettingsRow>;
  toggleNewsletter(userId: string, now: Date, db?: Db): Promise<boolean>;
  lockedPromocode(userId: string, db: Db): Promise<string | null>;
  setPromocode(userId: string, promocode: string, now: Date, db?: Db): Promise<void>;
  /** Called after a transaction that wrote the user's row commits. */
  userChanged(userId: string): Promise<void>;
}

export class UsersRepository implements UsersStore {
  /** Built once: a login's lookup skips building its SQL (and PostgreSQL re-planning it). */
  private credentialsQuery: ReturnType<typeof credentialsByEmail> | undefined;

  constructor(private readonly db: Db) {}

  /** The two columns a login reads, by e-mail (any case), with a prepared statement. */
  async findCredentials(email: string): Promise<LoginCredentials | undefined> {
    this.credentialsQuery ??= credentialsByEmail(this.db);
    const [row] = await this.credentialsQuery.execute({ email });
    return row;
  }

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

  async findById(id: string): Promise<UserRow | undefined> {
    const [row] = await this.db.select().from(users).where(eq(users.id, id)).limit(1);
    return row;
  }

  /**
   * The user and their settings row, together or not at all. `before` runs first in the
   * same transaction (redeeming a promo code), `after` once both rows are in (the promo code's
   * benefit); either aborts everything by throwing. An address (or any other unique key
   * written in the transaction) already taken is refused with `DuplicateKey`.
   */
  async create(
    user: NewUser,
    flags: Partial<OnboardingFlags> = {},
    before?: (tx: Db) => Promise<void>,
    after?: (tx: Db, created: UserRow) => Promise<void>,
  ): Promise<UserRow> {
    return refusingDuplicates(() =>
      this.db.transaction(async (tx) => {
        if (before) await before(tx);
        const [created] = await tx.insert(users).values(user).returning();
        if (!created) throw new Error('insert returned no row');
        await tx
          .insert(userSettings)
          .values({ userId: created.id, categoriesEnabled: allCategoriesEnabled, ...flags });
        if (after) await after(tx, created);
        return created;
      }),
    );
  }

  /** spec §7 settings: the robot's switch, risk level and categories. Returns the row now stored. */
  async updateRobotSettings(
    userId: string,
    settings: Pick<SettingsRow, 'botOn' | 'risk' | 'categoriesEnabled'>,
    now: Date,
  ): Promise<SettingsRow> {
    const [row] = await this.db
      .update(userSettings)
      .set({ ...settings, updatedAt: now })
      .where(eq(userSettings.userId, userId))
      .returning();
    if (!row) throw new Error(`user ${userId} has no settings row`);
    return row;
  }

  /** Flips the newsletter opt-in and returns the new value. */
  /** Inside the caller's transaction when given one (the consent row goes with it). */
  async toggleNewsletter(userId: string, now: Date, db: Db = this.db): Promise<boolean> {
    const [row] = await db
      .update(users)
      .set({ subscribedNewsletter: sql`not ${users.subscribedNewsletter}`, updatedAt: now })
      .where(eq(users.id, userId))
      .returning({ subscribed: users.subscribedNewsletter });
    if (!row) throw new Error(`user ${userId} vanished`);
    return row.subscribed;
  }

  /**
   * The user's promo code, read with the row locked until the transaction `db` ends: two
   * requests of one user applying codes at once take turns (PostgreSQL; PGlite has one
   * connection and runs them in turn anyway).
   */
  async lockedPromocode(userId: string, db: Db): Promise<string | null> {
    const [row] = await db
      .select({ promocode: users.promocode })
      .from(users)
      .where(eq(users.id, userId))
      .for('update');
    if (!row) throw new Error(`user ${userId} vanished`);
    return row.promocode;
  }

  async setPromocode(
    userId: string,
    promocode: string,
    now: Date,
    db: Db = this.db,
  ): Promise<void> {
    await db.update(users).set({ promocode, updatedAt: now }).where(eq(users.id, userId));
  }

  /** Called after a transaction that wrote the user's row commits (CachedUsersRepository). */
  userChanged(_userId: string): Promise<void> {
    // Nothing is kept here: every read goes to the database.
    return Promise.resolve();
  }
}
