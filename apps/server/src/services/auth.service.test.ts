import { describe, expect, it } from 'vitest';
import { DomainError } from '../domain/errors';
import type { PasswordHasher } from '../repositories/password-hasher';
import { Secrets } from '../repositories/secrets';
import { SessionCache } from '../repositories/session-cache';
import type { SessionsStore } from '../repositories/sessions.repository';
import type { NewSession, SignInLinksStore } from '../repositories/sign-in-links.repository';
import type { UserRow, UsersStore } from '../repositories/users.repository';
import { InvalidCredentials, SignInLinkInvalid } from './auth.errors';
import {
  AuthService,
  sessionLifetimeMs,
  sessionTouchMs,
  signInLinkLifetimeMs,
  userAgentMaxLength,
  type SessionsRevoked,
} from './auth.service';

const start = new Date('2026-11-21T12:00:00Z');
const user = { id: 'u1', email: 'ana@example.com', passwordHash: 'hashed:Clave1234' } as UserRow;
const login = { email: 'ana@example.com', password: 'Clave1234', rememberMe: false };
/** A token as `Secrets.newToken` makes them: 43 characters. */
const someToken = 'a'.repeat(43);

interface StoredSession {
  userId: string;
  tokenHash: string;
  expiresAt: Date;
  userAgent: string | null | undefined;
  now: Date | null | undefined;
}

interface RigOptions {
  /** The sign-in links store; `false` for a service built without one. */
  links?: false;
  /** What `consumeAndOpenSession` answers (the link was used, expired or another's). */
  linkConsumed?: boolean;
  cache?: boolean;
  /** When the session found by `authenticate` was last used. */
  lastUsedAt?: Date | null;
}

/** The service with plain stubs: the sessions and links it stored, and what it was told. */
function rig(options: RigOptions = {}) {
  const secrets = new Secrets('pepper');
  let now = start;
  const calls: string[] = [];
  const sessions: StoredSession[] = [];
  const revoked: SessionsRevoked[] = [];
  const links: { userId: string; tokenHash: string; expiresAt: Date }[] = [];
  const consumed: { tokenHash: string; userId: string; now: Date; session: NewSession }[] = [];
  const hashed: string[] = [];
  const verified: { hashed: string; password: string }[] = [];
  const users = {
    findCredentials: (email: string) =>
      Promise.resolve(
        email === user.email ? { id: user.id, passwordHash: user.passwordHash } : undefined,
      ),
  } as unknown as UsersStore;
  const store = {
    create: (userId, tokenHash, expiresAt, userAgent, at) => {
      sessions.push({ userId, tokenHash, expiresAt, userAgent, now: at });
      return Promise.resolve();
    },
    findActiveUser: (tokenHash) => {
      calls.push('findActiveUser');
      return Promise.resolve(
        tokenHash === secrets.hash(someToken)
          ? {
              sessionId: 's1',
              user,
              expiresAt: new Date(start.getTime() + sessionLifetimeMs.default),
              lastUsedAt: options.lastUsedAt === undefined ? start : options.lastUsedAt,
            }
          : undefined,
      );
    },
    revoke: (sessionId) => {
      calls.push(`revoke ${sessionId}`);
      return Promise.resolve();
    },
    touch: (sessionId, at) => {
      calls.push(`touch ${sessionId} ${at.toISOString()}`);
      return Promise.resolve();
    },
  } as Pick<SessionsStore, 'create' | 'findActiveUser' | 'revoke' | 'touch'> as SessionsStore;
  const hasher: PasswordHasher = {
    hash: (password) => {
      hashed.push(password);
      return Promise.resolve(`hashed:${password}`);
    },
    verify: (hash, password) => {
      verified.push({ hashed: hash, password });
      return Promise.resolve(hash === `hashed:${password}`);
    },
  };
  const signInLinks: SignInLinksStore = {
    create: (userId, tokenHash, expiresAt) => {
      links.push({ userId, tokenHash, expiresAt });
      return Promise.resolve();
    },
    usableFor: (tokenHash, email, at) =>
      Promise.resolve(
        links.some(
          (link) => link.tokenHash === tokenHash && email === user.email && link.expiresAt > at,
        ),
      ),
    consumeAndOpenSession: (tokenHash, userId, at, session) => {
      consumed.push({ tokenHash, userId, now: at, session });
      return Promise.resolve(options.linkConsumed ?? true);
    },
  };
  const cache = options.cache
    ? new SessionCache({ maxEntries: 10, ttlMs: 60_000, now: () => now.getTime() })
    : undefined;
  const service = new AuthService(
    users,
    store,
    hasher,
    secrets,
    { now: () => now },
    (change) => {
      calls.push('onSessionsRevoked');
      revoked.push(change);
      return Promise.resolve();
    },
    cache,
    options.links === false ? undefined : signInLinks,
  );
  const later = (ms: number) => {
    now = new Date(now.getTime() + ms);
  };
  return {
    service,
    secrets,
    calls,
    sessions,
    revoked,
    links,
    consumed,
    hashed,
    verified,
    later,
  };
}

