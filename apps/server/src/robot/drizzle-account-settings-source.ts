import { categories } from '@tradebot/contract';
import type { AccountRegistration, AccountSettingsSource, RobotSettings } from '@tradebot/robot';
import { eq } from 'drizzle-orm';
import type { Db } from '../db/database';
import { platformAccounts, userSettings } from '../db/schema';
import type { SettingsRow } from '../repositories/users.repository';

/**
 * The settings the engine applies for a user: the robot is on only while the user wants it on
 * and has paid and linked (spec §3 and §6; ISSUE 9, "Who trades"). Categories are coerced to
 * booleans as the spec coerces them on load.
 */
export function effectiveRobotSettings(
  row: Pick<SettingsRow, 'botOn' | 'authorized' | 'linked' | 'risk' | 'categoriesEnabled'>,
): RobotSettings {
  const stored = row.categoriesEnabled;
  return {
    bot_on: row.botOn && row.authorized && row.linked,
    risk: row.risk,
    categories_enabled: Object.fromEntries(
      [...categories, 'all' as const].map((category) => [category, stored[category] === true]),
    ) as RobotSettings['categories_enabled'],
  };
}

/**
 * The engine's AccountSettingsSource on `user_settings`: every user with an account at the
 * built-in platform is registered, whether or not their robot is on, so that turning it on
 * later is a settings change and not a new registration.
 */
export class DrizzleAccountSettingsSource implements AccountSettingsSource {
  constructor(private readonly db: Db) {}

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
      .innerJoin(platformAccounts, eq(platformAccounts.accountId, userSettings.userId));
    return rows.map((row) => ({ accountId: row.accountId, settings: effectiveRobotSettings(row) }));
  }
}
