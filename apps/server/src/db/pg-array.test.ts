import { describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { bigint, boolean, PgDialect, pgTable, timestamp, uuid } from 'drizzle-orm/pg-core';
import { pgArrayLiteral, unnestRows } from './pg-array';

describe('pgArrayLiteral', () => {
  it('quotes text, escapes quotes and backslashes, and writes NULL and numbers bare', () => {
    expect(pgArrayLiteral(['a', 'b,c', 'say "hi"', 'back\\slash', null, 1.5, -2, 0.1])).toBe(
      '{"a","b,c","say \\"hi\\"","back\\\\slash",NULL,1.5,-2,0.1}',
    );
    expect(pgArrayLiteral([])).toBe('{}');
    expect(pgArrayLiteral(['NULL'])).toBe('{"NULL"}');
  });

  it('refuses numbers PostgreSQL would not read back', () => {
    expect(() => pgArrayLiteral([Number.NaN])).toThrow();
    expect(() => pgArrayLiteral([Infinity])).toThrow();
  });
});

describe('unnestRows', () => {
  const table = pgTable('t', {
    id: uuid('id').primaryKey(),
    at: timestamp('at', { withTimezone: true }),
    cents: bigint('cents', { mode: 'number' }),
    flag: boolean('flag'),
  });
  const dialect = new PgDialect();

  it("names and casts each column from the table's definition, a parameter per column", () => {
    const v = unnestRows(
      table,
      ['id', 'at', 'cents', 'flag'],
      [
        { id: 'a', at: new Date(0), cents: 5, flag: true },
        { id: 'b', cents: 7 },
      ],
    );
    const query = dialect.sqlToQuery(sql`insert into t (${v.columns}) select * from ${v.source}`);
    expect(query.sql).toBe(
      'insert into t ("id", "at", "cents", "flag") select * from unnest($1::uuid[], ' +
        '$2::timestamp with time zone[], $3::bigint[], $4::boolean[]) as v("id", "at", "cents", "flag")',
    );
    expect(query.params).toEqual([
      '{"a","b"}',
      '{"1970-01-01T00:00:00.000Z",NULL}',
      '{5,7}',
      '{"true",NULL}',
    ]);
    expect(dialect.sqlToQuery(v.set(['at', 'cents'])).sql).toBe(
      '"at" = v."at", "cents" = v."cents"',
    );
  });

  it('refuses a key the table does not have', () => {
    expect(() => unnestRows(table, ['nope' as 'id'], [])).toThrow(/no column nope in t/);
  });
});