/** The domain error's class the promise rejects with. */
const refusalOf = async (promise: Promise<unknown>) =>
  promise.then(
    () => 'resolved',
    (error: unknown) => (error instanceof DomainError ? error.constructor : 'other'),
  );

describe('AuthService.login', () => {
  it('opens a 24-hour session and stores only the hash of the token it answers', async () => {
    const { service, secrets, sessions } = rig();

    const { token } = await service.login(login, 'Mozilla/5.0');

    expect(token.length).toBeGreaterThanOrEqual(43);
    expect(sessions).toEqual([
      {
        userId: 'u1',
        tokenHash: secrets.hash(token),
        expiresAt: new Date(start.getTime() + sessionLifetimeMs.default),
        userAgent: 'Mozilla/5.0',
        now: start,
      },
    ]);
    expect(JSON.stringify(sessions)).not.toContain(token);
  });

  it('keeps a remembered session for 30 days', async () => {
    const { service, sessions } = rig();

    await service.login({ ...login, rememberMe: true });

    expect(sessions[0]?.expiresAt).toEqual(
      new Date(start.getTime() + sessionLifetimeMs.remembered),
    );
    expect(sessionLifetimeMs.remembered).toBe(30 * 24 * 3_600_000);
  });

  it('keeps the first 256 characters of a User-Agent, and null without one', async () => {
    const { service, sessions } = rig();

    await service.login(login, 'x'.repeat(userAgentMaxLength + 50));
    await service.login(login);

    expect(sessions.map((session) => session.userAgent)).toEqual(['x'.repeat(256), null]);
  });

  it('refuses a wrong password with InvalidCredentials and opens no session', async () => {
    const { service, sessions } = rig();

    expect(await refusalOf(service.login({ ...login, password: 'Otra1234' }))).toBe(
      InvalidCredentials,
    );
    expect(sessions).toEqual([]);
  });

  it('answers an unknown e-mail as a wrong password, after verifying a hash all the same', async () => {
    const { service, sessions, verified, hashed } = rig();

    const unknown = await service
      .login({ ...login, email: 'nadie@example.com' })
      .catch((error: unknown) => error);
    const wrong = await service
      .login({ ...login, password: 'Otra1234' })
      .catch((error: unknown) => error);

    expect(unknown).toBeInstanceOf(InvalidCredentials);
    expect(wrong).toBeInstanceOf(InvalidCredentials);
    expect((unknown as DomainError).key).toBe((wrong as DomainError).key);
    expect((unknown as DomainError).field).toBe((wrong as DomainError).field);
    // The unknown e-mail spent an argon2 verification too: both take the same time.
    expect(verified.map((call) => call.password)).toEqual(['Clave1234', 'Otra1234']);
    expect(verified[0]?.hashed).toBe('hashed:dummy-password-1');
    expect(hashed).toEqual(['dummy-password-1']);
    expect(sessions).toEqual([]);
  });

  it('hashes the dummy password once, however many unknown e-mails are tried', async () => {
    const { service, hashed, verified } = rig();

    for (const email of ['a@example.com', 'b@example.com', 'c@example.com']) {
      await service.login({ ...login, email }).catch(() => undefined);
    }

    expect(hashed).toEqual(['dummy-password-1']);
    expect(verified).toHaveLength(3);
  });
});

describe('AuthService.login with a sign-in link (decision 130)', () => {
  it('uses the link up and opens the session in one call, storing only hashes', async () => {
    const { service, secrets, sessions, consumed } = rig();

    const { token } = await service.login({ ...login, signInToken: 'link-token' }, 'Firefox');

    // Not through SessionsStore.create: the session opens in the link's transaction.
    expect(sessions).toEqual([]);
    expect(consumed).toEqual([
      {
        tokenHash: secrets.hash('link-token'),
        userId: 'u1',
        now: start,
        session: {
          tokenHash: secrets.hash(token),
          expiresAt: new Date(start.getTime() + sessionLifetimeMs.default),
          userAgent: 'Firefox',
        },
      },
    ]);
    expect(JSON.stringify(consumed)).not.toContain('link-token');
  });

  it('leaves the link for the next try when the password is wrong', async () => {
    const { service, consumed } = rig();

    expect(
      await refusalOf(service.login({ ...login, password: 'Otra1234', signInToken: 'link-token' })),
    ).toBe(InvalidCredentials);
    expect(consumed).toEqual([]);
  });

  it('refuses a used, expired or foreign link with SignInLinkInvalid and opens no session', async () => {
    const { service, sessions } = rig({ linkConsumed: false });

    expect(await refusalOf(service.login({ ...login, signInToken: 'link-token' }))).toBe(
      SignInLinkInvalid,
    );
    expect(sessions).toEqual([]);
  });

  it('refuses a link when the server keeps no links, rather than ignoring it', async () => {
    const { service, sessions } = rig({ links: false });

    expect(await refusalOf(service.login({ ...login, signInToken: 'link-token' }))).toBe(
      SignInLinkInvalid,
    );
    expect(sessions).toEqual([]);
  });
});

