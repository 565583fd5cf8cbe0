import { randomBytes } from 'node:crypto';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { migrationsFolder } from '../../src/app';
import { databaseOnPglite, openDatabase, type Database } from '../../src/db/database';
import { readMigrations } from '../../src/db/migrate';

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

/**
 * The schema every migration builds, as one script: their statements in order, then the record
 * `migrate` keeps of them. A test's schema is built in one round trip instead of one per statement
 * (160 of them, 0.5-1.3 s a test on this machine, twice per test file and engine, against 0.1-0.2 s).
 * `migrate` itself builds the same schema: test/foundation.test.ts compares the two catalogues.
 */
let migratedSchemaScript: Promise<string> | undefined;
function schemaScript(): Promise<string> {
  migratedSchemaScript ??= readMigrations(migrationsFolder).then((migrations) =>
    [
      ...migrations.flatMap((migration) => migration.statements),
      'create table __migrations (tag text primary key, applied_at timestamptz not null default now())',
      `insert into __migrations (tag) values ${migrations
        .map((migration) => `('${migration.tag}')`)
        .join(', ')}`,
    ].join(';\n'),
  );
  return migratedSchemaScript;
}

export interface TestDatabaseOptions {
  /** False: the schema is left empty (to run `migrate` on it). Migrated by default. */
  migrated?: boolean;
}

/** In one transaction: the schema, and unless told otherwise, everything the migrations build. */
async function schemaStatements(schema: string, options: TestDatabaseOptions): Promise<string> {
  const build = options.migrated === false ? '' : await schemaScript();
  return `begin; create schema ${schema}; set local search_path to ${schema}; ${build}; commit;`;
}

/** A freshly migrated schema of its own, so no test ever reads another's data. */
export async function createTestDatabase(options: TestDatabaseOptions = {}): Promise<TestDatabase> {
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const statements = await schemaStatements(schema, options);

  if (testEngine === 'postgres') {
    adminPool ??= new pg.Pool({ connectionString: postgresUrl(), max: 2 });
    await adminPool.query(statements);
    const database = await openDatabase({ databaseUrl: postgresUrl(), searchPath: schema });
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
  await client.exec(statements);
  const database = await databaseOnPglite(client, { searchPath: schema, ownsClient: false });
  return {
    database,
    schema,
    drop: async () => {
      await client.exec(`drop schema if exists ${schema} cascade; SET search_path TO public`);
    },
  };
}
