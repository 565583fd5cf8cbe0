import fs from 'node:fs/promises';
import path from 'node:path';
import { MessageChannel, type MessagePort } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle as drizzleNodePostgres } from 'drizzle-orm/node-postgres';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import pg from 'pg';
import { StartupError } from '../startup-error';
import { checkPgliteFolder, lockFolder, pgliteOpenError } from './data-folder';
import { PgliteLink, servePglite } from './pglite-link';
import * as schema from './schema';

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface Database {
  readonly db: Db;
  readonly kind: 'pglite' | 'postgres';
  /** Resolves when the database answers and our schema is migrated. */
  ping(): Promise<void>;
  /** Idempotent. */
  close(): Promise<void>;
  /**
   * A way in for another thread of this process (the robot's worker, decision 046): PostgreSQL
   * by its URL (the thread opens its own pool), PGlite through a MessagePort this database
   * answers on. A port must go in the transfer list.
   */
  link(): DatabaseLink;
}

export type DatabaseLink =
  | { readonly kind: 'postgres'; readonly url: string; readonly searchPath: string | undefined }
  | { readonly kind: 'pglite'; readonly port: MessagePort };

export interface DatabaseOptions {
  /** A postgres:// URL: node-postgres against a real PostgreSQL (scaled mode). */
  databaseUrl?: string | undefined;
  /** Where PGlite keeps its files; omitted means in memory. */
  pgliteDir?: string | undefined;
  /** A schema to put first on the search_path (used to isolate tests). */
  searchPath?: string | undefined;
  /** Connections of a PostgreSQL pool; 10 unless told. */
  poolSize?: number | undefined;
}

function assertIdentifier(name: string): string {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(name)) throw new Error(`Invalid schema name: ${name}`);
  return name;
}

/** Ready means more than "answers": our migrated tables are reachable. */
async function pingMigrated(db: Db): Promise<void> {
  await db.execute(sql`select 1 from __migrations limit 1`);
}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  const searchPath = options.searchPath ? assertIdentifier(options.searchPath) : undefined;
  if (options.databaseUrl) {
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: options.poolSize ?? 10,
      ...(searchPath ? { options: `-c search_path=${searchPath}` } : {}),
    });
    // An idle client that loses its server must not crash the process.
    pool.on('error', () => undefined);
    await pool.query('select 1').catch(async (error: unknown) => {
      await pool.end().catch(() => undefined);
      throw unreachablePostgres(options.databaseUrl ?? '', error);
    });
    const db = drizzleNodePostgres(pool, { schema }) as unknown as Db;
    let closed: Promise<void> | undefined;
    const url = options.databaseUrl;
    return {
      db,
      kind: 'postgres',
      ping: () => pingMigrated(db),
      close: () => (closed ??= pool.end()),
      link: () => ({ kind: 'postgres', url, searchPath }),
    };
  }

  const folder = options.pgliteDir;
  if (!folder) {
    return databaseOnPglite(await PGlite.create('memory://'), { searchPath, ownsClient: true });
  }
  // One process at a time, and never a damaged folder served as a new database (decision 065).
  await fs.mkdir(path.dirname(folder), { recursive: true });
  const lock = await lockFolder(folder);
  try {
    await checkPgliteFolder(folder);
    await fs.mkdir(folder, { recursive: true });
    const client = await PGlite.create(folder).catch((error: unknown) => {
      throw pgliteOpenError(folder, error);
    });
    return await databaseOnPglite(client, {
      searchPath,
      ownsClient: true,
      afterClose: () => lock.release(),
    });
  } catch (error) {
    await lock.release();
    throw error;
  }
}

/** A postgres:// URL with its password replaced, fit for a message or a log. */
export function redactedUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(not a URL)';
  }
}

function unreachablePostgres(url: string, error: unknown): StartupError {
  const detail = error instanceof Error ? error.message.split('\n')[0] : String(error);
  return new StartupError(
    `The PostgreSQL server in DATABASE_URL (${redactedUrl(url)}) did not answer (${detail ?? ''}): ` +
      'start it or correct DATABASE_URL (unset it to use the embedded database in DATA_DIR)',
  );
}

/**
 * A Database over an existing PGlite client. Tests share one client per file (creating
 * one takes seconds) and give each test a schema of its own.
 */
export async function databaseOnPglite(
  client: PGlite,
  options: {
    searchPath?: string | undefined;
    ownsClient: boolean;
    /** Run once the client is closed (the folder's lock is released). */
    afterClose?: () => Promise<void>;
  },
): Promise<Database> {
  if (options.searchPath) {
    await client.exec(`SET search_path TO ${assertIdentifier(options.searchPath)}`);
  }
  const db = drizzlePglite(client, { schema }) as unknown as Db;
  let closed: Promise<void> | undefined;
  return {
    db,
    kind: 'pglite',
    ping: () => pingMigrated(db),
    close: () =>
      (closed ??= (async () => {
        if (options.ownsClient) await client.close();
        await options.afterClose?.();
      })()),
    link: () => {
      const { port1, port2 } = new MessageChannel();
      servePglite(client, port1);
      return { kind: 'pglite', port: port2 };
    },
  };
}

/** The database another thread linked to (see `Database.link`). */
export function openLinkedDatabase(
  link: DatabaseLink,
  options: { poolSize: number },
): Promise<Database> {
  if (link.kind === 'postgres') {
    return openDatabase({
      databaseUrl: link.url,
      searchPath: link.searchPath,
      poolSize: options.poolSize,
    });
  }
  const client = new PgliteLink(link.port);
  const db = drizzlePglite(client as unknown as PGlite, { schema }) as unknown as Db;
  return Promise.resolve({
    db,
    kind: 'pglite',
    ping: () => pingMigrated(db),
    close: () => {
      client.close();
      return Promise.resolve();
    },
    link: () => {
      throw new Error('a linked PGlite database is not linked on');
    },
  });
}

export function pgliteDirectory(dataDir: string): string {
  return path.join(dataDir, 'pglite');
}
