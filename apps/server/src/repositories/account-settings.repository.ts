import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/database';
import {
  contactMessages,
  ctraderAuthorizations,
  dayStarts,
  emailChanges,
  emailSubscriptions,
  notificationOutbox,
  operations,
  orderIntents,
  passwordResetCodes,
  platformUnlinks,
  platformUsers,
  pushSubscriptions,
  sessions,
  simPayCheckouts,
  tradingPlatformLinks,
  users,
  userSettings,
} from '../db/schema';
import { revokeOtherSessions } from './sessions.repository';

/** What an erased account's row becomes (decision 080): nothing that names a person. */
export interface AnonymisedUser {
  email: string;
  passwordHash: string;
}

/**
 * The writes of account settings that must happen together, each in one transaction: a new
 * password with the end of the other sessions, and the erasure of an account.
 */
export class AccountSettingsRepository {
  constructor(private readonly db: Db) {}

  async passwordHashOf(userId: string): Promise<string | undefined> {
    const [row] = await this.db
      .select({ passwordHash: users.passwordHash })
      .from(users)
      .where(eq(users.id, userId))
      .limit(1);
    return row?.passwordHash;
  }

  /**
   * The new password, every other session ended and any recovery code voided (a code asked by
   * someone else must not undo the change), together. Returns the sessions it ended.
   */
  changePassword(
    userId: string,
    passwordHash: string,
    keepSessionId: string,
    now: Date,
  ): Promise<string[]> {
    return this.db.transaction(async (tx) => {
      await tx.update(users).set({ passwordHash, updatedAt: now }).where(eq(users.id, userId));
      await tx
        .update(passwordResetCodes)
        .set({ usedAt: now })
        .where(
          and(eq(passwordResetCodes.userId, userId), sql`${passwordResetCodes.usedAt} is null`),
        );
      return revokeOtherSessions(tx, userId, keepSessionId, now);
    });
  }

  async updatePhone(userId: string, phone: string | null, now: Date): Promise<void> {
    await this.db.update(users).set({ phone, updatedAt: now }).where(eq(users.id, userId));
  }

  /**
   * Erases an account in one transaction (decision 080). The user's row stays, anonymised, so
   * that the payments, receipts and gifts kept by law still point at a row; everything that
   * names or describes the person goes: sessions, recovery codes, platform logins and sealed
   * credentials, the robot's record of operations, support messages, the landing's e-mail,
   * push subscriptions, notices in the outbox, and the e-mail on the simulated provider's
   * checkouts.
   * The built-in platform's own books (its account, orders and deposits) are the broker's
   * records, as a real broker keeps its own; they no longer lead to anyone.
   */
  async eraseAccount(
    userId: string,
    formerEmail: string,
    anonymised: AnonymisedUser,
    now: Date,
  ): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx
        .update(users)
        .set({
          name: '-',
          lastName: '-',
          email: anonymised.email,
          phone: null,
          passwordHash: anonymised.passwordHash,
          subscribedNewsletter: false,
          referral: null,
          promocode: null,
          deletedAt: now,
          updatedAt: now,
        })
        .where(eq(users.id, userId));
      await tx
        .update(userSettings)
        .set({
          botOn: false,
          linked: false,
          loginTradear: false,
          authorized: false,
          updatedAt: now,
        })
        .where(eq(userSettings.userId, userId));
      await tx.delete(sessions).where(eq(sessions.userId, userId));
      await tx.delete(passwordResetCodes).where(eq(passwordResetCodes.userId, userId));
      await tx.delete(emailChanges).where(eq(emailChanges.userId, userId));
      await tx.delete(tradingPlatformLinks).where(eq(tradingPlatformLinks.userId, userId));
      // A cTrader grant waiting for its account to be picked, and past unlinkings (decision 091).
      await tx.delete(ctraderAuthorizations).where(eq(ctraderAuthorizations.userId, userId));
      await tx.delete(platformUnlinks).where(eq(platformUnlinks.userId, userId));
      await tx.delete(platformUsers).where(eq(platformUsers.accountId, userId));
      await tx.delete(operations).where(eq(operations.accountId, userId));
      await tx.delete(orderIntents).where(eq(orderIntents.accountId, userId));
      await tx.delete(dayStarts).where(eq(dayStarts.accountId, userId));
      await tx.delete(contactMessages).where(eq(contactMessages.userId, userId));
      await tx
        .delete(emailSubscriptions)
        .where(sql`lower(${emailSubscriptions.email}) = lower(${formerEmail})`);
      // Notices and the devices they reached (decision 088): push endpoints and their keys, and
      // the outbox's rows (their payloads describe the user's operations and account).
      await tx.delete(pushSubscriptions).where(eq(pushSubscriptions.userId, userId));
      await tx.delete(notificationOutbox).where(eq(notificationOutbox.userId, userId));
      // The simulated provider's checkouts carry the buyer's e-mail; the checkout itself stays
      // with its subscription, as a provider's record (decision 112).
      await tx
        .update(simPayCheckouts)
        .set({ email: anonymised.email })
        .where(eq(simPayCheckouts.clientReference, userId));
    });
  }
}
