import type { OrderIntent, TradeRecord } from '@tradebot/robot';
import { sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Db } from '../src/db/database';
import { rowsOf } from '../src/db/migrate';
import { DrizzleExecutionStore } from '../src/robot/worker/drizzle-execution-store';
import { DrizzlePlatformJournal } from '../src/robot/worker/drizzle-platform-journal';
import { LeaseKeeper } from '../src/robot/worker/lease-keeper';
import { fenceOf, type WriteFence } from '../src/robot/worker/write-fence';
import { createTestDatabase, type TestDatabase } from './helpers/database';
import { seedPlatformAccounts } from './helpers/leases';
import { intent, tradeOf } from './helpers/robot-records';

const leaseMs = 300;
const keeper = (db: Db, owner: string) =>
  new LeaseKeeper(db, { owner, leaseMs, marginMs: 100, capacity: 1_000 });
const lapse = () => new Promise((resolve) => setTimeout(resolve, leaseMs + 50));

/** A run's fence as the host builds it: the accounts the keeper holds now, with their tokens. */
function runOf(db: Db, lease: LeaseKeeper) {
  const tokens = new Map(lease.heldAccounts().map((id) => [id, lease.tokenOf(id) ?? -1]));
  const refused: string[] = [];
  const fence: WriteFence = fenceOf(
    lease.options.owner,
    tokens,
    () => true,
    (what, count) => refused.push(`${String(count)} ${what}`),
  );
  const store = new DrizzleExecutionStore(db, () => undefined, {
    accounts: [...tokens.keys()],
    fence,
  });
  return { store, refused, journal: new DrizzlePlatformJournal(db, fence) };
}

let serial = 0;
/** An intent of its own each time (client order ids are unique). */
function intentOf(accountId: string): OrderIntent {
  serial += 1;
  return intent(accountId, 'BTCUSD', { clientOrderId: `${accountId}/${String(serial)}` });
}
const fillOf = (order: OrderIntent): TradeRecord => tradeOf(order, `P-${order.clientOrderId}`);

