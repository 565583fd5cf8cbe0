import { and, asc, count, eq, gt, isNotNull, lt, ne } from 'drizzle-orm';
import type { Db } from '../db/database';
import {
  ctraderAuthorizations,
  platformUnlinks,
  tradingPlatformLinks,
  userSettings,
  type LinkedBrokerAccount,
} from '../db/schema';
import type { SealedCredentials } from './credentials-cipher';
import { refusingDuplicates } from './errors';
import type { SettingsRow } from './users.repository';

export type TradingPlatformLinkRow = typeof tradingPlatformLinks.$inferSelect;

/** The platform links port services depend on; `TradingPlatformLinksRepository` is its database implementation. */
export interface TradingPlatformLinksStore {
  find(userId: string): Promise<TradingPlatformLinkRow | undefined>;
  /**
   * Registered at the platform, or logged in there: its credentials are kept sealed, and
   * `linked` and `login_tradear` become true. Returns the settings now stored.
   */
  markLoggedIn(
    userId: string,
    link: {
      platform: string;
      platformAccountId: string;
      credentials: SealedCredentials;
    },
    now: Date,
  ): Promise<SettingsRow>;
  /**
   * A broker account picked after its OAuth2 grant (decision 091): the tokens sealed as
   * credentials are, their expiry, and what the broker said of the account; `linked` and
   * `login_tradear` become true, and the user's authorisations under way are spent, in one
   * transaction.
   */
  linkBroker(
    userId: string,
    link: {
      platform: string;
      platformAccountId: string;
      credentials: SealedCredentials;
      tokenExpiresAt: Date;
      brokerAccount: LinkedBrokerAccount;
    },
    now: Date,
  ): Promise<SettingsRow>;
  /** Broker links whose access token expires before `before`, soonest first. */
  tokensExpiringBefore(
    platform: string,
    before: Date,
    limit: number,
  ): Promise<
    {
      userId: string;
      keyId: string | null;
      ciphertext: string | null;
      tokenExpiresAt: Date | null;
    }[]
  >;
  /** A refreshed grant replaces the one read, only if it is still there (no lost update). */
  replaceGrant(
    userId: string,
    from: SealedCredentials,
    to: SealedCredentials,
    tokenExpiresAt: Date,
    now: Date,
  ): Promise<boolean>;
  /**
   * The user ends the link (decision 091): its row and sealed credentials are erased, `linked`,
   * `login_tradear` and the robot switch go false, and a record of the unlinking is kept, in one
   * transaction. Undefined when there was no link.
   */
  unlink(
    userId: string,
    record: {
      closedPositions: boolean;
      openPositions: number;
    },
    now: Date,
  ): Promise<
    | {
        settings: SettingsRow;
        link: TradingPlatformLinkRow;
      }
    | undefined
  >;
  /** Links whose credentials a key other than `keyId` sealed, after `afterUserId`, by user id. */
  sealedWithOtherKey(
    keyId: string,
    afterUserId: string | undefined,
    limit: number,
  ): Promise<
    {
      userId: string;
      keyId: string | null;
      ciphertext: string | null;
    }[]
  >;
  /** Replaces sealed credentials only if they are still what was read (no lost update). */
  reseal(userId: string, from: SealedCredentials, to: SealedCredentials): Promise<boolean>;
  /**
   * One sealed credential per key id (the lowest user id), for the start's check that every
   * key still opens what it sealed (decision 065).
   */
  oneSealedPerKey(): Promise<
    {
      userId: string;
      keyId: string;
      ciphertext: string;
    }[]
  >;
  /** How many links each key sealed (the rotation's report). */
  countByKey(): Promise<Record<string, number>>;
}

/**
 * Our side of a user's link to a trading platform, and the spec's `linked` and `login_tradear`
 * flags with it: each write changes both in one transaction. Callers tell the session cache
 * (`UsersRepository.userChanged`) once it returns.
 */
export class TradingPlatformLinksRepository implements TradingPlatformLinksStore {
  constructor(private readonly db: Db) {}

  async find(userId: string): Promise<TradingPlatformLinkRow | undefined> {
    const [row] = await this.db
      .select()
      .from(tradingPlatformLinks)
      .where(eq(tradingPlatformLinks.userId, userId))
      .limit(1);
    return row;
  }

