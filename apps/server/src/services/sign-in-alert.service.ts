import { defaultLanguage, isLanguage, type Language } from '@tradebot/contract';
import type { Mailer } from '../repositories/mail.repository';
import type { OncePerWindow } from '../repositories/once-per-window.repository';
import { consoleSignInAttackMail, newDeviceSignInMail, signInAttackMail } from './mail-templates';
import type { SessionDevice } from '@tradebot/contract';
import { deviceOf } from './session-device';

/** At most one warning per account in this time (decision 079). */
export const signInAlertWindowMs = 24 * 60 * 60 * 1000;
/**
 * A device is the owner's own if one of their sessions was opened on it in this time (decision
 * 163): a sign-in from any other is told by e-mail.
 */
export const knownDeviceMs = 180 * 24 * 60 * 60 * 1000;

/** Whose sign-ins were refused: a user's account or an admin's console account. */
export type SignInAccountKind = 'user' | 'admin';

interface Owner {
  id: string;
  email: string;
  name: string;
  language?: string;
}

export interface SignInAlertDependencies {
  users: {
    findByEmail(email: string): Promise<Owner | undefined>;
    findById(id: string): Promise<Owner | undefined>;
  };
  /**
   * A user's sessions, the new one included: the User-Agents of those opened since a time, and
   * how many they ever had.
   */
  sessions: {
    devicesSince(userId: string, since: Date): Promise<{ recent: (string | null)[]; ever: number }>;
  };
  clock: { now(): Date };
  admins: { findByEmail(email: string): Promise<Owner | undefined> };
  windows: OncePerWindow;
  mailer: Mailer;
  links: {
    /** The forgot-password page in `language`, on a configured origin (never a request's Host). */
    forgotPassword(language: Language): string;
    /**
     * A new one-time link to sign in from the device that opens it (decision 130): the login
     * page in `language`, on a configured origin, carrying a fresh token for the user.
     */
    signIn(userId: string, language: Language): Promise<string>;
    console(): string;
    /** The account settings page in `language`, where the owner ends sessions. */
    settings(language: Language): string;
    /** The contact form in `language`, told when there is no support address. */
    contact(language: Language): string;
    /** SUPPORT_EMAIL, else OPERATOR_EMAIL, or null (decision 156). */
    supportEmail: string | null;
  };
  /** Told of each warning sent: ids only, never an e-mail, an address or a token. */
  onSent?: (kind: SignInAccountKind | 'new-device', accountId: string) => void;
  onError: (error: unknown) => void;
}

/**
 * Warns the owner of an account whose sign-ins the limits refused from addresses that never
 * signed in to it (decision 079): one e-mail per account per window, across processes. It runs
 * after the answer, so an attacker learns nothing (not even by timing) of whether the e-mail
 * has an account.
 */
export class SignInAlertService {
  private readonly inFlight = new Set<Promise<void>>();

  constructor(private readonly deps: SignInAlertDependencies) {}

  /** Sign-ins naming `email` were refused from an unknown address; does not wait. */
  signInsRefused(kind: SignInAccountKind, email: string): void {
    this.inBackground(this.warn(kind, email));
  }

  private inBackground(task: Promise<void>): void {
    const work = task.catch((error: unknown) => {
      this.deps.onError(error);
    });
    this.inFlight.add(work);
    void work.then(() => this.inFlight.delete(work));
  }

  private async warnOfNewDevice(userId: string, userAgent: string | null): Promise<void> {
    const { sessions, clock, users, mailer, links } = this.deps;
    const since = new Date(clock.now().getTime() - knownDeviceMs);
    const device = deviceOf(userAgent);
    const { recent, ever } = await sessions.devicesSince(userId, since);
    // The session just opened is one of them. An account with no other session ever (made by a
    // seed or an import, never signed in) has no device of its own to compare with; a real one
    // has at least the session its registration opened.
    if (ever <= 1) return;
    // The device is known if another recent session matches it.
    if (recent.filter((other) => sameDevice(deviceOf(other), device)).length > 1) return;
    const owner = await users.findById(userId);
    if (!owner) return;
    const language = isLanguage(owner.language) ? owner.language : defaultLanguage;
    await mailer.send(
      await newDeviceSignInMail(language, owner.email, owner.name, device, {
        forgotPasswordUrl: links.forgotPassword(language),
        settingsUrl: links.settings(language),
        supportEmail: links.supportEmail,
        contactUrl: links.contact(language),
      }),
    );
    this.deps.onSent?.('new-device', owner.id);
  }

  /**
   * A user signed in (decision 163): if they had sessions before, and none of them was opened on
   * this kind of device (browser, system, phone or not) in `knownDeviceMs`, the owner is told by
   * e-mail, with what to do if it was not them. Does not wait; the answer to the sign-in never depends on it.
   */
  signedIn(userId: string, userAgent: string | null): void {
    this.inBackground(this.warnOfNewDevice(userId, userAgent));
  }

  /** Resolves once the warnings under way are sent (or failed): closing waits for it. */
  async settled(): Promise<void> {
    await Promise.all(this.inFlight);
  }

  private async warn(kind: SignInAccountKind, email: string): Promise<void> {
    const owner = await (kind === 'user' ? this.deps.users : this.deps.admins).findByEmail(email);
    if (!owner) return;
    const taken = await this.deps.windows.take(
      'sign-in-alert',
      `${kind}:${owner.id}`,
      signInAlertWindowMs,
    );
    if (!taken) return;
    try {
      await this.deps.mailer.send(await this.mailTo(kind, owner));
    } catch (error) {
      // Not sent: the next refusal may try again.
      await taken.release();
      throw error;
    }
    this.deps.onSent?.(kind, owner.id);
  }

  private async mailTo(kind: SignInAccountKind, owner: Owner) {
    const { links } = this.deps;
    if (kind === 'admin') {
      return consoleSignInAttackMail(owner.email, owner.name, {
        consoleUrl: links.console(),
        supportEmail: links.supportEmail,
      });
    }
    const language = isLanguage(owner.language) ? owner.language : defaultLanguage;
    return signInAttackMail(language, owner.email, owner.name, {
      signInUrl: await links.signIn(owner.id, language),
      forgotPasswordUrl: links.forgotPassword(language),
      supportEmail: links.supportEmail,
      contactUrl: links.contact(language),
    });
  }
}

function sameDevice(a: SessionDevice, b: SessionDevice): boolean {
  return a.browser === b.browser && a.os === b.os && a.mobile === b.mobile;
}
