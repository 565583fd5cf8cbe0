import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config';
import type { Database } from '../../db/database';
import { AdminsRepository } from '../../repositories/admins.repository';
import {
  CredentialsCipher,
  credentialsKeyFile,
  loadOrCreateKeyFile,
  parseCredentialsKeys,
} from '../../repositories/credentials-cipher';
import {
  adminTotpCipher,
  adminTotpKeyFile,
  TotpSecretSealer,
} from '../../repositories/totp-secret-sealer';
import { TradingPlatformLinksRepository } from '../../repositories/trading-platform-links.repository';
import { checkSealedValues } from '../../services/sealed-values-check';

/** The keys sealing what the database keeps secret. */
export interface SealingKeys {
  /** Trading-platform credentials and cTrader grants. */
  credentials: CredentialsCipher;
  /** Admins' TOTP secrets. */
  totp: TotpSecretSealer;
}

/**
 * The keys sealing trading-platform credentials: PLATFORM_CREDENTIALS_KEYS, else the embedded
 * default kept in DATA_DIR/secrets (docs/decisions/049).
 */
async function createCredentialsCipher(
  config: Config,
  app: FastifyInstance,
  now: Date,
): Promise<CredentialsCipher> {
  if (config.PLATFORM_CREDENTIALS_KEYS) {
    return new CredentialsCipher(parseCredentialsKeys(config.PLATFORM_CREDENTIALS_KEYS));
  }
  const file = credentialsKeyFile(config.dataDir);
  if (config.DATABASE_URL) {
    app.log.warn(
      { file },
      'PLATFORM_CREDENTIALS_KEYS is unset: platform credentials are sealed with a key kept in ' +
        'DATA_DIR; every process sharing this database needs the same key',
    );
  }
  return new CredentialsCipher(await loadOrCreateKeyFile(file, now));
}

/** Every key id the database uses is configured and opens what it sealed (decision 065). */
async function checkStoredSeals(
  config: Config,
  db: Database['db'],
  credentialsCipher: CredentialsCipher,
  totpCipher: CredentialsCipher,
  totpSealer: TotpSecretSealer,
): Promise<void> {
  checkSealedValues({
    what: 'admin TOTP secrets',
    keySource: config.ADMIN_TOTP_KEYS
      ? 'ADMIN_TOTP_KEYS'
      : `the key file ${adminTotpKeyFile(config.dataDir)}`,
    samples: (await new AdminsRepository(db).withSealedTotp()).map((admin) => ({
      keyId: admin.totpKeyId ?? '',
      open: () => totpSealer.open(admin.id, admin),
    })),
    hasKey: (id) => totpCipher.hasKey(id),
  });
  checkSealedValues({
    what: 'trading-platform credentials',
    keySource: config.PLATFORM_CREDENTIALS_KEYS
      ? 'PLATFORM_CREDENTIALS_KEYS'
      : `the key file ${credentialsKeyFile(config.dataDir)}`,
    samples: (await new TradingPlatformLinksRepository(db).oneSealedPerKey()).map((row) => ({
      keyId: row.keyId,
      open: () => credentialsCipher.open(row, row.userId),
    })),
    hasKey: (id) => credentialsCipher.hasKey(id),
  });
}

/**
 * The keys, and a check that they open what the database holds sealed, before anything starts:
 * a lost or damaged key stops the start with one line (decision 065).
 */
export async function loadSealingKeys(
  config: Config,
  app: FastifyInstance,
  db: Database['db'],
  now: Date,
): Promise<SealingKeys> {
  const credentials = await createCredentialsCipher(config, app, now);
  const totpCipher = await adminTotpCipher(config, now);
  const totp = new TotpSecretSealer(totpCipher);
  await checkStoredSeals(config, db, credentials, totpCipher, totp);
  return { credentials, totp };
}
