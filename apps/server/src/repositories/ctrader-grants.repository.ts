import { and, eq } from 'drizzle-orm';
import type { Db } from '../db/database';
import { tradingPlatformLinks } from '../db/schema';
import { linkedGrantOf, type CTraderGrant } from '../domain/ctrader-grant';
import type { CredentialsCipher } from './credentials-cipher';

/** Where the robot and the broker backtest load the linked cTrader accounts' grants from. */
export interface CTraderGrantSource {
  /**
   * Every linked cTrader account with its access token opened (decision 096); `userId`: that
   * user's only. A row whose seal does not open, or whose grant is malformed, is left out.
   */
  linked(userId?: string): Promise<CTraderGrant[]>;
}

/**
 * The grants as the links store them: sealed with the user id as additional data (decision 091),
 * opened and checked (domain/ctrader-grant.ts). A row left out is named to `onUnreadable` with
 * the error (never its token).
 */
export class CTraderGrantsRepository implements CTraderGrantSource {
  constructor(
    private readonly db: Db,
    private readonly cipher: CredentialsCipher,
    private readonly onUnreadable: (userId: string, error: unknown) => void,
  ) {}

  async linked(userId?: string): Promise<CTraderGrant[]> {
    const rows = await this.db
      .select({
        userId: tradingPlatformLinks.userId,
        platformAccountId: tradingPlatformLinks.platformAccountId,
        ciphertext: tradingPlatformLinks.credentialsCiphertext,
        keyId: tradingPlatformLinks.credentialsKeyId,
        brokerAccount: tradingPlatformLinks.brokerAccount,
      })
      .from(tradingPlatformLinks)
      .where(
        and(
          eq(tradingPlatformLinks.platform, 'ctrader'),
          userId === undefined ? undefined : eq(tradingPlatformLinks.userId, userId),
        ),
      );
    const grants: CTraderGrant[] = [];
    for (const row of rows) {
      if (row.ciphertext === null || row.keyId === null) continue;
      try {
        const grant = linkedGrantOf(
          this.cipher.open({ keyId: row.keyId, ciphertext: row.ciphertext }, row.userId),
        );
        grants.push({
          accountId: row.userId,
          ctidTraderAccountId: Number(row.platformAccountId),
          accessToken: grant.accessToken,
          live: row.brokerAccount?.live ?? false,
        });
      } catch (error) {
        this.onUnreadable(row.userId, error);
      }
    }
    return grants;
  }
}
