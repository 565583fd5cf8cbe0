import { randomBytes } from 'node:crypto';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { migrationsFolder } from '../../src/app';
import { databaseOnPglite, openDatabase, type Database } from '../../src/db/database';
import { migrate, readMigrations } from '../../src/db/migrate';

/**
 * Which engine this Vitest project runs on. The server's vitest config runs the
 * integration suite once per engine: `pglite` always, `postgres` when
 * TEST_DATABASE_URL is set.
 */
export const testEngine: 'pglite' | 'postgres' =
  process.env.TEST_DB_ENGINE === 'postgres' ? 'postgres' : 'pglite';

let sharedPglite: Promise<PGlite> | undefined;
let adminPool: pg.Pool | undefined;

function postgresUrl(): string {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) throw new Error('TEST_DATABASE_URL must be set for the postgres test project');
  return url;
}

export interface TestDatabase {
  database: Database;
  schema: string;
  /** Closes the handle and drops the schema with everything in it. */
  drop(): Promise<void>;
}

/** A freshly migrated schema of its own, so no test ever reads another's data. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const migrations = await readMigrations(migrationsFolder);

  if (testEngine === 'postgres') {
    adminPool ??= new pg.Pool({ connectionString: postgresUrl(), max: 2 });
    await adminPool.query(`create schema ${schema}`);
    const database = await openDatabase({ databaseUrl: postgresUrl(), searchPath: schema });
    await migrate(database.db, migrations);
    return {
      database,
      schema,
      drop: async () => {
        await database.close();
        await adminPool?.query(`drop schema if exists ${schema} cascade`);
      },
    };
  }

  sharedPglite ??= PGlite.create('memory://');
  const client = await sharedPglite;
  await client.exec(`create schema ${schema}`);
  const database = await databaseOnPglite(client, { searchPath: schema, ownsClient: false });
  await migrate(database.db, migrations);
  return {
    database,
    schema,
    drop: async () => {
      await client.exec(`drop schema if exists ${schema} cascade; SET search_path TO public`);
    },
  };
}
