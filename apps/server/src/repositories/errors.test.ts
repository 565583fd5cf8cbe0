import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DuplicateKey, refusingDuplicates } from './errors';

describe('a duplicate key, in the repositories’ words (decision 090)', () => {
  let client: PGlite;
  beforeAll(async () => {
    client = await PGlite.create('memory://');
    await client.exec('create table notes (id int primary key, body text not null)');
  }, 60_000);
  afterAll(async () => {
    await client.close();
  });

  it('turns a unique violation from a write or its transaction into DuplicateKey, and nothing else', async () => {
    const db = drizzle(client);
    await db.execute(sql`insert into notes values (1, 'first')`);

    const again = refusingDuplicates(() => db.execute(sql`insert into notes values (1, 'again')`));
    await expect(again).rejects.toBeInstanceOf(DuplicateKey);
    await expect(again).rejects.toMatchObject({ cause: { cause: { code: '23505' } } });

    const inTransaction = refusingDuplicates(() =>
      db.transaction(async (tx) => {
        await tx.execute(sql`insert into notes values (2, 'kept only if all is')`);
        await tx.execute(sql`insert into notes values (1, 'again')`);
      }),
    );
    await expect(inTransaction).rejects.toBeInstanceOf(DuplicateKey);
    const rows = await client.query<{ id: number }>('select id from notes order by id');
    expect(rows.rows.map((row) => row.id)).toEqual([1]);

    // Any other failure passes through as it was.
    const broken = refusingDuplicates(() => db.execute(sql`insert into notes values (3, null)`));
    await expect(broken).rejects.not.toBeInstanceOf(DuplicateKey);
    await expect(broken).rejects.toMatchObject({ cause: { code: '23502' } });
    expect(await refusingDuplicates(() => Promise.resolve('written'))).toBe('written');
  });
});
