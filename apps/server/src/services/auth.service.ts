import type { LoginRequest } from '@tradebot/contract';
import type { Clock } from '../repositories/clock';
import type { PasswordHasher } from '../repositories/password-hasher';
import type { Secrets } from '../repositories/secrets';
import type { SessionsStore } from '../repositories/sessions.repository';
import type { UserRow, UsersStore } from '../repositories/users.repository';
import type { SessionCache } from '../repositories/session-cache';
import { InvalidCredentials } from './auth.errors';

const hour = 60 * 60 * 1000;
/** Session lifetimes: 30 days with rememberMe, 24 hours without. */
export const sessionLifetimeMs = { remembered: 30 * 24 * hour, default: 24 * hour };

/** How stale a session's "last used" may get before a request writes it again (decision 080). */
export const sessionTouchMs = 5 * 60_000;
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
  ) {}

  /** Same answer for an unknown e-mail and a wrong password. */
  async login(
    input: Required<Pick<LoginRequest, 'email' | 'password' | 'rememberMe'>>,
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
    return this.openSession(user.id, input.rememberMe, userAgent);
  }

  async authenticate(token: string): Promise<AuthenticatedUser | undefined> {
    if (token.length < 20 || token.length > 200) return undefined;
    const tokenHash = this.secrets.hash(token);
    const now = this.clock.now();
    const load = async () => {
      const found = await this.sessions.findActiveUser(tokenHash, now);
      if (!found) return undefined;
      // "Last used" for the list of sessions, written only when it is stale: cached reads
      // (decision 045) write nothing, and a busy session writes once every few minutes.
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
    const token = this.secrets.newToken();
    const lifetime = rememberMe ? sessionLifetimeMs.remembered : sessionLifetimeMs.default;
    const now = this.clock.now();
    await this.sessions.create(
      userId,
      this.secrets.hash(token),
      new Date(now.getTime() + lifetime),
      userAgent ? userAgent.slice(0, userAgentMaxLength) : null,
      now,
    );
    return { token };
  }
}
