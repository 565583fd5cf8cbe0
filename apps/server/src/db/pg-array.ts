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