describe('AuthService sign-in links', () => {
  it('issues a link usable for 24 hours, storing only its hash', async () => {
    const { service, secrets, links } = rig();

    const token = await service.issueSignInLink('u1');

    expect(links).toEqual([
      {
        userId: 'u1',
        tokenHash: secrets.hash(token),
        expiresAt: new Date(start.getTime() + signInLinkLifetimeMs),
      },
    ]);
    expect(signInLinkLifetimeMs).toBe(24 * 3_600_000);
    expect(JSON.stringify(links)).not.toContain(token);
  });

  it('tells whether a link is usable by the account whose e-mail this is, now', async () => {
    const { service, later } = rig();
    const token = await service.issueSignInLink('u1');

    expect(await service.signInLinkUsable(token, 'ana@example.com')).toBe(true);
    expect(await service.signInLinkUsable(token, 'otra@example.com')).toBe(false);
    expect(await service.signInLinkUsable('another-token', 'ana@example.com')).toBe(false);
    later(signInLinkLifetimeMs);
    expect(await service.signInLinkUsable(token, 'ana@example.com')).toBe(false);
  });

  it('without a links store, issues none and calls none usable', async () => {
    const { service } = rig({ links: false });

    await expect(service.issueSignInLink('u1')).rejects.toThrow('no sign-in link store');
    expect(await service.signInLinkUsable(someToken, 'ana@example.com')).toBe(false);
  });
});

describe('AuthService.authenticate', () => {
  it('answers the user and session behind a live token', async () => {
    const { service } = rig();

    expect(await service.authenticate(someToken)).toEqual({ user, sessionId: 's1' });
  });

  it('answers nothing for an unknown token', async () => {
    const { service, calls } = rig();

    expect(await service.authenticate('b'.repeat(43))).toBeUndefined();
    expect(calls).toEqual(['findActiveUser']);
  });

  it('reads nothing for a token shorter than 20 or longer than 200 characters', async () => {
    const { service, calls } = rig();

    expect(await service.authenticate('a'.repeat(19))).toBeUndefined();
    expect(await service.authenticate('a'.repeat(201))).toBeUndefined();
    expect(calls).toEqual([]);
    await service.authenticate('a'.repeat(20));
    await service.authenticate('a'.repeat(200));
    expect(calls).toEqual(['findActiveUser', 'findActiveUser']);
  });

  it('writes "last used" once it is a minute old, not on every request (decisions 080, 156)', async () => {
    // Issue 39: five minutes between writes read as "Último uso" never moving.
    const twoMinutes = rig({ lastUsedAt: new Date(start.getTime() - 2 * 60_000) });
    await twoMinutes.service.authenticate(someToken);
    expect(twoMinutes.calls).toEqual(['findActiveUser', `touch s1 ${start.toISOString()}`]);
    const seconds = rig({ lastUsedAt: new Date(start.getTime() - 30_000) });
    await seconds.service.authenticate(someToken);
    expect(seconds.calls).toEqual(['findActiveUser']);

    const fresh = rig({ lastUsedAt: new Date(start.getTime() - sessionTouchMs + 1) });
    await fresh.service.authenticate(someToken);
    expect(fresh.calls).toEqual(['findActiveUser']);

    const stale = rig({ lastUsedAt: new Date(start.getTime() - sessionTouchMs) });
    await stale.service.authenticate(someToken);
    expect(stale.calls).toEqual(['findActiveUser', `touch s1 ${start.toISOString()}`]);

    const never = rig({ lastUsedAt: null });
    await never.service.authenticate(someToken);
    expect(never.calls).toEqual(['findActiveUser', `touch s1 ${start.toISOString()}`]);
  });

  it('serves a cached session without reading or writing the store again', async () => {
    const { service, calls, later } = rig({ cache: true, lastUsedAt: null });

    expect(await service.authenticate(someToken)).toEqual({ user, sessionId: 's1' });
    later(1_000);
    expect(await service.authenticate(someToken)).toEqual({ user, sessionId: 's1' });

    expect(calls).toEqual(['findActiveUser', `touch s1 ${start.toISOString()}`]);
  });
});

describe('AuthService.logout', () => {
  it('revokes the session, then has every process drop it', async () => {
    const { service, calls, revoked } = rig();

    await service.logout('s1');

    expect(calls).toEqual(['revoke s1', 'onSessionsRevoked']);
    expect(revoked).toEqual([{ sessionId: 's1' }]);
  });
});

describe('AuthService.openSession', () => {
  it('opens a session for an account just created, as a login does', async () => {
    const { service, secrets, sessions } = rig();

    const { token } = await service.openSession('u2', true, undefined);

    expect(sessions).toEqual([
      {
        userId: 'u2',
        tokenHash: secrets.hash(token),
        expiresAt: new Date(start.getTime() + sessionLifetimeMs.remembered),
        userAgent: null,
        now: start,
      },
    ]);
  });

  it('gives each session a token of its own', async () => {
    const { service } = rig();

    const first = await service.openSession('u1', false, undefined);
    const second = await service.openSession('u1', false, undefined);

    expect(first.token).not.toBe(second.token);
  });
});
