import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Db } from '../../src/db/database';

/** Accounts at the built-in platform, as the robot opens them. */
export async function seedPlatformAccounts(db: Db, count: number): Promise<string[]> {
  const ids = Array.from({ length: count }, () => randomUUID());
  for (const id of ids) {
    await db.execute(sql`
      insert into users (id, name, last_name, email, password_hash)
      values (${id}, 'Ana', 'Lease', ${`${id}@example.com`}, 'x')`);
    await db.execute(sql`
      insert into platform_accounts (account_id, opened_at, deposits_cents, balance_cents)
      values (${id}, now(), 100000, 100000)`);
  }
  return ids;
}
