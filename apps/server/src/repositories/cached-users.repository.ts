import type { Db } from '../db/database';
import type { SessionCache } from './session-cache';
import { UsersRepository, type SettingsRow } from './users.repository';

/**
 * The users repository with settings read through the session cache: every write of a user's
 * row or settings drops that user's cached entries (here and in the other processes) once it
 * is stored.
 */
export class CachedUsersRepository extends UsersRepository {
  constructor(
    db: Db,
    private readonly cache: SessionCache,
  ) {
    super(db);
  }

  override findSettings(userId: string): Promise<SettingsRow | undefined> {
    return this.cache.userSettings(userId, () => super.findSettings(userId));
  }

  override async updateRobotSettings(
    ...args: Parameters<UsersRepository['updateRobotSettings']>
  ): Promise<SettingsRow> {
    const row = await super.updateRobotSettings(...args);
    await this.userChanged(args[0]);
    return row;
  }

  /** Inside a caller's transaction, the caller calls `userChanged` again after the commit. */
  override async toggleNewsletter(
    ...args: Parameters<UsersRepository['toggleNewsletter']>
  ): Promise<boolean> {
    const subscribed = await super.toggleNewsletter(...args);
    await this.userChanged(args[0]);
    return subscribed;
  }

  /**
   * Inside a caller's transaction, a read elsewhere may still see the old row until it commits:
   * the caller calls `userChanged` again after the commit.
   */
  override async setPromocode(...args: Parameters<UsersRepository['setPromocode']>): Promise<void> {
    await super.setPromocode(...args);
    await this.userChanged(args[0]);
  }

  override async userChanged(userId: string): Promise<void> {
    await this.cache.changed({ kind: 'user', userId });
  }
}
