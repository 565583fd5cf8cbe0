import { and, asc, desc, eq, ilike, ne, or, sql } from 'drizzle-orm';
import type { Db } from '../db/database';
import { users, userSettings } from '../db/schema';
import { houseAccount } from './track-record.repository';
import type { SettingsRow, UserRow } from './users.repository';

export interface UserListing {
  user: UserRow;
  settings: SettingsRow;
}

/** What the support console reads about users. */
export interface AdminUsersStore {
  /** By e-mail or name, case-insensitively, anywhere in the text. */
  search(query: string, limit: number): Promise<UserListing[]>;
  find(userId: string): Promise<UserListing | undefined>;
}

/** LIKE's wildcards in a search are searched for, not obeyed. */
const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;

export class AdminUsersRepository implements AdminUsersStore {
  constructor(private readonly db: Db) {}

  private listing() {
    return this.db
      .select({ user: users, settings: userSettings })
      .from(users)
      .innerJoin(userSettings, eq(userSettings.userId, users.id));
  }

  async search(query: string, limit: number): Promise<UserListing[]> {
    const pattern = likePattern(query);
    return this.listing()
      .where(
        and(
          // The robot's own account (decision 060) is no customer.
          ne(users.id, houseAccount.accountId),
          or(
            ilike(users.email, pattern),
            ilike(sql`${users.name} || ' ' || ${users.lastName}`, pattern),
            ilike(users.lastName, pattern),
          ),
        ),
      )
      .orderBy(desc(users.createdAt), asc(users.id))
      .limit(limit);
  }

  async find(userId: string): Promise<UserListing | undefined> {
    const [row] = await this.listing().where(eq(users.id, userId)).limit(1);
    return row;
  }
}
