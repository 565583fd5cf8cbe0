import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { tradingPlatformLinks } from '../../db/schema';
import type { CredentialsCipher } from '../../repositories/credentials-cipher';
import type { CTraderGrant } from '../protocol/robot-protocol';

/**
 * Every linked cTrader account with its access token opened (decision 096), for the robot. The
 * grant is sealed with the user id as additional data (decision 091); a row whose seal does not
 * open is left out and named to `onUnreadable` (never its token). `userId`: that user's only.
 */
export async function loadCTraderGrants(
  db: Db,
  cipher: CredentialsCipher,
  onUnreadable: (userId: string, error: unknown) => void,
  userId?: string,
): Promise<CTraderGrant[]> {
  const rows = await db
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
      const grant = JSON.parse(
        cipher.open({ keyId: row.keyId, ciphertext: row.ciphertext }, row.userId),
      ) as { accessToken: string };
      grants.push({
        accountId: row.userId,
        ctidTraderAccountId: Number(row.platformAccountId),
        accessToken: grant.accessToken,
        live: row.brokerAccount?.live ?? false,
      });
    } catch (error) {
      onUnreadable(row.userId, error);
    }
  }
  return grants;
}
