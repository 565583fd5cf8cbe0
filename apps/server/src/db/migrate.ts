import fs from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { Db } from './database';

interface Journal {
  entries: { idx: number; tag: string; breakpoints: boolean }[];
}

export interface Migration {
  tag: string;
  statements: string[];
}

/**
 * Reads drizzle-kit's migrations. drizzle-kit qualifies foreign keys with "public";
 * we drop that qualifier so that every object lands in the first schema of the
 * search_path. That is what lets tests run each in a schema of its own, on PGlite and
 * on PostgreSQL alike (see docs/decisions/003-database.md).
 */
export async function readMigrations(folder: string): Promise<Migration[]> {
  const journal = JSON.parse(
    await fs.readFile(path.join(folder, 'meta', '_journal.json'), 'utf8'),
  ) as Journal;
  const entries = [...journal.entries].sort((a, b) => a.idx - b.idx);
  return Promise.all(
    entries.map(async ({ tag }) => {
      const text = await fs.readFile(path.join(folder, `${tag}.sql`), 'utf8');
      const statements = text
        .split('--> statement-breakpoint')
        .map((statement) => statement.replaceAll('"public".', '').trim())
        .filter(Boolean);
      return { tag, statements };
    }),
  );
}

/**
 * Applies pending migrations, each in its own transaction, under an advisory lock so
 * that several processes starting together (scaled mode) migrate once.
 * Returns the tags it applied.
 */
export async function migrate(db: Db, migrations: Migration[]): Promise<string[]> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(727274)`);
    await tx.execute(
      sql`create table if not exists __migrations (tag text primary key, applied_at timestamptz not null default now())`,
    );
    const done = await tx.execute(sql`select tag from __migrations`);
    const applied = new Set(rowsOf<{ tag: string }>(done).map((row) => row.tag));
    const appliedNow: string[] = [];
    for (const migration of migrations) {
      if (applied.has(migration.tag)) continue;
      for (const statement of migration.statements) await tx.execute(sql.raw(statement));
      await tx.execute(sql`insert into __migrations (tag) values (${migration.tag})`);
      appliedNow.push(migration.tag);
    }
    return appliedNow;
  });
}

/** node-postgres answers `{ rows }`, PGlite answers `{ rows }` too; keep the shape in one place. */
export function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}
