import type { CredentialsCipher } from '../repositories/credentials-cipher';
import type { TradingPlatformLinksStore } from '../repositories/trading-platform-links.repository';

const batchSize = 500;

export interface RotationReport {
  /** Credentials now sealed with the newest key that were not before. */
  resealed: number;
  /** Links whose credentials changed while being resealed (a login meanwhile seals anew). */
  changedMeanwhile: number;
  /** Links per key id once done: only the newest should be left. */
  byKey: Record<string, number>;
}

/**
 * Re-encrypts, with the newest key, every stored credential another key sealed, page by page
 * (docs/decisions/049, key rotation). Each row is replaced only if it is still what was read.
 * A credential sealed with a key no longer configured stops the rotation with its key id: put
 * the key back, rotate, then remove it.
 */
export async function resealCredentials(
  links: TradingPlatformLinksStore,
  cipher: CredentialsCipher,
): Promise<RotationReport> {
  let resealed = 0;
  let changedMeanwhile = 0;
  let after: string | undefined;
  for (;;) {
    const page = await links.sealedWithOtherKey(cipher.currentKeyId, after, batchSize);
    for (const row of page) {
      if (row.keyId === null || row.ciphertext === null) continue;
      const from = { keyId: row.keyId, ciphertext: row.ciphertext };
      const to = cipher.seal(cipher.open(from, row.userId), row.userId);
      if (await links.reseal(row.userId, from, to)) resealed++;
      else changedMeanwhile++;
    }
    const last = page.at(-1);
    if (!last || page.length < batchSize) break;
    after = last.userId;
  }
  return { resealed, changedMeanwhile, byKey: await links.countByKey() };
}
