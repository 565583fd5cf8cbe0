import { centsToDollars } from '@tradebot/robot';
import type { TradingPlatformId } from '@tradebot/contract';
import type { Clock } from '../repositories/clock';
import type { CredentialsCipher } from '../repositories/credentials-cipher';
import type { TradingPlatformLinksStore } from '../repositories/trading-platform-links.repository';
import type { SettingsRow, UserRow, UsersStore } from '../repositories/users.repository';
import { TradingPlatformUnavailable, type TradingPlatform } from '../platforms/trading-platform';
import {
  LinkingNeedsPayment,
  AlreadyLinked,
  AlreadyLoggedIn,
  PlatformRegistrationFailed,
  PlatformAccountExists,
  PlatformEmailTaken,
  PlatformLoginFailed,
  PlatformPasswordInvalid,
} from './linking.errors';

/** Applies a user's stored settings to the robot running in this process, if any. */
export type ApplyRobotSettings = (row: SettingsRow) => Promise<void>;

export interface LinkResult {
  linked: true;
  login_tradear: true;
  platform: TradingPlatformId;
  email: string;
  /** USD. */
  startingBalance: number;
}

/**
 * Linking a trading-platform account and logging in to it (spec §2 LinkAccount and
 * TradearLogin, §4 guards 3-6, §6). docs/decisions/049-linking-and-the-platform-port.md.
 */
export class LinkingService {
  constructor(
    private readonly users: UsersStore,
    private readonly links: TradingPlatformLinksStore,
    private readonly platform: TradingPlatform & { id: TradingPlatformId },
    private readonly cipher: CredentialsCipher,
    private readonly clock: Clock,
    private readonly applyRobotSettings: ApplyRobotSettings,
    /** Logs a platform failure (never the credentials: the error is the platform's). */
    private readonly onPlatformFailure: (error: Error, what: string) => void,
  ) {}

  private async settingsOf(user: UserRow): Promise<SettingsRow> {
    const settings = await this.users.findSettings(user.id);
    if (!settings) throw new Error(`user ${user.id} has no settings row`);
    return settings;
  }

  /**
   * Registers the user at the platform with their e-mail and the platform password they chose,
   * and keeps those credentials sealed as a login would: `linked` and `login_tradear` become
   * true in one step (issue 23: the platform just accepted this password, asking for it again
   * at once was a second password for one step). An e-mail the platform already knows is a 409
   * (PLATFORM_EMAIL_TAKEN): the user logs in there instead.
   */
  async link(user: UserRow, input: { password: string }): Promise<LinkResult> {
    const settings = await this.settingsOf(user);
    // spec §6: payment is needed before linking; a linked account is not linked again.
    if (!settings.authorized) throw new LinkingNeedsPayment();
    if (settings.linked) throw new AlreadyLinked();
    const registered = await this.platform
      .register({
        userId: user.id,
        email: user.email,
        password: input.password,
        name: user.name,
        lastName: user.lastName,
      })
      .catch((error: unknown) => {
        this.onPlatformFailure(new TradingPlatformUnavailable(error), 'registering');
        throw new PlatformRegistrationFailed();
      });
    if (registered.outcome === 'emailTaken') throw new PlatformEmailTaken();
    if (registered.outcome === 'accountExists') throw new PlatformAccountExists();
    const credentials = { email: user.email, password: input.password };
    const row = await this.links.markLoggedIn(
      user.id,
      {
        platform: this.platform.id,
        platformAccountId: registered.accountId,
        credentials: this.cipher.seal(JSON.stringify(credentials), user.id),
      },
      this.clock.now(),
    );
    await this.afterChange(row);
    return {
      linked: true,
      login_tradear: true,
      platform: this.platform.id,
      email: user.email,
      startingBalance: centsToDollars(registered.startingBalanceCents),
    };
  }

  /**
   * Logs in to the platform with its credentials (the Tradebot e-mail and the platform
   * password). They are kept sealed; `linked` and `login_tradear` become true, so a user whose
   * e-mail already had a platform account is linked by logging in.
   */
  async logIn(user: UserRow, input: { password: string }): Promise<void> {
    const settings = await this.settingsOf(user);
    if (settings.loginTradear) throw new AlreadyLoggedIn();
    if (!settings.authorized) throw new LinkingNeedsPayment();
    const credentials = { email: user.email, password: input.password };
    const outcome = await this.platform
      .login({ userId: user.id, ...credentials })
      .catch((error: unknown) => {
        this.onPlatformFailure(new TradingPlatformUnavailable(error), 'logging in');
        throw new PlatformLoginFailed();
      });
    if (outcome.outcome === 'invalidCredentials') {
      throw new PlatformPasswordInvalid();
    }
    const row = await this.links.markLoggedIn(
      user.id,
      {
        platform: this.platform.id,
        platformAccountId: outcome.accountId,
        credentials: this.cipher.seal(JSON.stringify(credentials), user.id),
      },
      this.clock.now(),
    );
    await this.afterChange(row);
  }

  /** Committed: the session cache drops the user (decision 045), and the robot sees the change. */
  private async afterChange(row: SettingsRow): Promise<void> {
    await this.users.userChanged(row.userId);
    await this.applyRobotSettings(row);
  }
}
