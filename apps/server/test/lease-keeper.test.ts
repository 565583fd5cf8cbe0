import { sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Db } from '../src/db/database';
import { rowsOf } from '../src/db/migrate';
import { LeaseKeeper } from '../src/robot/worker/lease-keeper';
import { createTestDatabase, type TestDatabase } from './helpers/database';
import { seedPlatformAccounts } from './helpers/leases';

const keeper = (db: Db, owner: string, leaseMs = 2_000, capacity = 1_000) =>
  new LeaseKeeper(db, { owner, leaseMs, marginMs: leaseMs / 4, capacity });

describe('account leases (decision 092)', () => {
  let test: TestDatabase;
  let db: Db;
  beforeEach(async () => {
    test = await createTestDatabase();
    db = test.database.db;
  });
  afterEach(async () => {
    await test.drop();
  });

  it('claims every account alone, then hands a newcomer its share gradually; tokens grow', async () => {
    const ids = await seedPlatformAccounts(db, 20);
    const a = keeper(db, 'a');
    const b = keeper(db, 'b');
    const first = await a.round();
    expect(first.gained).toHaveLength(20);
    expect(ids.every((id) => a.mayTrade(id))).toBe(true);
    // One sequence for every claim: distinct tokens, each above every token claimed before.
    const firstTokens = ids.map((id) => a.tokenOf(id) ?? 0);
    expect(new Set(firstTokens).size).toBe(20);
    const firstCeiling = Math.max(...firstTokens);
    // b sees a alive: its share is 10, but nothing is free yet.
    expect((await b.round()).gained).toEqual([]);
    // a's share is now 10: it gives up a few a round, after it stopped trading them.
    const rounds: number[] = [];
    for (let i = 0; i < 10 && a.heldAccounts().length > 10; i++) {
      const round = await a.round();
      expect(round.surplus.length).toBeGreaterThan(0);
      expect(round.surplus.length).toBeLessThan(10);
      await a.release(round.surplus);
      rounds.push(round.surplus.length);
      await b.round();
    }
    expect(rounds.length).toBeGreaterThan(1);
    expect(a.heldAccounts()).toHaveLength(10);
    expect(b.heldAccounts()).toHaveLength(10);
    const moved = b.heldAccounts();
    expect(moved.every((id) => (b.tokenOf(id) ?? 0) > firstCeiling && !a.mayTrade(id))).toBe(true);
    const owners = rowsOf<{ owner: string; n: string | number }>(
      await db.execute(sql`select owner, count(*) as n from robot_leases group by owner`),
    );
    expect(Object.fromEntries(owners.map((r) => [r.owner, Number(r.n)]))).toEqual({ a: 10, b: 10 });
  });

  it('a lease taken over is not renewed: the old owner loses it and its token is stale', async () => {
    const [id = ''] = await seedPlatformAccounts(db, 1);
    const a = keeper(db, 'a', 300);
    await a.round();
    const first = a.tokenOf(id) ?? Infinity;
    await new Promise((resolve) => setTimeout(resolve, 350));
    // a paused past its lease: b takes the account with a greater token.
    const b = keeper(db, 'b', 300);
    expect((await b.round()).gained).toEqual([id]);
    expect(b.tokenOf(id)).toBeGreaterThan(first);
    expect(a.mayTrade(id)).toBe(false);
    const round = await a.round();
    expect(round.lost).toEqual([id]);
    expect(a.tokenOf(id)).toBeUndefined();
  });

  it('stops trading on its own clock when the database cannot be reached, before the lease lapses', async () => {
    const [id = ''] = await seedPlatformAccounts(db, 1);
    const logs: string[] = [];
    const failing = {
      execute: () => Promise.reject(new Error('connect ECONNREFUSED')),
    } as unknown as Db;
    const a = keeper(db, 'a', 400);
    await a.round();
    expect(a.mayTrade(id)).toBe(true);
    // The same keeper's database goes away: rounds fail, the account is dropped in time.
    Object.assign(a, { db: failing, log: (message: string) => logs.push(message) });
    await new Promise((resolve) => setTimeout(resolve, 310));
    const round = await a.round();
    expect(round.lost).toEqual([id]);
    expect(a.mayTrade(id)).toBe(false);
    expect(logs.some((line) => line.includes('could not be reached'))).toBe(true);
    const row = rowsOf<{ left: string | number }>(
      await db.execute(
        sql`select extract(epoch from lease_until - now()) * 1000 as left from robot_leases`,
      ),
    )[0];
    // It stopped while its lease still ran: nobody else could have held it yet.
    expect(Number(row?.left)).toBeGreaterThan(0);
  });

  it('while a round hangs on a database that does not answer, expire() drops lapsed accounts', async () => {
    const [id = ''] = await seedPlatformAccounts(db, 1);
    const logs: { message: string; accounts: readonly string[] }[] = [];
    const a = new LeaseKeeper(
      db,
      { owner: 'a', leaseMs: 400, marginMs: 100, capacity: 10 },
      (message, accounts) => logs.push({ message, accounts }),
    );
    await a.round();
    // Packets held by a partition: the round's query never answers.
    Object.assign(a, { db: { execute: () => new Promise(() => undefined) } as unknown as Db });
    void a.round();
    expect(a.expire()).toEqual([]);
    expect(a.mayTrade(id)).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 310));
    expect(a.expire()).toEqual([id]);
    expect(a.mayTrade(id)).toBe(false);
    expect(logs.at(-1)).toEqual({
      message: 'leases: stopped trading accounts whose lease this process lost',
      accounts: [id],
    });
  });

  it('an outage is logged once at warn when it starts, and once when the database answers again', async () => {
    const [id = ''] = await seedPlatformAccounts(db, 1);
    const logs: { message: string; level: string }[] = [];
    const a = new LeaseKeeper(
      db,
      { owner: 'a', leaseMs: 60_000, marginMs: 1_000, capacity: 10 },
      (message, _accounts, level = 'info') => logs.push({ message, level }),
    );
    await a.round();
    expect(a.mayTrade(id)).toBe(true);
    const reached = logs.length;
    // The database refuses every query (it is down), round after round, renewal after renewal.
    const refusing = {
      execute: () => Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:5432')),
    } as unknown as Db;
    Object.assign(a, { db: refusing });
    for (let round = 0; round < 3; round++) {
      await a.round();
      await a.renewNow();
    }
    expect(logs.slice(reached)).toEqual([
      {
        message: 'leases: the database could not be reached (connect ECONNREFUSED 127.0.0.1:5432)',
        level: 'warn',
      },
    ]);
    Object.assign(a, { db });
    await a.round();
    await a.renewNow();
    expect(logs.slice(reached + 1)).toEqual([
      { message: 'leases: the database answers again', level: 'info' },
    ]);
    // A second outage is a new event.
    Object.assign(a, { db: refusing });
    await a.renewNow();
    expect(logs.slice(reached + 2).map((line) => line.level)).toEqual(['warn']);
  });

  it('releases on shutdown: another process claims at once', async () => {
    const ids = await seedPlatformAccounts(db, 3);
    const a = keeper(db, 'a', 60_000);
    await a.round();
    await a.releaseAll();
    const b = keeper(db, 'b', 60_000);
    expect([...(await b.round()).gained].sort()).toEqual([...ids].sort());
  });

  it('claims no more than its capacity', async () => {
    await seedPlatformAccounts(db, 5);
    const a = keeper(db, 'a', 60_000, 3);
    expect((await a.round()).gained).toHaveLength(3);
    expect((await a.round()).gained).toHaveLength(0);
  });
});
