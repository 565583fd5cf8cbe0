import type { AccountRegistration, AccountSettingsSource } from '@tradebot/robot';
import { eq, sql } from 'drizzle-orm';
import type { Db } from '../db/database';
import { pgArrayLiteral } from '../db/pg-array';
import { platformAccounts, userSettings } from '../db/schema';
import { effectiveRobotSettings } from '../domain/robot-settings';

/**
 * The engine's AccountSettingsSource on `user_settings`: every user with an account at the
 * built-in platform is registered, whether or not their robot is on, so that turning it on
 * later is a settings change and not a new registration.
 */
export class DrizzleAccountSettingsSource implements AccountSettingsSource {
  constructor(
    private readonly db: Db,
    /** Only these accounts (a robot holding leases, decision 092); every account otherwise. */
    private readonly accounts?: readonly string[],
  ) {}

  async loadAll(): Promise<readonly AccountRegistration[]> {
    const rows = await this.db
      .select({
        accountId: userSettings.userId,
        botOn: userSettings.botOn,
        authorized: userSettings.authorized,
        linked: userSettings.linked,
        risk: userSettings.risk,
        categoriesEnabled: userSettings.categoriesEnabled,
      })
      .from(userSettings)
      .innerJoin(platformAccounts, eq(platformAccounts.accountId, userSettings.userId))
      .where(
        this.accounts === undefined
          ? undefined
          : sql`${userSettings.userId} = any(${pgArrayLiteral(this.accounts)}::uuid[])`,
      );
    return rows.map((row) => ({ accountId: row.accountId, settings: effectiveRobotSettings(row) }));
  }
}
