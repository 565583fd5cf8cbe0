import { and, desc, eq, gt, isNotNull, isNull, lt } from 'drizzle-orm';
import type { Db } from '../db/database';
import { ctraderAuthorizations, type LinkedBrokerAccount } from '../db/schema';
import type { SealedCredentials } from './credentials-cipher';

export type CTraderAuthorizationRow = typeof ctraderAuthorizations.$inferSelect;

/** The cTrader grants port services depend on; `CTraderAuthorizationsRepository` is its database implementation. */
export interface CTraderAuthorizationsStore {
  /** A new authorisation replaces the user's others (one at a time, the newest). */
  start(userId: string, stateHash: string, expiresAt: Date): Promise<void>;
  /**
   * The user came back with this state: spent at once, by one statement, so that a second
   * request with the same state (a replayed callback) finds nothing. Undefined when the state
   * is not this user's, already spent, or expired.
   */
  spend(userId: string, stateHash: string, now: Date): Promise<boolean>;
  storeGrant(
    stateHash: string,
    grant: SealedCredentials,
    accounts: (LinkedBrokerAccount & {
      pickable: boolean;
    })[],
  ): Promise<void>;
  /** The user's granted authorisation waiting for an account to be picked, if any. */
  granted(userId: string, now: Date): Promise<CTraderAuthorizationRow | undefined>;
  /** Forgets authorisations past their hour (their grants with them). */
  prune(now: Date): Promise<number>;
}

/** OAuth2 authorisations under way at cTrader, keyed by the hash of their state (decision 091). */
export class CTraderAuthorizationsRepository implements CTraderAuthorizationsStore {
  constructor(private readonly db: Db) {}

  /** A new authorisation replaces the user's others (one at a time, the newest). */
  async start(userId: string, stateHash: string, expiresAt: Date): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx.delete(ctraderAuthorizations).where(eq(ctraderAuthorizations.userId, userId));
      await tx.insert(ctraderAuthorizations).values({ stateHash, userId, expiresAt });
    });
  }

  /**
   * The user came back with this state: spent at once, by one statement, so that a second
   * request with the same state (a replayed callback) finds nothing. Undefined when the state
   * is not this user's, already spent, or expired.
   */
  async spend(userId: string, stateHash: string, now: Date): Promise<boolean> {
    const rows = await this.db
      .update(ctraderAuthorizations)
      .set({ returnedAt: now })
      .where(
        and(
          eq(ctraderAuthorizations.stateHash, stateHash),
          eq(ctraderAuthorizations.userId, userId),
          isNull(ctraderAuthorizations.returnedAt),
          gt(ctraderAuthorizations.expiresAt, now),
        ),
      )
      .returning({ stateHash: ctraderAuthorizations.stateHash });
    return rows.length > 0;
  }

  async storeGrant(
    stateHash: string,
    grant: SealedCredentials,
    accounts: (LinkedBrokerAccount & { pickable: boolean })[],
  ): Promise<void> {
    await this.db
      .update(ctraderAuthorizations)
      .set({ grantCiphertext: grant.ciphertext, grantKeyId: grant.keyId, accounts })
      .where(eq(ctraderAuthorizations.stateHash, stateHash));
  }

  /** The user's granted authorisation waiting for an account to be picked, if any. */
  async granted(userId: string, now: Date): Promise<CTraderAuthorizationRow | undefined> {
    const [row] = await this.db
      .select()
      .from(ctraderAuthorizations)
      .where(
        and(
          eq(ctraderAuthorizations.userId, userId),
          isNotNull(ctraderAuthorizations.grantCiphertext),
          gt(ctraderAuthorizations.expiresAt, now),
        ),
      )
      .orderBy(desc(ctraderAuthorizations.createdAt))
      .limit(1);
    return row;
  }

  /** Forgets authorisations past their hour (their grants with them). */
  async prune(now: Date): Promise<number> {
    const rows = await this.db
      .delete(ctraderAuthorizations)
      .where(lt(ctraderAuthorizations.expiresAt, now))
      .returning({ stateHash: ctraderAuthorizations.stateHash });
    return rows.length;
  }
}
