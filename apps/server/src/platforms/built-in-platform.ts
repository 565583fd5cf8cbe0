import { builtInPlatform } from '@tradebot/contract';
import type { PasswordHasher } from '../repositories/password-hasher';
import type { PlatformUsersRepository } from '../repositories/platform-users.repository';
import type {
  PlatformCredentials,
  PlatformLoggedIn,
  PlatformRegistered,
  PlatformRegistration,
  TradingPlatform,
} from './trading-platform';

/**
 * Opens an account at the paper broker. In a process running the robot this is
 * `RobotRuntime.openAccount`; elsewhere (ROBOT_ENABLED=false) nothing opens it here, and the
 * process running the robot opens it from `platform_users` (`openPendingPlatformAccounts`).
 */
export type OpenPlatformAccount = (accountId: string, depositCents: number) => Promise<void>;

/**
 * The built-in trading platform as a `TradingPlatform`: its own logins (argon2 hashes, as a
 * platform would keep them) and a demo account with simulated money, keyed by the Tradebot
 * user's id (decision 042).
 */
export class BuiltInTradingPlatform implements TradingPlatform {
  readonly id = builtInPlatform.id;
  private dummyHash: Promise<string> | undefined;

  constructor(
    private readonly logins: PlatformUsersRepository,
    private readonly hasher: PasswordHasher,
    private readonly openAccount: OpenPlatformAccount | undefined,
    private readonly startingBalanceCents: number = builtInPlatform.startingBalanceCents,
  ) {}

  async register(registration: PlatformRegistration): Promise<PlatformRegistered> {
    // The user's own account: under this e-mail (a linking cut short), or under the one they
    // had when it was opened (issue 39). Either way the user signs in to it.
    const own = await this.logins.findByAccount(registration.userId);
    if (own) {
      return own.email.toLowerCase() === registration.email.toLowerCase()
        ? { outcome: 'emailTaken' }
        : { outcome: 'accountExists' };
    }
    if (await this.logins.findByEmail(registration.email)) return { outcome: 'emailTaken' };
    const created = await this.logins.create({
      accountId: registration.userId,
      email: registration.email,
      passwordHash: await this.hasher.hash(registration.password),
      startingBalanceCents: this.startingBalanceCents,
    });
    if (!created) return { outcome: 'emailTaken' };
    // The login is stored first: if the opening fails or the process stops here, the process
    // running the robot opens the account from it.
    await this.openAccount?.(registration.userId, this.startingBalanceCents);
    return {
      outcome: 'registered',
      accountId: registration.userId,
      startingBalanceCents: this.startingBalanceCents,
    };
  }

  /**
   * Signs in to the user's own account (keyed by the Tradebot user, decision 042), with its
   * password: an e-mail changed since does not lock the user out, and nobody signs in to
   * another user's account by taking the address it was opened with (issue 39). Signed in, the
   * login takes the user's current e-mail, so the old one is free for whoever has it now.
   */
  async login(credentials: PlatformCredentials): Promise<PlatformLoggedIn> {
    const login = await this.logins.findByAccount(credentials.userId);
    if (!login) {
      // As long as a wrong password: the answer does not tell which users have an account.
      this.dummyHash ??= this.hasher.hash('dummy-password-1');
      await this.hasher.verify(await this.dummyHash, credentials.password);
      return { outcome: 'invalidCredentials' };
    }
    if (!(await this.hasher.verify(login.passwordHash, credentials.password))) {
      return { outcome: 'invalidCredentials' };
    }
    if (login.email.toLowerCase() !== credentials.email.toLowerCase()) {
      await this.logins.changeEmail(login.accountId, credentials.email);
    }
    return { outcome: 'loggedIn', accountId: login.accountId };
  }
}
