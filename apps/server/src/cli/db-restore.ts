/**
 * npm run db:restore -- <backup file>
 *
 * Replaces the embedded database (PGlite under DATA_DIR) with a backup made by npm run db:backup
 * (decision 066). The server must be stopped (the folder's lock). The folder replaced is kept
 * aside as DATA_DIR/pglite.replaced-<date and time>, never deleted; a backup that does not load
 * changes nothing. The keys in DATA_DIR/secrets must be the ones of the backup's time.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { restorePglite } from '../db/backup';
import { pgliteDirectory } from '../db/database';
import { cliConfig, runCli } from './run-cli';

const usage = 'usage: npm run db:restore -- <backup file>';

async function main(): Promise<number> {
  const { positionals } = parseArgs({ allowPositionals: true, options: {} });
  const [file] = positionals;
  if (!file || positionals.length > 1) {
    console.error(usage);
    return 2;
  }
  const config = cliConfig();
  if (config.DATABASE_URL) {
    console.error('DATABASE_URL is set: restore that PostgreSQL database with pg_restore or psql');
    return 1;
  }
  const folder = pgliteDirectory(config.dataDir);
  const { keptAside } = await restorePglite(folder, path.resolve(file), new Date());
  console.log(`Database restored into ${folder} from ${path.resolve(file)}`);
  if (keptAside) console.log(`The folder it replaced is kept as ${keptAside}`);
  return 0;
}

runCli('db:restore', main);
