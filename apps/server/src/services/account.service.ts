import { categories, privacyPolicyVersion, type UserConfig } from '@tradebot/contract';
import type { Clock } from '../repositories/clock';
import type { ConsentsStore } from '../repositories/consents.repository';
import type { UserRow, UsersStore } from '../repositories/users.repository';
import { accountLanguage } from './account-settings.service';
import type { Transact } from '../repositories/transaction';

/** The config's categories, every one always present (get-settings builds this per request). */
const configCategories = [...categories, 'all'] as const;

export class AccountService {
  constructor(
    private readonly users: UsersStore,
    private readonly clock: Clock,
    private readonly consents: ConsentsStore,
    private readonly transact: Transact,
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

  /**
   * Turns the newsletter on or off, and records it as a marketing consent given or withdrawn,
   * with the moment and the policy version, in the same transaction (decision 089): later
   * opt-ins and opt-outs are evidenced as the registration's are (decision 087).
   */
  async toggleNewsletter(user: UserRow): Promise<boolean> {
    const now = this.clock.now();
    const subscribed = await this.transact(async (tx) => {
      const toggled = await this.users.toggleNewsletter(user.id, now, tx);
      await this.consents.record(tx, [
        {
          userId: user.id,
          purpose: 'marketing',
          granted: toggled,
          policyVersion: privacyPolicyVersion,
          language: accountLanguage(user),
          source: 'settings',
          givenAt: now,
        },
      ]);
      return toggled;
    });
    // Read elsewhere before the commit, the cached row may be the old one (decision 045).
    await this.users.userChanged(user.id);
    return subscribed;
  }
}
