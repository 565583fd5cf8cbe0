import { categories, type UserConfig } from '@tradebot/contract';
import type { Clock } from '../repositories/clock';
import type { UserRow, UsersRepository } from '../repositories/users.repository';

/** The config's categories, every one always present (get-settings builds this per request). */
const configCategories = [...categories, 'all'] as const;

export class AccountService {
  constructor(
    private readonly users: UsersRepository,
    private readonly clock: Clock,
  ) {}

  /** spec §3 User config, exactly its shape. */
  async userConfig(user: UserRow): Promise<UserConfig> {
    const settings = await this.users.findSettings(user.id);
    if (!settings) throw new Error(`user ${user.id} has no settings row`);
    const stored = settings.categoriesEnabled;
    const categoriesEnabled = {} as Record<(typeof configCategories)[number], boolean>;
    for (const category of configCategories) {
      categoriesEnabled[category] = stored[category] === true;
    }
    return {
      user: {
        id: user.id,
        name: user.name,
        last_name: user.lastName,
        email: user.email,
        subscribed_newsletter: user.subscribedNewsletter,
      },
      settings: {
        bot_on: settings.botOn,
        risk: settings.risk,
        categories_enabled: categoriesEnabled,
      },
      linked: settings.linked,
      login_tradear: settings.loginTradear,
      authorized: settings.authorized,
    };
  }

  async toggleNewsletter(user: UserRow): Promise<boolean> {
    return this.users.toggleNewsletter(user.id, this.clock.now());
  }
}