describe('the write fence (decision 092): a stale run changes 0 rows', () => {
  let test: TestDatabase;
  let db: Db;
  beforeEach(async () => {
    test = await createTestDatabase();
    db = test.database.db;
  });
  afterEach(async () => {
    await test.drop();
  });

  const statuses = async () =>
    new Map(
      rowsOf<{ client_order_id: string; status: string }>(
        await db.execute(sql`select client_order_id, status from order_intents`),
      ).map((row) => [row.client_order_id, row.status]),
    );

  it('refuses a run whose lease another process took over, and one its own process re-claimed', async () => {
    const [x = '', y = '', z = ''] = await seedPlatformAccounts(db, 3);
    const a = keeper(db, 'a');
    await a.round();
    const old = runOf(db, a);
    const kept = intentOf(x);
    const open = intentOf(y);
    await old.store.saveIntents([kept, open, intentOf(z)]);
    await old.store.recordFill(fillOf(open));
    expect(old.refused).toEqual([]);

    // a pauses past its lease and drops every account on its own clock; b claims one, and a
    // itself re-claims the others (a new run, new tokens).
    await lapse();
    expect(a.expire()).toHaveLength(3);
    const b = keeper(db, 'b');
    Object.assign(b, { options: { ...b.options, capacity: 1 } });
    expect((await b.round()).gained).toHaveLength(1);
    const [taken = ''] = b.heldAccounts();
    await a.round();
    const current = runOf(db, a);
    expect(a.heldAccounts().sort()).toEqual([x, y, z].filter((id) => id !== taken).sort());

    // The old run: nothing lands, for the account b holds or for those a's new run holds.
    const late = [x, y, z].map(intentOf);
    await old.store.saveIntents(late);
    await old.store.updateIntentStatus(kept.clientOrderId, 'expired');
    await old.store.closeTrade(fillOf(open).positionId, {
      closedAt: open.decidedAt + 10,
      closePrice: 101.5,
      closeReason: 'tp',
      profitCents: 31,
    });
    expect(old.refused).toEqual(['3 intents', '1 intent statuses', '1 closures']);
    const after = await statuses();
    expect(late.some((order) => after.has(order.clientOrderId))).toBe(false);
    expect(after.get(kept.clientOrderId)).toBe('pending');
    const closed = rowsOf<{ n: string | number }>(
      await db.execute(sql`select count(*) as n from operations where close_reason <> 'open'`),
    );
    expect(Number(closed[0]?.n)).toBe(0);

    // b's run and a's new run write for the accounts they hold.
    const taker = runOf(db, b);
    const own = a.heldAccounts().map(intentOf);
    await current.store.saveIntents(own);
    await taker.store.saveIntents([intentOf(taken)]);
    expect([...current.refused, ...taker.refused]).toEqual([]);
    // A run writes nothing for an account it does not hold, even of the same owner.
    await current.store.saveIntents([intentOf(taken)]);
    expect(current.refused).toEqual(['1 intents']);

    // Released: nobody's run writes for it until someone claims it again.
    await a.release(a.heldAccounts());
    await current.store.saveIntents(own.map((order) => intentOf(order.accountId)));
    expect(current.refused).toEqual(['1 intents', '2 intents']);
  });
  it('books a deposit only where this run holds the account, or nobody holds it', async () => {
    const accounts = await seedPlatformAccounts(db, 3);
    const deposits = async (accountId: string) =>
      rowsOf<{ cents: string | number }>(
        await db.execute(sql`select cents from platform_deposits where account_id = ${accountId}`),
      ).map((row) => Number(row.cents));
    const balance = async (accountId: string) =>
      Number(
        rowsOf<{ balance_cents: string | number }>(
          await db.execute(
            sql`select balance_cents from platform_accounts where account_id = ${accountId}`,
          ),
        )[0]?.balance_cents,
      );
    const deposit = (accountId: string, at: number) => ({
      kind: 'deposited' as const,
      accountId,
      cents: 5_000,
      balanceCents: 1_005_000,
      at,
    });
    const a = keeper(db, 'a');
    Object.assign(a, { options: { ...a.options, capacity: 2 } });
    await a.round();
    // a claims two (in id order); the third stays free.
    const [held = '', moved = ''] = a.heldAccounts();
    const free = accounts.find((id) => id !== held && id !== moved) ?? '';
    const run = runOf(db, a);

    // The run's own account lands, in the ledger and the balance.
    await run.journal.record([deposit(held, 1_000)]);
    expect(await deposits(held)).toEqual([5_000]);
    expect(await balance(held)).toBe(1_005_000);

    // An account nobody holds yet (just opened, before any claim) lands too.
    await run.journal.record([deposit(free, 1_000)]);
    expect(await deposits(free)).toEqual([5_000]);
    expect(run.refused).toEqual([]);

    // A deposit already booked (a replay, or the one opening deposit another process wrote
    // first, decision 110) is skipped, and is no refusal of the fence (issue 40: "1 platform
    // deposits not written" on a healthy start).
    await run.journal.record([deposit(free, 1_000)]);
    await run.journal.record([{ ...deposit(free, 1_500), opening: true }]);
    await run.journal.record([{ ...deposit(free, 1_600), opening: true }]);
    expect(await deposits(free)).toEqual([5_000, 5_000]);
    expect(run.refused).toEqual([]);

    // Paused past its lease, one account taken by b: a's late deposit changes 0 rows there.
    await lapse();
    a.expire();
    const b = keeper(db, 'b');
    Object.assign(b, { options: { ...b.options, capacity: 3 } });
    await b.round();
    expect(b.heldAccounts()).toContain(moved);
    await run.journal.record([deposit(moved, 2_000)]);
    expect(await deposits(moved)).toEqual([]);
    expect(await balance(moved)).toBe(1_000_000);
    expect(run.refused).toEqual(['1 platform deposits']);
  });
});
