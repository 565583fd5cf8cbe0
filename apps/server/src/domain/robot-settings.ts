import { categories } from '@tradebot/contract';
import type { RobotSettings } from '@tradebot/robot';
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
