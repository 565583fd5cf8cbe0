import type { AccountRegistration, AccountSettingsSource } from '@tradebot/robot';
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { pgArrayLiteral } from '../../db/pg-array';
import { platformAccounts, tradingPlatformLinks, userSettings } from '../../db/schema';
import { effectiveRobotSettings } from '../../domain/robot-settings';
import { notLinkedToCTrader } from './drizzle-execution-store';

/**
 * The engine's AccountSettingsSource on `user_settings`. For the built-in platform (the default),
 * every user with an account there and no cTrader link is registered, whether or not their robot
 * is on, so that turning it on later is a settings change and not a new registration. For a
 * cTrader run (decision 096), the one account it trades, while it is linked to cTrader.
 */
export class DrizzleAccountSettingsSource implements AccountSettingsSource {
  constructor(
    private readonly db: Db,
    /** Only these accounts (a robot holding leases, decision 092); every account otherwise. */
    private readonly accounts?: readonly string[],
    private readonly platform: 'built-in' | 'ctrader' = 'built-in',
  ) {}

  async loadAll(): Promise<readonly AccountRegistration[]> {
    const held =
      this.accounts === undefined
        ? undefined
        : sql`${userSettings.userId} = any(${pgArrayLiteral(this.accounts)}::uuid[])`;
    const columns = {
      accountId: userSettings.userId,
      botOn: userSettings.botOn,
      authorized: userSettings.authorized,
      linked: userSettings.linked,
      risk: userSettings.risk,
      categoriesEnabled: userSettings.categoriesEnabled,
    };
    const rows =
      this.platform === 'ctrader'
        ? await this.db
            .select(columns)
            .from(userSettings)
            .innerJoin(tradingPlatformLinks, eq(tradingPlatformLinks.userId, userSettings.userId))
            .where(and(eq(tradingPlatformLinks.platform, 'ctrader'), held))
        : await this.db
            .select(columns)
            .from(userSettings)
            .innerJoin(platformAccounts, eq(platformAccounts.accountId, userSettings.userId))
            .where(and(notLinkedToCTrader(userSettings.userId), held));
    return rows.map((row) => ({ accountId: row.accountId, settings: effectiveRobotSettings(row) }));
  }
}
