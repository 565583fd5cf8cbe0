import type {
  AccountDetails,
  AccountSession,
  ChangePasswordRequest,
  Language,
} from '@tradebot/contract';
import { isLanguage } from '@tradebot/contract';
import type { Clock } from '../repositories/clock';
import type { Mailer } from '../repositories/mail.repository';
import type { PasswordHasher } from '../repositories/password-hasher';
import type { ActiveSessionRow } from '../repositories/sessions.repository';
import type { UserRow } from '../repositories/users.repository';
import type { OnSessionsRevoked } from './auth.service';
import { passwordChangedMail } from './mail-templates';
import { deviceOf } from './session-device';
import {
  WrongPassword,
  SamePassword,
  CurrentSessionNotRevocable,
  SessionNotFound,
} from './account-settings.errors';

/** The writes account settings make (AccountSettingsRepository). */
export interface AccountSettingsStore {
  passwordHashOf(userId: string): Promise<string | undefined>;
  /** New password, other sessions ended, recovery codes voided, together; the ended ids. */
  changePassword(
    userId: string,
    passwordHash: string,
    keepSessionId: string,
    now: Date,
  ): Promise<string[]>;
  updatePhone(userId: string, phone: string | null, now: Date): Promise<void>;
}

/** A user's sessions (SessionsStore). */
export interface AccountSessionsStore {
  listActive(userId: string, now: Date): Promise<ActiveSessionRow[]>;
  revokeOwn(userId: string, sessionId: string, now: Date): Promise<boolean>;
  revokeOthers(userId: string, keep: string, now: Date): Promise<string[]>;
}

export interface AccountSettingsDependencies {
  store: AccountSettingsStore;
  sessions: AccountSessionsStore;
  hasher: PasswordHasher;
  mailer: Mailer;
  clock: Clock;
  /** Sessions ended: the caches drop them and their sockets close (as at logout). */
  onSessionsRevoked: OnSessionsRevoked;
  /** The user's row changed: cached copies go (decision 045). */
  onUserChanged: (userId: string) => Promise<void>;
  /**
   * The forgot-password page in a language, on the configured origin (PUBLIC_URL, else the
   * listening address): never a request's Host (issue 18).
   */
  forgotPasswordUrl: (language: Language) => string;
  /** A mail that did not go out (after the answer). */
  onMailFailure: (error: unknown) => void;
}

/** The language a user's mail goes out in: the one saved on the account. */
export function accountLanguage(user: UserRow): Language {
  return isLanguage(user.language) ? user.language : 'es';
}

/**
 * Account settings (issue 23; docs/decisions/080-account-settings-and-deletion.md): the user's
 * details and phone, the password (the current one required), and the sessions.
 */
export class AccountSettingsService {
  constructor(private readonly deps: AccountSettingsDependencies) {}

  details(user: UserRow): AccountDetails {
    return {
      name: user.name,
      last_name: user.lastName,
      email: user.email,
      phone: user.phone,
      language: accountLanguage(user),
    };
  }

  /** Checks a password the user typed against the stored hash (argon2). */
  async verifyPassword(userId: string, password: string, field: string): Promise<void> {
    const hash = await this.deps.store.passwordHashOf(userId);
    if (!hash || !(await this.deps.hasher.verify(hash, password))) throw new WrongPassword(field);
  }

  /**
   * The current password is required; the other sessions end, this one stays; an e-mail says
   * so with the way back if it was not the owner. Returns how many sessions ended.
   */
  async changePassword(
    user: UserRow,
    sessionId: string,
    input: Pick<ChangePasswordRequest, 'current_password' | 'password'>,
  ): Promise<{ signedOut: number }> {
    await this.verifyPassword(user.id, input.current_password, 'current_password');
    if (input.password === input.current_password) {
      throw new SamePassword();
    }
    const hash = await this.deps.hasher.hash(input.password);
    const now = this.deps.clock.now();
    const ended = await this.deps.store.changePassword(user.id, hash, sessionId, now);
    await this.deps.onUserChanged(user.id);
    for (const id of ended) await this.deps.onSessionsRevoked({ sessionId: id });
    const language = accountLanguage(user);
    passwordChangedMail(language, user.email, {
      name: user.name,
      changedAt: now.toISOString().slice(0, 16).replace('T', ' '),
      recoverUrl: this.deps.forgotPasswordUrl(language),
    })
      .then((message) => this.deps.mailer.send(message))
      .catch(this.deps.onMailFailure);
    return { signedOut: ended.length };
  }

  /** An empty phone removes it. Returns what is stored now. */
  async updatePhone(user: UserRow, phone: string): Promise<string | null> {
    const stored = phone.trim() === '' ? null : phone.trim();
    await this.deps.store.updatePhone(user.id, stored, this.deps.clock.now());
    await this.deps.onUserChanged(user.id);
    return stored;
  }

  /** Live sessions: the current one first, then by last use. */
  async sessions(user: UserRow, currentSessionId: string): Promise<AccountSession[]> {
    const rows = await this.deps.sessions.listActive(user.id, this.deps.clock.now());
    const listed = rows.map((row) => ({
      id: row.id,
      startedAt: row.createdAt.toISOString(),
      lastUsedAt: (row.lastUsedAt ?? row.createdAt).toISOString(),
      expiresAt: row.expiresAt.toISOString(),
      device: deviceOf(row.userAgent),
      current: row.id === currentSessionId,
    }));
    return [...listed.filter((row) => row.current), ...listed.filter((row) => !row.current)];
  }

  /** Ends one other session of the user's (the current one ends by logging out). */
  async signOutSession(user: UserRow, currentSessionId: string, sessionId: string): Promise<void> {
    if (sessionId === currentSessionId) {
      throw new CurrentSessionNotRevocable();
    }
    if (!(await this.deps.sessions.revokeOwn(user.id, sessionId, this.deps.clock.now()))) {
      throw new SessionNotFound();
    }
    await this.deps.onSessionsRevoked({ sessionId });
  }

  /** "Sign out everywhere else": every session but this one ends. Returns how many. */
  async signOutOthers(user: UserRow, currentSessionId: string): Promise<number> {
    const ended = await this.deps.sessions.revokeOthers(
      user.id,
      currentSessionId,
      this.deps.clock.now(),
    );
    for (const id of ended) await this.deps.onSessionsRevoked({ sessionId: id });
    return ended.length;
  }
}
