import type { ChangeEmailRequest, Language } from '@tradebot/contract';
import { DuplicateKey } from '../repositories/errors';
import type { Clock } from '../repositories/clock';
import type { EmailChangeRow, EmailChangesStore } from '../repositories/email-changes.repository';
import type { Mailer } from '../repositories/mail.repository';
import type { Secrets } from '../repositories/secrets';
import type { UserRow } from '../repositories/users.repository';
import { accountLanguage } from './account-settings.service';
import type { OnSessionsRevoked } from './auth.service';
import { EmailLinkInvalid, EmailTaken, SameEmail } from './email-change.errors';
import {
  confirmEmailChangeMail,
  emailChangeNoticeMail,
  emailTakenMail,
} from './email-change-mail-templates';

/** A day to open the link; a week for the old address's "it was not me" (decision 089). */
export const emailChangePolicy = { validHours: 24, undoDays: 7 } as const;

export interface EmailChangeDependencies {
  store: EmailChangesStore;
  /** Whether an address already belongs to an account (case-insensitively). */
  accountWithEmail: (email: string) => Promise<{ id: string } | undefined>;
  /** Checks the current password (argon2); throws a 422 on `field` when wrong. */
  verifyPassword: (userId: string, password: string, field: string) => Promise<void>;
  secrets: Pick<Secrets, 'newToken' | 'hash'>;
  mailer: Mailer;
  clock: Clock;
  /** An absolute address of the web app's `path` (PUBLIC_URL or the listening address). */
  page: (language: Language, path: string) => string;
  onSessionsRevoked: OnSessionsRevoked;
  onUserChanged: (userId: string) => Promise<void>;
  /** Storing or mailing after the answer failed. */
  onFailure: (error: unknown) => void;
}

/**
 * Changing the account's e-mail address (issue 23; decision 089). Asking needs the session and
 * the current password, and answers the same whether or not the new address has an account;
 * the address changes only when the link mailed to it is opened; the old address is told at
 * once, with a link that undoes it.
 */
export class EmailChangeService {
  private readonly pending = new Set<Promise<void>>();

  constructor(private readonly deps: EmailChangeDependencies) {}

  async request(
    user: UserRow,
    sessionId: string,
    input: Pick<ChangeEmailRequest, 'email' | 'current_password'>,
  ): Promise<{ validHours: number }> {
    await this.deps.verifyPassword(user.id, input.current_password, 'current_password');
    const email = input.email.trim();
    if (email.toLowerCase() === user.email.toLowerCase()) {
      throw new SameEmail();
    }
    const work = this.storeAndMail(user, sessionId, email)
      .catch((error: unknown) => {
        this.deps.onFailure(error);
      })
      .finally(() => this.pending.delete(work));
    this.pending.add(work);
    return { validHours: emailChangePolicy.validHours };
  }

  /** Resolves once every request so far is stored and handed to the mailer. */
  async settled(): Promise<void> {
    await Promise.all(this.pending);
  }

  private async storeAndMail(user: UserRow, sessionId: string, email: string) {
    // After the answer: whether the address has an account must not change its timing.
    await new Promise((resolve) => setImmediate(resolve));
    const { secrets, clock, mailer, page } = this.deps;
    const language = accountLanguage(user);
    const free = !(await this.deps.accountWithEmail(email));
    const token = secrets.newToken();
    const undoToken = secrets.newToken();
    const now = clock.now();
    await this.deps.store.add(
      {
        userId: user.id,
        oldEmail: user.email,
        newEmail: email,
        tokenHash: secrets.hash(token),
        undoTokenHash: secrets.hash(undoToken),
        sessionId,
        mailed: free,
        expiresAt: new Date(now.getTime() + emailChangePolicy.validHours * 3_600_000),
        undoExpiresAt: new Date(now.getTime() + emailChangePolicy.undoDays * 86_400_000),
      },
      now,
    );
    const confirmPage = page(language, '/confirm-email');
    await mailer.send(
      free
        ? await confirmEmailChangeMail(language, email, {
            name: user.name,
            oldEmail: user.email,
            link: `${confirmPage}?token=${encodeURIComponent(token)}`,
            validHours: emailChangePolicy.validHours,
          })
        : await emailTakenMail(language, email),
    );
    await mailer.send(
      await emailChangeNoticeMail(language, user.email, {
        name: user.name,
        newEmail: email,
        undoLink: `${confirmPage}?undo_token=${encodeURIComponent(undoToken)}`,
        validHours: emailChangePolicy.validHours,
        undoDays: emailChangePolicy.undoDays,
      }),
    );
  }

  /** The link mailed to the new address: it becomes the account's; other sessions end. */
  async confirm(token: string): Promise<{ email: string }> {
    const change = await this.deps.store.findConfirmable(
      this.deps.secrets.hash(token),
      this.deps.clock.now(),
    );
    if (!change) throw new EmailLinkInvalid();
    let ended: string[] | undefined;
    try {
      ended = await this.deps.store.confirm(change, this.deps.clock.now());
    } catch (error) {
      // The address got an account after the change was asked for.
      if (error instanceof DuplicateKey) throw new EmailTaken();
      throw error;
    }
    if (!ended) throw new EmailLinkInvalid();
    await this.afterChange(change, ended);
    return { email: change.newEmail };
  }

  /** "It was not me", from the old address: undone, and every session ends. */
  async undo(token: string): Promise<{ restored: boolean; signedOut: number }> {
    const change = await this.deps.store.findUndoable(
      this.deps.secrets.hash(token),
      this.deps.clock.now(),
    );
    if (!change) throw new EmailLinkInvalid();
    try {
      const { restored, ended } = await this.deps.store.undo(change, this.deps.clock.now());
      await this.afterChange(change, ended);
      return { restored, signedOut: ended.length };
    } catch (error) {
      if (error instanceof DuplicateKey) throw new EmailTaken();
      throw error;
    }
  }

  private async afterChange(change: EmailChangeRow, ended: string[]) {
    await this.deps.onUserChanged(change.userId);
    for (const sessionId of ended) await this.deps.onSessionsRevoked({ sessionId });
  }
}
