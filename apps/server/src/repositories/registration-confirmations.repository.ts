import { and, eq, gt, lte, or } from 'drizzle-orm';
import type { Db } from '../db/database';
import { registrationConfirmations, type PendingRegistration } from '../db/schema';

/** What a registration keeps until its link is used (the pending account and its consent). */
export type { PendingRegistration, RegistrationConsent } from '../db/schema';

export type RegistrationConfirmationRow = typeof registrationConfirmations.$inferSelect;

/** Registrations waiting for their e-mail to be confirmed (decision 085). */
export interface RegistrationConfirmationsStore {
  /**
   * Stores one in place of any other waiting for the same address (the newest registration
   * wins); expired ones are dropped on the way (they can never be used).
   */
  add(
    hashes: { token: string; nonce: string },
    registration: PendingRegistration,
    now: Date,
    expiresAt: Date,
  ): Promise<void>;
  /** The usable confirmation with this token, if any. */
  find(tokenHash: string, now: Date): Promise<RegistrationConfirmationRow | undefined>;
  /**
   * Uses it up inside the caller's transaction (the account is created in the same one).
   * False when it was used meanwhile, by a request racing this one.
   */
  consume(tx: Db, id: string): Promise<boolean>;
}

export class RegistrationConfirmationsRepository implements RegistrationConfirmationsStore {
  constructor(private readonly db: Db) {}

  async add(
    hashes: { token: string; nonce: string },
    registration: PendingRegistration,
    now: Date,
    expiresAt: Date,
  ): Promise<void> {
    const email = registration.email.toLowerCase();
    await this.db.transaction(async (tx) => {
      await tx
        .delete(registrationConfirmations)
        .where(
          or(
            eq(registrationConfirmations.email, email),
            lte(registrationConfirmations.expiresAt, now),
          ),
        );
      await tx.insert(registrationConfirmations).values({
        tokenHash: hashes.token,
        nonceHash: hashes.nonce,
        email,
        registration,
        expiresAt,
      });
    });
  }

  async find(tokenHash: string, now: Date): Promise<RegistrationConfirmationRow | undefined> {
    const [row] = await this.db
      .select()
      .from(registrationConfirmations)
      .where(
        and(
          eq(registrationConfirmations.tokenHash, tokenHash),
          gt(registrationConfirmations.expiresAt, now),
        ),
      )
      .limit(1);
    return row;
  }

  async consume(tx: Db, id: string): Promise<boolean> {
    const deleted = await tx
      .delete(registrationConfirmations)
      .where(eq(registrationConfirmations.id, id))
      .returning({ id: registrationConfirmations.id });
    return deleted.length === 1;
  }
}
