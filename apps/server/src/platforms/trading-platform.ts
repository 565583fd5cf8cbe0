/**
 * The trading platform a user links (spec §2 LinkAccount, TradearLogin): the built-in paper
 * platform today, a real broker later through the same port. Everything that crosses it is
 * plain, serializable data: a real broker answers over the network
 * (docs/decisions/049-linking-and-the-platform-port.md).
 */
export interface PlatformRegistration {
  /** The Tradebot user, for platforms that key their accounts by it (the built-in one does). */
  userId: string;
  email: string;
  password: string;
  name: string;
  lastName: string;
}

export type PlatformRegistered =
  | {
      outcome: 'registered';
      accountId: string;
      /** What the new account starts with, USD cents. */
      startingBalanceCents: number;
    }
  /** The platform already has an account for this e-mail: the user logs in there instead. */
  | { outcome: 'emailTaken' }
  /**
   * The platform already holds this user's own account (a platform keyed by the user, whose
   * e-mail changed since): the user logs in there instead.
   */
  | { outcome: 'accountExists' };

export interface PlatformCredentials {
  /**
   * The Tradebot user, for platforms that key their accounts by it (the built-in one does: its
   * login is the user's account, whatever e-mail it was opened with; issue 39).
   */
  userId: string;
  email: string;
  password: string;
}

export type PlatformLoggedIn =
  { outcome: 'loggedIn'; accountId: string } | { outcome: 'invalidCredentials' };

export interface TradingPlatform {
  readonly id: string;
  register(registration: PlatformRegistration): Promise<PlatformRegistered>;
  login(credentials: PlatformCredentials): Promise<PlatformLoggedIn>;
}

/** The platform could not be reached or failed: nothing was decided, the user may try again. */
export class TradingPlatformUnavailable extends Error {
  constructor(cause: unknown) {
    super('trading platform unavailable', { cause });
    this.name = 'TradingPlatformUnavailable';
  }
}
