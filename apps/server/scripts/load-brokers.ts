// Loads the broker directory the search reads (docs/decisions/050-broker-directory-and-search.md):
//
//   npm run brokers:load -- path/to/directory.json
//
// The file is `{ "brokers": [ ... ] }` in the format of brokers/example-directory.json. It is
// validated whole first; then the directory becomes exactly its entries, in one transaction
// (the embedded examples go). With the embedded PGlite, stop the server first.
import fs from 'node:fs/promises';
import path from 'node:path';
import { loadConfig } from '../src/config';
import { migrationsFolder } from '../src/app';
import { openDatabase, pgliteDirectory } from '../src/db/database';
import { migrate, readMigrations } from '../src/db/migrate';
import { BrokersRepository } from '../src/repositories/brokers.repository';
import { systemClock } from '../src/repositories/clock';
import { BrokerSearchService } from '../src/services/broker-search.service';

const [file] = process.argv.slice(2);
if (!file) throw new Error('usage: npm run brokers:load -- <directory.json>');
const directory: unknown = JSON.parse(
  await fs.readFile(path.resolve(process.env.INIT_CWD ?? '.', file), 'utf8'),
);
const config = loadConfig();
const database = await openDatabase({
  databaseUrl: config.DATABASE_URL,
  pgliteDir: pgliteDirectory(config.dataDir),
});
try {
  await migrate(database.db, await readMigrations(migrationsFolder));
  const loaded = await new BrokerSearchService(
    new BrokersRepository(database.db),
    systemClock,
  ).load(directory);
  console.log(JSON.stringify({ loaded }));
} finally {
  await database.close();
}
