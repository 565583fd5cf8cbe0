import { categories, type Category } from '@tradebot/contract';
import { isCategoryEnabled, type RobotSettings } from '../settings/robot-settings';

/**
 * Category -> accounts whose robot is on and whose settings include the category. A tick
 * reaches only those accounts (spec §3 settings); the index changes when settings change, so no
 * tick ever scans every account.
 */
export class SubscriptionIndex<A extends { readonly accountId: string }> {
  private readonly byCategory = new Map<Category, Map<string, A>>(
    categories.map((category) => [category, new Map()]),
  );

  update(account: A, settings: RobotSettings): void {
    for (const category of categories) {
      const subscribers = this.byCategory.get(category);
      if (!subscribers) continue;
      if (settings.bot_on && isCategoryEnabled(settings, category)) {
        subscribers.set(account.accountId, account);
      } else {
        subscribers.delete(account.accountId);
      }
    }
  }

  remove(accountId: string): void {
    for (const subscribers of this.byCategory.values()) subscribers.delete(accountId);
  }

  subscribers(category: Category): Iterable<A> {
    return this.byCategory.get(category)?.values() ?? [];
  }

  count(category: Category): number {
    return this.byCategory.get(category)?.size ?? 0;
  }
}
