import { paymentRecordsKeptYears } from '@tradebot/contract';
import type { AnonymisedUser } from '../repositories/account-settings.repository';
import type { Clock } from '../repositories/clock';
import type { Mailer } from '../repositories/mail.repository';
import type { PasswordHasher } from '../repositories/password-hasher';
import type { UserRow } from '../repositories/users.repository';
import { accountLanguage } from './account-settings.service';
import type { OnSessionsRevoked } from './auth.service';
import { accountDeletedMail } from './mail-templates';

export interface AccountEraser {
  /** One transaction: the row anonymised, personal data deleted, sessions gone. */
  eraseAccount(
    userId: string,
    formerEmail: string,
    anonymised: AnonymisedUser,
    now: Date,
  ): Promise<void>;
}

export interface AccountDeletionDependencies {
  /** The password typed to confirm; raises the field's 422 when wrong. */
  verifyPassword: (userId: string, password: string, field: string) => Promise<void>;
  /** The kill switch for a linked user (decision 063); nothing otherwise. */
  stopRobot: (user: UserRow) => Promise<unknown>;
  /** Every running subscription ends now at the provider, no refund (BillingService). */
  endSubscriptions: (userId: string) => Promise<void>;
  eraser: AccountEraser;
  hasher: PasswordHasher;
  /** A random secret (the anonymised row's password: nobody can ever sign in with it). */
  newSecret: () => string;
  mailer: Mailer;
  clock: Clock;
  onSessionsRevoked: OnSessionsRevoked;
  onUserChanged: (userId: string) => Promise<void>;
  onMailFailure: (error: unknown) => void;
}

/** The address an erased account's row keeps: unique, and no one's (RFC 2606 `.invalid`). */
export function anonymisedEmail(userId: string): string {
  return `deleted-${userId}@deleted.invalid`;
}

/**
 * "Delete my account" (issue 23; docs/decisions/080-account-settings-and-deletion.md).
 *
 * The steps are ordered so that a crash between any two leaves a state that is safe and that
 * the user (or support) can finish by asking again: each outside step is safe to repeat, and
 * the database's part is one transaction, last among the steps that can fail.
 *  1. the password is checked (nothing has changed yet);
 *  2. the robot stops and the open operations close (the kill switch: repeatable);
 *  3. the subscription ends at the payment provider, without refund (repeatable: an ended one
 *     is skipped);
 *  4. one transaction anonymises the user's row and erases the rest, sessions included;
 *  5. then the caches and sockets drop the sessions, and the confirmation is mailed.
 * A failure in 2 or 3 answers an error with the account still there, robot off at worst.
 */
export class AccountDeletionService {
  constructor(private readonly deps: AccountDeletionDependencies) {}

  async deleteAccount(user: UserRow, password: string): Promise<void> {
    await this.deps.verifyPassword(user.id, password, 'password');
    await this.deps.stopRobot(user);
    await this.deps.endSubscriptions(user.id);
    const anonymised: AnonymisedUser = {
      email: anonymisedEmail(user.id),
      passwordHash: await this.deps.hasher.hash(this.deps.newSecret()),
    };
    await this.deps.eraser.eraseAccount(user.id, user.email, anonymised, this.deps.clock.now());
    await this.deps.onUserChanged(user.id);
    await this.deps.onSessionsRevoked({ userId: user.id });
    accountDeletedMail(accountLanguage(user), user.email, {
      name: user.name,
      keptYears: paymentRecordsKeptYears,
    })
      .then((message) => this.deps.mailer.send(message))
      .catch(this.deps.onMailFailure);
  }
}
