import { defaultLanguage, isLanguage, type Language } from '@tradebot/contract';
import type { Mailer } from '../repositories/mail.repository';
import type { OncePerWindow } from '../repositories/once-per-window.repository';
import { consoleSignInAttackMail, signInAttackMail } from './mail-templates';

/** At most one warning per account in this time (decision 079). */
export const signInAlertWindowMs = 24 * 60 * 60 * 1000;

/** Whose sign-ins were refused: a user's account or an admin's console account. */
export type SignInAccountKind = 'user' | 'admin';

interface Owner {
  id: string;
  email: string;
  name: string;
  language?: string;
}

export interface SignInAlertDependencies {
  users: { findByEmail(email: string): Promise<Owner | undefined> };
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
    /** The contact form in `language`, told when there is no support address. */
    contact(language: Language): string;
    /** SUPPORT_EMAIL, else OPERATOR_EMAIL, or null (decision 156). */
    supportEmail: string | null;
  };
  /** Told of each warning sent: ids only, never an e-mail, an address or a token. */
  onSent?: (kind: SignInAccountKind, accountId: string) => void;
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
    const work = this.warn(kind, email).catch((error: unknown) => {
      this.deps.onError(error);
    });
    this.inFlight.add(work);
    void work.then(() => this.inFlight.delete(work));
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
