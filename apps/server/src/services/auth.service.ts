import type { LoginRequest } from '@tradebot/contract';
import type { Clock } from '../repositories/clock';
import type { PasswordHasher } from '../repositories/password-hasher';
import type { Secrets } from '../repositories/secrets';
import type { SessionsStore } from '../repositories/sessions.repository';
import type { UserRow, UsersStore } from '../repositories/users.repository';
import type { SessionCache } from '../repositories/session-cache';
import type { NewSession, SignInLinksStore } from '../repositories/sign-in-links.repository';
import { InvalidCredentials, SignInLinkInvalid } from './auth.errors';

const hour = 60 * 60 * 1000;
/** Session lifetimes: 30 days with rememberMe, 24 hours without. */
export const sessionLifetimeMs = { remembered: 30 * 24 * hour, default: 24 * hour };
/**
 * How long a sign-in link mailed with a sign-in alert stays usable (decision 130): as long as
 * the alert's own window, so while an attack goes on the owner always holds a usable link.
 */
export const signInLinkLifetimeMs = 24 * hour;

/**
 * How stale a session's "last used" may get before a request writes it again (decisions 080,
 * 156): a minute, as long as the session cache trusts an entry, so a session in use moves its
 * "last used" about once a minute and costs at most one write a minute.
 */
export const sessionTouchMs = 60_000;
/** How much of a User-Agent is kept: enough to tell the browser and system apart. */
export const userAgentMaxLength = 256;

/** Sessions that just ended: one (logout), or every session of a user (password change). */
export type SessionsRevoked = { sessionId: string } | { userId: string };
/**
 * Told after the revocation is stored, and awaited before the answer: the session cache drops
 * those sessions in every process and the real-time gateway closes their sockets.
 */
export type OnSessionsRevoked = (revoked: SessionsRevoked) => Promise<void>;

export interface AuthenticatedUser {
  user: UserRow;
  sessionId: string;
}

export class AuthService {
  /** Verified against when the e-mail is unknown, so both failures take the same time. */
  private dummyHash: Promise<string> | undefined;

  constructor(
    private readonly users: UsersStore,
    private readonly sessions: SessionsStore,
    private readonly hasher: PasswordHasher,
    private readonly secrets: Secrets,
    private readonly clock: Clock,
    private readonly onSessionsRevoked: OnSessionsRevoked = () => Promise.resolve(),
    /** Without one, every authentication reads the database. */
    private readonly cache?: SessionCache,
    /** Without one, no sign-in link is issued and a login carrying one is refused. */
    private readonly signInLinks?: SignInLinksStore,
  ) {}

  /**
   * Same answer for an unknown e-mail and a wrong password. With a sign-in link (decision 130),
   * the right password also uses the link up, in the session's transaction; a wrong one leaves
   * it for the next try.
   */
  async login(
    input: Required<Pick<LoginRequest, 'email' | 'password' | 'rememberMe'>> &
      Pick<LoginRequest, 'signInToken'>,
    userAgent?: string,
  ) {
    const user = await this.users.findCredentials(input.email);
    if (!user) {
      this.dummyHash ??= this.hasher.hash('dummy-password-1');
      await this.hasher.verify(await this.dummyHash, input.password);
      throw new InvalidCredentials();
    }
    if (!(await this.hasher.verify(user.passwordHash, input.password)))
      throw new InvalidCredentials();
    if (input.signInToken === undefined) {
      const { token } = await this.openSession(user.id, input.rememberMe, userAgent);
      return { token, userId: user.id };
    }
    if (!this.signInLinks) throw new SignInLinkInvalid();
    const { token, now, session } = this.newSession(input.rememberMe, userAgent);
    const opened = await this.signInLinks.consumeAndOpenSession(
      this.secrets.hash(input.signInToken),
      user.id,
      now,
      session,
    );
    if (!opened) throw new SignInLinkInvalid();
    return { token, userId: user.id };
  }

  /** A new sign-in link for the user (decision 130): the token, of which only a hash is kept. */
  async issueSignInLink(userId: string): Promise<string> {
    if (!this.signInLinks) throw new Error('AuthService: no sign-in link store');
    const token = this.secrets.newToken();
    const expiresAt = new Date(this.clock.now().getTime() + signInLinkLifetimeMs);
    await this.signInLinks.create(userId, this.secrets.hash(token), expiresAt);
    return token;
  }

  /** Whether a sign-in link is usable, by the account whose e-mail this is. */
  async signInLinkUsable(token: string, email: string): Promise<boolean> {
    if (!this.signInLinks) return false;
    return this.signInLinks.usableFor(this.secrets.hash(token), email, this.clock.now());
  }

  async authenticate(token: string): Promise<AuthenticatedUser | undefined> {
    if (token.length < 20 || token.length > 200) return undefined;
    const tokenHash = this.secrets.hash(token);
    const now = this.clock.now();
    const load = async () => {
      const found = await this.sessions.findActiveUser(tokenHash, now);
      if (!found) return undefined;
      // "Last used" for the list of sessions, written only when it is stale: cached reads
      // (decision 045) write nothing, and a busy session writes about once a minute.
      const lastUsed = found.lastUsedAt?.getTime() ?? 0;
      if (now.getTime() - lastUsed >= sessionTouchMs) {
        await this.sessions.touch(found.sessionId, now);
      }
      return { sessionId: found.sessionId, user: found.user, expiresAt: found.expiresAt.getTime() };
    };
    const session = await (this.cache
      ? this.cache.session(tokenHash, now.getTime(), load)
      : load());
    return session && { user: session.user, sessionId: session.sessionId };
  }

  async logout(sessionId: string): Promise<void> {
    await this.sessions.revoke(sessionId, this.clock.now());
    await this.onSessionsRevoked({ sessionId });
  }

  /** A new session for the user: a login, or an account just created (RegistrationService). */
  async openSession(
    userId: string,
    rememberMe: boolean,
    userAgent: string | undefined,
  ): Promise<{ token: string }> {
    const { token, now, session } = this.newSession(rememberMe, userAgent);
    await this.sessions.create(
      userId,
      session.tokenHash,
      session.expiresAt,
      session.userAgent,
      now,
    );
    return { token };
  }

  /** A session's token, and what is stored of it. */
  private newSession(rememberMe: boolean, userAgent: string | undefined) {
    const token = this.secrets.newToken();
    const lifetime = rememberMe ? sessionLifetimeMs.remembered : sessionLifetimeMs.default;
    const now = this.clock.now();
    const session: NewSession = {
      tokenHash: this.secrets.hash(token),
      expiresAt: new Date(now.getTime() + lifetime),
      userAgent: userAgent ? userAgent.slice(0, userAgentMaxLength) : null,
    };
    return { token, now, session };
  }
}
