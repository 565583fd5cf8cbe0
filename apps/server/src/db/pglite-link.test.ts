import { MessageChannel } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from './migrate';
import { PgliteLink, servePglite } from './pglite-link';

describe('PGlite over a MessagePort (the robot worker’s way into the database)', () => {
  let client: PGlite;

  beforeAll(async () => {
    client = await PGlite.create('memory://');
    await client.exec('create table notes (id int primary key, body text not null)');
  }, 60_000);
  afterAll(async () => {
    await client.close();
  });

  function linked() {
    const { port1, port2 } = new MessageChannel();
    servePglite(client, port1);
    const link = new PgliteLink(port2);
    return { link, db: drizzle(link as unknown as PGlite) };
  }

  it('runs queries and commits transactions; a failed transaction leaves nothing', async () => {
    const { link, db } = linked();
    await db.transaction(async (tx) => {
      await tx.execute(sql`insert into notes values (1, 'kept')`);
      await tx.execute(sql`insert into notes values (2, 'kept too')`);
    });
    await expect(
      db.transaction(async (tx) => {
        await tx.execute(sql`insert into notes values (3, 'dropped')`);
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    const rows = rowsOf<{ id: number }>(await db.execute(sql`select id from notes order by id`));
    expect(rows.map((row) => row.id)).toEqual([1, 2]);
    link.close();
  });

  it("carries PostgreSQL's error fields across", async () => {
    const { link, db } = linked();
    // Drizzle wraps the driver's error, as it does PGlite's own.
    await expect(db.execute(sql`insert into notes values (1, 'again')`)).rejects.toMatchObject({
      cause: { code: '23505', message: expect.stringContaining('duplicate key') as unknown },
    });
    link.close();
  });

  it('rolls back what a closed port left open, and frees the database for the others', async () => {
    const { link, db } = linked();
    let entered: () => void = () => undefined;
    const inTransaction = new Promise<void>((resolve) => (entered = resolve));
    void db
      .transaction(async (tx) => {
        await tx.execute(sql`insert into notes values (9, 'never committed')`);
        entered();
        await new Promise(() => undefined);
      })
      .catch(() => undefined);
    await inTransaction;
    // The other side goes away mid-transaction, as a worker that dies does.
    link.close();
    const rows = await client.query<{ id: number }>('select id from notes where id = 9');
    expect(rows.rows).toEqual([]);
  });
});
