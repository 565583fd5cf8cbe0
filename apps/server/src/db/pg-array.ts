import { getTableColumns, getTableName, sql, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';

/**
 * A PostgreSQL array literal ('{"a","b",NULL}') of plain values: a whole column of a bulk
 * write as one parameter. `insert ... select * from unnest($1::text[], ...)` then writes
 * thousands of rows with a parameter per column rather than per value, which PostgreSQL and
 * PGlite parse many times faster (apps/server/scripts/bench-robot-store.ts).
 */
export function pgArrayLiteral(values: readonly (string | number | null)[]): string {
  const items = values.map((value) => {
    if (value === null) return 'NULL';
    // String(number) is the shortest text that reads back as the same double.
    if (typeof value === 'number') {
      if (!Number.isFinite(value)) throw new Error(`not a finite number: ${String(value)}`);
      return String(value);
    }
    return `"${value.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`;
  });
  return `{${items.join(',')}}`;
}

/** A plain value as a column of `pgArrayLiteral` takes it: instants as ISO text, flags as text. */
function arrayItem(value: unknown): string | number | null {
  if (value === undefined || value === null) return null;
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'boolean') return String(value);
  if (typeof value === 'string' || typeof value === 'number') return value;
  throw new Error(`not a column value: ${typeof value}`);
}

/** Rows of a table as `unnest` sees them: the column list, and the rows as a source named `v`. */
export interface UnnestedRows {
  /** `"a", "b"`: for `insert into t (…)` and anything naming the same columns. */
  readonly columns: SQL;
  /** `unnest($1::text[], $2::uuid[]) as v("a", "b")`: a parameter per column, whatever the count. */
  readonly source: SQL;
  /** `"a" = v."a", "b" = v."b"` for an `update … from` of the same rows, over the given keys. */
  set(keys: readonly string[]): SQL;
}

/** A table's columns as its Drizzle definition names them (`accountId`, not `account_id`). */
type ColumnKey<T extends PgTable> = keyof T['_']['columns'] & string;

/**
 * Rows to write in one statement, typed by the table's own Drizzle definition: each key's
 * column name and SQL type come from it, so no statement writes a column list or a cast by hand
 * (the bulk inserts and `update … from unnest` of the robot's stores and the platform journal).
 */
export function unnestRows<T extends PgTable>(
  table: T,
  keys: readonly ColumnKey<T>[],
  rows: readonly Partial<Record<ColumnKey<T>, unknown>>[],
): UnnestedRows {
  const definitions = getTableColumns(table) as Record<string, PgColumn>;
  const columnOf = (key: string): PgColumn => {
    const column = definitions[key];
    if (!column) throw new Error(`no column ${key} in ${getTableName(table)}`);
    return column;
  };
  const names = (of: readonly string[]) =>
    sql.join(
      of.map((key) => sql.identifier(columnOf(key).name)),
      sql`, `,
    );
  const columns = names(keys);
  const arrays = keys.map((key) => {
    const column = columnOf(key);
    const values = rows.map((row) => arrayItem((row as Record<string, unknown>)[key]));
    return sql`${pgArrayLiteral(values)}::${sql.raw(column.getSQLType())}[]`;
  });
  return {
    columns,
    source: sql`unnest(${sql.join(arrays, sql`, `)}) as v(${columns})`,
    set: (setKeys) =>
      sql.join(
        setKeys.map((key) => {
          const name = sql.identifier(columnOf(key).name);
          return sql`${name} = v.${name}`;
        }),
        sql`, `,
      ),
  };
}
