import { categories, type Category } from '@tradebot/contract';

/**
 * A user's robot settings as the contract spells them (spec §3, "User config"). `all` switches
 * every category on regardless of the individual flags (decision 020).
 */
export interface RobotSettings {
  readonly bot_on: boolean;
  readonly risk: number;
  readonly categories_enabled: Readonly<Record<Category | 'all', boolean>>;
}

export const defaultRobotSettings: RobotSettings = {
  bot_on: false,
  risk: 1,
  categories_enabled: {
    forex: false,
    cripto: false,
    stocks: false,
    index: false,
    commodities: false,
    all: false,
  },
};

export function isCategoryEnabled(settings: RobotSettings, category: Category): boolean {
  return settings.categories_enabled.all || settings.categories_enabled[category];
}

export function enabledCategories(settings: RobotSettings): Category[] {
  return categories.filter((category) => isCategoryEnabled(settings, category));
}

export interface AccountRegistration {
  readonly accountId: string;
  readonly settings: RobotSettings;
}

/**
 * Port: where the engine finds the accounts it trades for at start-up. Later changes are
 * pushed with `TradingEngine.applySettings`.
 */
export interface AccountSettingsSource {
  loadAll(): Promise<readonly AccountRegistration[]>;
}

export class InMemoryAccountSettingsSource implements AccountSettingsSource {
  private readonly byAccount = new Map<string, RobotSettings>();

  constructor(registrations: readonly AccountRegistration[] = []) {
    for (const r of registrations) this.byAccount.set(r.accountId, r.settings);
  }

  set(accountId: string, settings: RobotSettings): void {
    this.byAccount.set(accountId, settings);
  }

  loadAll(): Promise<readonly AccountRegistration[]> {
    return Promise.resolve(
      [...this.byAccount].map(([accountId, settings]) => ({ accountId, settings })),
    );
  }
}
