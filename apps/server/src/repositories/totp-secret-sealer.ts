import path from 'node:path';
import {
  CredentialsCipher,
  loadOrCreateKeyFile,
  parseCredentialsKeys,
  type SealedCredentials,
} from './credentials-cipher';

/** An admin's TOTP secret as stored: sealed under a key id, or (before decision 059) in clear. */
export interface StoredTotpSecret {
  totpKeyId: string | null;
  totpSecret: string;
}

/** Where the embedded set-up keeps the TOTP keys when ADMIN_TOTP_KEYS is unset. */
export function adminTotpKeyFile(dataDir: string): string {
  return path.join(dataDir, 'secrets', 'admin-totp.keys');
}

/** ADMIN_TOTP_KEYS, else the key file in DATA_DIR/secrets (created with one key). */
export async function adminTotpCipher(
  config: { ADMIN_TOTP_KEYS?: string | undefined; dataDir: string },
  now: Date,
): Promise<CredentialsCipher> {
  if (config.ADMIN_TOTP_KEYS) {
    return new CredentialsCipher(parseCredentialsKeys(config.ADMIN_TOTP_KEYS));
  }
  return new CredentialsCipher(await loadOrCreateKeyFile(adminTotpKeyFile(config.dataDir), now));
}

/**
 * Admins' TOTP secrets at rest (decision 059): AES-256-GCM through the credentials cipher, with
 * the admin's id in the additional data, so a sealed secret copied to another admin's row does
 * not open. Whoever reads the database alone can no longer make codes.
 */
export class TotpSecretSealer {
  constructor(private readonly cipher: CredentialsCipher) {}

  get currentKeyId(): string {
    return this.cipher.currentKeyId;
  }

  seal(adminId: string, secret: string): SealedCredentials {
    return this.cipher.seal(secret, additionalData(adminId));
  }

  /** The secret; one stored before sealing existed (no key id) is read as it is. */
  open(adminId: string, stored: StoredTotpSecret): string {
    if (stored.totpKeyId === null) return stored.totpSecret;
    return this.cipher.open(
      { keyId: stored.totpKeyId, ciphertext: stored.totpSecret },
      additionalData(adminId),
    );
  }
}

const additionalData = (adminId: string) => `admin-totp:${adminId}`;
