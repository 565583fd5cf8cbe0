/**
 * npm run db:backup [-- --out <file>]
 *
 * Writes a backup of the embedded database (PGlite under DATA_DIR) to <file>, by default
 * DATA_DIR/backups/tradebot-<date and time>.tar.gz (decision 066). The server must be stopped:
 * the folder's lock is taken, and a running server holding it makes this refuse. The keys in
 * DATA_DIR/secrets are not in the backup: keep a copy of them apart, or what they sealed
 * (admins' TOTP secrets, platform credentials) cannot be read after a restore.
 * With DATABASE_URL (PostgreSQL), use pg_dump instead.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { backupPglite, defaultBackupFile } from '../db/backup';
import { pgliteDirectory } from '../db/database';
import { cliConfig, runCli } from './run-cli';

async function main(): Promise<number> {
  const { values } = parseArgs({ options: { out: { type: 'string' } } });
  const config = cliConfig();
  if (config.DATABASE_URL) {
    console.error('DATABASE_URL is set: back up that PostgreSQL database with pg_dump');
    return 1;
  }
  const file = path.resolve(values.out ?? defaultBackupFile(config.dataDir, new Date()));
  const { bytes } = await backupPglite(pgliteDirectory(config.dataDir), file);
  console.log(`Backup written: ${file} (${String(Math.ceil(bytes / 1024))} KiB)`);
  console.log(
    `Keep a copy of ${path.join(config.dataDir, 'secrets')} apart from it: the keys are not in ` +
      'the backup.',
  );
  return 0;
}

runCli('db:backup', main);
