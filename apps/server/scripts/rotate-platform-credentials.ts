// Key rotation of the trading-platform credentials (docs/decisions/049-linking-and-the-platform-port.md):
//
//   npm run credentials:rotate              re-encrypts with the newest key
//   npm run credentials:rotate -- --new-key  first adds a new key to the
//       embedded key file (DATA_DIR/secrets/platform-credentials.keys), then re-encrypts
//
// With PLATFORM_CREDENTIALS_KEYS, add the new key at the end of the list on every process,
// restart them, run this, and remove the old key only once it reports no credential under it.
// Prints one JSON line: how many were resealed and how many credentials each key now seals.
// With the embedded PGlite, stop the server first (PGlite takes one process at a time): while it
// holds DATA_DIR/pglite.lock this refuses, naming its pid (decision 065).
import { ConfigError, loadConfig } from '../src/config';
import { migrationsFolder } from '../src/app';
import { openDatabase, pgliteDirectory } from '../src/db/database';
import { migrate, readMigrations } from '../src/db/migrate';
import {
  CredentialsCipher,
  addKeyToFile,
  credentialsKeyFile,
  loadOrCreateKeyFile,
  parseCredentialsKeys,
} from '../src/repositories/credentials-cipher';
import { TradingPlatformLinksRepository } from '../src/repositories/trading-platform-links.repository';
import { resealCredentials } from '../src/services/credentials-rotation.service';
import { StartupError } from '../src/startup-error';

async function rotate(): Promise<void> {
  const config = loadConfig();
  const addKey = process.argv.includes('--new-key');
  const file = credentialsKeyFile(config.dataDir);
  if (addKey && config.PLATFORM_CREDENTIALS_KEYS) {
    throw new StartupError(
      '--new-key adds to the embedded key file: with PLATFORM_CREDENTIALS_KEYS, add it there',
    );
  }
  // The database first: while a server holds it, no key is added.
  const database = await openDatabase({
    databaseUrl: config.DATABASE_URL,
    pgliteDir: pgliteDirectory(config.dataDir),
  });
  try {
    const now = new Date();
    const keys = config.PLATFORM_CREDENTIALS_KEYS
      ? parseCredentialsKeys(config.PLATFORM_CREDENTIALS_KEYS)
      : addKey
        ? await addKeyToFile(file, now)
        : await loadOrCreateKeyFile(file, now);
    const cipher = new CredentialsCipher(keys);
    await migrate(database.db, await readMigrations(migrationsFolder));
    const report = await resealCredentials(new TradingPlatformLinksRepository(database.db), cipher);
    console.log(JSON.stringify({ newestKey: cipher.currentKeyId, ...report }));
  } finally {
    await database.close();
  }
}

await rotate().catch((error: unknown) => {
  if (error instanceof ConfigError || error instanceof StartupError) console.error(error.message);
  else console.error('credentials:rotate failed:', error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