  /**
   * Registered at the platform, or logged in there: its credentials are kept sealed, and
   * `linked` and `login_tradear` become true. Returns the settings now stored.
   */
  async markLoggedIn(
    userId: string,
    link: { platform: string; platformAccountId: string; credentials: SealedCredentials },
    now: Date,
  ): Promise<SettingsRow> {
    const values = {
      platform: link.platform,
      platformAccountId: link.platformAccountId,
      credentialsCiphertext: link.credentials.ciphertext,
      credentialsKeyId: link.credentials.keyId,
      loggedInAt: now,
      updatedAt: now,
    };
    return this.db.transaction(async (tx) => {
      await tx
        .insert(tradingPlatformLinks)
        .values({ userId, linkedAt: now, ...values })
        .onConflictDoUpdate({ target: tradingPlatformLinks.userId, set: values });
      return setFlags(tx, userId, { linked: true, loginTradear: true }, now);
    });
  }

  /**
   * A broker account picked after its OAuth2 grant (decision 091): the tokens sealed as
   * credentials are, their expiry, and what the broker said of the account; `linked` and
   * `login_tradear` become true, and the user's authorisations under way are spent, in one
   * transaction.
   */
  async linkBroker(
    userId: string,
    link: {
      platform: string;
      platformAccountId: string;
      credentials: SealedCredentials;
      tokenExpiresAt: Date;
      brokerAccount: LinkedBrokerAccount;
    },
    now: Date,
  ): Promise<SettingsRow> {
    const values = {
      platform: link.platform,
      platformAccountId: link.platformAccountId,
      credentialsCiphertext: link.credentials.ciphertext,
      credentialsKeyId: link.credentials.keyId,
      tokenExpiresAt: link.tokenExpiresAt,
      brokerAccount: link.brokerAccount,
      // Another account's symbols are not this one's: its run reads them again (decision 101).
      untradableSymbols: null,
      loggedInAt: now,
      updatedAt: now,
    };
    // Another user's link of the same broker account is a unique key (decision 111).
    return refusingDuplicates(() =>
      this.db.transaction(async (tx) => {
        await tx
          .insert(tradingPlatformLinks)
          .values({ userId, linkedAt: now, ...values })
          .onConflictDoUpdate({ target: tradingPlatformLinks.userId, set: values });
        await tx.delete(ctraderAuthorizations).where(eq(ctraderAuthorizations.userId, userId));
        return setFlags(tx, userId, { linked: true, loginTradear: true }, now);
      }),
    );
  }

  /** Broker links whose access token expires before `before`, soonest first. */
  async tokensExpiringBefore(platform: string, before: Date, limit: number) {
    return this.db
      .select({
        userId: tradingPlatformLinks.userId,
        keyId: tradingPlatformLinks.credentialsKeyId,
        ciphertext: tradingPlatformLinks.credentialsCiphertext,
        tokenExpiresAt: tradingPlatformLinks.tokenExpiresAt,
      })
      .from(tradingPlatformLinks)
      .where(
        and(
          eq(tradingPlatformLinks.platform, platform),
          lt(tradingPlatformLinks.tokenExpiresAt, before),
        ),
      )
      .orderBy(asc(tradingPlatformLinks.tokenExpiresAt))
      .limit(limit);
  }

  /** A refreshed grant replaces the one read, only if it is still there (no lost update). */
  async replaceGrant(
    userId: string,
    from: SealedCredentials,
    to: SealedCredentials,
    tokenExpiresAt: Date,
    now: Date,
  ): Promise<boolean> {
    return this.replaceSealed(userId, from, {
      credentialsCiphertext: to.ciphertext,
      credentialsKeyId: to.keyId,
      tokenExpiresAt,
      updatedAt: now,
    });
  }

