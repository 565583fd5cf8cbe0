import { and, asc, count, eq, gt, isNotNull, ne } from 'drizzle-orm';
import type { Db } from '../db/database';
import { tradingPlatformLinks, userSettings } from '../db/schema';
import type { SealedCredentials } from './credentials-cipher';
import type { SettingsRow } from './users.repository';

export type TradingPlatformLinkRow = typeof tradingPlatformLinks.$inferSelect;

/**
 * Our side of a user's link to a trading platform, and the spec's `linked` and `login_tradear`
 * flags with it: each write changes both in one transaction. Callers tell the session cache
 * (`UsersRepository.userChanged`) once it returns.
 */
export class TradingPlatformLinksRepository {
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
    const updated = await this.db
      .update(tradingPlatformLinks)
      .set({ credentialsCiphertext: to.ciphertext, credentialsKeyId: to.keyId })
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
  flags: Partial<Pick<SettingsRow, 'linked' | 'loginTradear'>>,
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