  /**
   * The user ends the link (decision 091): its row and sealed credentials are erased, `linked`,
   * `login_tradear` and the robot switch go false, and a record of the unlinking is kept, in one
   * transaction. Undefined when there was no link.
   */
  async unlink(
    userId: string,
    record: { closedPositions: boolean; openPositions: number },
    now: Date,
  ): Promise<{ settings: SettingsRow; link: TradingPlatformLinkRow } | undefined> {
    return this.db.transaction(async (tx) => {
      const [link] = await tx
        .delete(tradingPlatformLinks)
        .where(eq(tradingPlatformLinks.userId, userId))
        .returning();
      if (!link) return undefined;
      await tx.delete(ctraderAuthorizations).where(eq(ctraderAuthorizations.userId, userId));
      await tx.insert(platformUnlinks).values({
        userId,
        platform: link.platform,
        platformAccountId: link.platformAccountId,
        closedPositions: record.closedPositions,
        openPositions: record.openPositions,
        unlinkedAt: now,
      });
      const settings = await setFlags(
        tx,
        userId,
        { linked: false, loginTradear: false, botOn: false },
        now,
      );
      return { settings, link };
    });
  }

  /** Links whose credentials a key other than `keyId` sealed, after `afterUserId`, by user id. */
  async sealedWithOtherKey(keyId: string, afterUserId: string | undefined, limit: number) {
    return this.db
      .select({
        userId: tradingPlatformLinks.userId,
        keyId: tradingPlatformLinks.credentialsKeyId,
        ciphertext: tradingPlatformLinks.credentialsCiphertext,
      })
      .from(tradingPlatformLinks)
      .where(
        and(
          ne(tradingPlatformLinks.credentialsKeyId, keyId),
          afterUserId ? gt(tradingPlatformLinks.userId, afterUserId) : undefined,
        ),
      )
      .orderBy(asc(tradingPlatformLinks.userId))
      .limit(limit);
  }

  /** Replaces sealed credentials only if they are still what was read (no lost update). */
  async reseal(userId: string, from: SealedCredentials, to: SealedCredentials): Promise<boolean> {
    return this.replaceSealed(userId, from, {
      credentialsCiphertext: to.ciphertext,
      credentialsKeyId: to.keyId,
    });
  }

  private async replaceSealed(
    userId: string,
    from: SealedCredentials,
    values: Partial<TradingPlatformLinkRow>,
  ): Promise<boolean> {
    const updated = await this.db
      .update(tradingPlatformLinks)
      .set(values)
      .where(
        and(
          eq(tradingPlatformLinks.userId, userId),
          eq(tradingPlatformLinks.credentialsKeyId, from.keyId),
          eq(tradingPlatformLinks.credentialsCiphertext, from.ciphertext),
        ),
      )
      .returning({ userId: tradingPlatformLinks.userId });
    return updated.length > 0;
  }

  /**
   * One sealed credential per key id (the lowest user id), for the start's check that every
   * key still opens what it sealed (decision 065).
   */
  async oneSealedPerKey(): Promise<{ userId: string; keyId: string; ciphertext: string }[]> {
    const rows = await this.db
      .selectDistinctOn([tradingPlatformLinks.credentialsKeyId], {
        userId: tradingPlatformLinks.userId,
        keyId: tradingPlatformLinks.credentialsKeyId,
        ciphertext: tradingPlatformLinks.credentialsCiphertext,
      })
      .from(tradingPlatformLinks)
      .where(isNotNull(tradingPlatformLinks.credentialsKeyId))
      .orderBy(asc(tradingPlatformLinks.credentialsKeyId), asc(tradingPlatformLinks.userId));
    return rows.flatMap((row) =>
      row.keyId === null || row.ciphertext === null
        ? []
        : [{ userId: row.userId, keyId: row.keyId, ciphertext: row.ciphertext }],
    );
  }

  /** How many links each key sealed (the rotation's report). */
  async countByKey(): Promise<Record<string, number>> {
    const rows = await this.db
      .select({ keyId: tradingPlatformLinks.credentialsKeyId, links: count() })
      .from(tradingPlatformLinks)
      .groupBy(tradingPlatformLinks.credentialsKeyId);
    return Object.fromEntries(
      rows.flatMap((row) => (row.keyId === null ? [] : [[row.keyId, row.links] as const])),
    );
  }
}

async function setFlags(
  tx: Db,
  userId: string,
  flags: Partial<Pick<SettingsRow, 'linked' | 'loginTradear' | 'botOn'>>,
  now: Date,
): Promise<SettingsRow> {
  const [row] = await tx
    .update(userSettings)
    .set({ ...flags, updatedAt: now })
    .where(eq(userSettings.userId, userId))
    .returning();
  if (!row) throw new Error(`user ${userId} has no settings row`);
  return row;
}
