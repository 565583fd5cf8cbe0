import { InMemoryExecutionStore, type ExecutionStore, type PlatformEntry } from '@tradebot/robot';
import { sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Db } from '../src/db/database';
import { rowsOf } from '../src/db/migrate';
import { UsersRepository } from '../src/repositories/users.repository';
import { DrizzleAccountSettingsSource } from '../src/robot/worker/drizzle-account-settings-source';
import { DrizzleExecutionStore } from '../src/robot/worker/drizzle-execution-store';
import {
  DrizzlePlatformJournal,
  loadMarketQuotes,
  loadPlatformState,
  saveMarketQuotes,
} from '../src/robot/worker/drizzle-platform-journal';
import { createTestDatabase, type TestDatabase } from './helpers/database';
import { decidedAt, intent, tradeOf } from './helpers/robot-records';

let testDatabase: TestDatabase;
let db: Db;

beforeEach(async () => {
  testDatabase = await createTestDatabase();
  db = testDatabase.database.db;
});
afterEach(async () => {
  await testDatabase.drop();
});

async function newAccounts(count: number): Promise<string[]> {
  const users = new UsersRepository(db);
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const user = await users.create({
      email: `account${String(i)}@example.com`,
      name: 'Ana',
      lastName: 'Paz',
      passwordHash: 'not-a-real-hash',
    });
    ids.push(user.id);
  }
  return ids;
}

/** The same writes, in the engine's order, against any store; what it reads back after. */
async function exercise(store: ExecutionStore, accounts: string[]) {
  const [a, b] = accounts as [string, string];
  const filled = intent(a, 'BTCUSD');
  const rejected = intent(a, 'ETHUSD');
  const pending = intent(b, 'BTCUSD', { side: 'sale', takeProfit: 99, stopLoss: 107.5 });
  await store.saveIntents([filled, rejected, pending]);
  await store.saveIntents([filled, { ...rejected, units: 99 }]); // a replay changes nothing
  await store.updateIntentStatus(rejected.clientOrderId, 'rejected', 'MARKET_CLOSED');
  const trade = tradeOf(filled, 'P1');
  await store.recordFill(trade);
  await store.recordFill({ ...trade, units: 5 }); // replayed
  const closure = {
    closedAt: decidedAt + 60_000,
    closePrice: 101.5,
    closeReason: 'tp' as const,
    profitCents: 31,
  };
  await store.closeTrade('P1', closure);
  await store.closeTrade('P1', { ...closure, profitCents: -900, closeReason: 'sl' }); // replayed
  await store.recordDayStart(a, 20_413, 1_000_000);
  await store.recordDayStart(a, 20_413, 5); // the first record of the day stands
  await store.recordDayStart(b, 20_412, 700_000);
  return {
    pending: await store.pendingIntents(),
    open: await store.openTrades(),
    all: await store.trades(),
    ofB: await store.trades({ accountId: b }),
    dayStarts: [...(await store.dayStarts(20_413))],
    yesterday: [...(await store.dayStarts(20_412))],
  };
}

describe('DrizzleExecutionStore', () => {
  it('reads back what the in-memory store reads back, replays included', async () => {
    const accounts = await newAccounts(2);
    const drizzle = await exercise(new DrizzleExecutionStore(db), accounts);
    const memory = await exercise(new InMemoryExecutionStore(), accounts);
    expect(drizzle).toEqual(memory);
    expect(drizzle.all[0]).toMatchObject({ closeReason: 'tp', profitCents: 31, units: 0.25 });
    expect(drizzle.pending).toHaveLength(1);
    const statuses = await new DrizzleExecutionStore(db).intents();
    expect(statuses.map((i) => [i.status, i.rejectReason]).sort()).toEqual([
      ['filled', undefined],
      ['pending', undefined],
      ['rejected', 'MARKET_CLOSED'],
    ]);
  });

  it('saves a group-commit wave of 4,600 intents, and again without duplicates', async () => {
    const accounts = await newAccounts(46);
    const wave = accounts.flatMap((accountId) =>
      Array.from({ length: 100 }, (_, i) => intent(accountId, `SYM${String(i)}`)),
    );
    const store = new DrizzleExecutionStore(db);
    await store.saveIntents(wave);
    await store.saveIntents(wave.slice(0, 3_000));
    const pending = await store.pendingIntents();
    expect(pending).toHaveLength(4_600);
    expect(new Set(pending.map((i) => i.clientOrderId)).size).toBe(4_600);
    expect(pending.find((i) => i.clientOrderId === wave[1234]?.clientOrderId)).toEqual(wave[1234]);
  });

  it('keeps one operation per client order id', async () => {
    const [account] = (await newAccounts(1)) as [string];
    const store = new DrizzleExecutionStore(db);
    const order = intent(account, 'BTCUSD');
    await store.saveIntents([order]);
    await store.recordFill(tradeOf(order, 'P1'));
    await store.recordFill(tradeOf(order, 'P2'));
    expect((await store.trades()).map((trade) => trade.positionId)).toEqual(['P1']);
  });
});

describe('DrizzleAccountSettingsSource', () => {
  it('registers platform accounts, the robot on only when wanted, paid and linked', async () => {
    const [wants, unpaid, unlinked, noPlatform] = (await newAccounts(4)) as [
      string,
      string,
      string,
      string,
    ];
    await db.execute(
      sql`update user_settings set bot_on = true, authorized = true, linked = true, risk = 3`,
    );
    await db.execute(sql`update user_settings set authorized = false where user_id = ${unpaid}`);
    await db.execute(sql`update user_settings set linked = false where user_id = ${unlinked}`);
    await new DrizzlePlatformJournal(db).record(
      [wants, unpaid, unlinked].map((accountId) => ({
        kind: 'account-opened',
        accountId,
        at: decidedAt,
      })),
    );
    const registrations = await new DrizzleAccountSettingsSource(db).loadAll();
    const byId = new Map(registrations.map((r) => [r.accountId, r.settings]));
    expect(byId.has(noPlatform)).toBe(false);
    expect(byId.get(wants)).toEqual({
      bot_on: true,
      risk: 3,
      categories_enabled: {
        forex: true,
        cripto: true,
        stocks: true,
        index: true,
        commodities: true,
        all: true,
      },
    });
    expect(byId.get(unpaid)?.bot_on).toBe(false);
    expect(byId.get(unlinked)?.bot_on).toBe(false);
  });
});

describe('DrizzlePlatformJournal', () => {
  it('books each entry once, and balance = deposits + realised profit exactly', async () => {
    const [a, b] = (await newAccounts(2)) as [string, string];
    const journal = new DrizzlePlatformJournal(db);
    const fill = (account: string, id: string, positionId: string) =>
      ({
        kind: 'order-settled',
        outcome: {
          kind: 'filled',
          clientOrderId: id,
          accountId: account,
          positionId,
          symbol: 'BTCUSD',
          side: 'buy',
          units: 0.1,
          price: 65_000.5,
          bid: 65_000,
          ask: 65_000.5,
          takeProfit: 65_010,
          stopLoss: 64_950,
          marginCents: 325_003,
          time: decidedAt,
        },
      }) as const;
    const close = (
      account: string,
      id: string,
      positionId: string,
      profit: number,
      balance: number,
    ) =>
      ({
        kind: 'position-closed',
        report: {
          kind: 'position-closed',
          clientOrderId: id,
          accountId: account,
          positionId,
          symbol: 'BTCUSD',
          closePrice: 65_010,
          reason: profit > 0 ? 'tp' : 'sl',
          profitCents: profit,
          time: decidedAt + 5_000,
        },
        balanceCents: balance,
      }) as const;
    const first: PlatformEntry[] = [
      { kind: 'account-opened', accountId: a, at: decidedAt - 1 },
      {
        kind: 'deposited',
        accountId: a,
        cents: 1_000_000,
        balanceCents: 1_000_000,
        at: decidedAt - 1,
      },
      { kind: 'account-opened', accountId: b, at: decidedAt - 1 },
      { kind: 'deposited', accountId: b, cents: 50_000, balanceCents: 50_000, at: decidedAt - 1 },
      fill(a, 'a-1', 'P1'),
      fill(a, 'a-2', 'P2'),
      fill(b, 'b-1', 'P3'),
      {
        kind: 'order-settled',
        outcome: {
          kind: 'rejected',
          clientOrderId: 'b-2',
          accountId: b,
          reason: 'MARKET_CLOSED',
          time: decidedAt,
        },
      },
    ];
    const second: PlatformEntry[] = [
      close(a, 'a-1', 'P1', 95, 1_000_095),
      close(b, 'b-1', 'P3', -4_307, 45_693),
      {
        kind: 'deposited',
        accountId: b,
        cents: 25_000,
        balanceCents: 70_693,
        at: decidedAt + 6_000,
      },
    ];
    await journal.record(first);
    await journal.record(second);
    // A write replayed after a crash books nothing twice.
    await journal.record(first);
    await journal.record(second);

    const state = await loadPlatformState(db, { settledSince: decidedAt - 60_000 });
    expect(state.accounts).toEqual(
      expect.arrayContaining([
        {
          accountId: a,
          depositsCents: 1_000_000,
          realisedProfitCents: 95,
          balanceCents: 1_000_095,
        },
        { accountId: b, depositsCents: 75_000, realisedProfitCents: -4_307, balanceCents: 70_693 },
      ]),
    );
    for (const account of state.accounts) {
      expect(account.balanceCents).toBe(account.depositsCents + account.realisedProfitCents);
    }
    expect(state.nextPositionNumber).toBe(4);
    const byId = new Map(state.orders.map((order) => [order.outcome.clientOrderId, order]));
    expect(byId.get('a-1')).toEqual({
      outcome: first[4] && 'outcome' in first[4] ? first[4].outcome : undefined,
      closed: second[0] && 'report' in second[0] ? second[0].report : undefined,
    });
    expect(byId.get('a-2')?.closed).toBeUndefined();
    expect(byId.get('b-2')?.outcome).toMatchObject({ kind: 'rejected', reason: 'MARKET_CLOSED' });

    // Old settled orders stay in the database; the open position is always loaded.
    const later = await loadPlatformState(db, { settledSince: decidedAt + 3_600_000 });
    expect(later.orders.map((order) => order.outcome.clientOrderId)).toEqual(['a-2']);

    const ledger = rowsOf<{ ok: boolean }>(
      await db.execute(
        sql`select bool_and(balance_cents = deposits_cents + realised_profit_cents) as ok from platform_accounts`,
      ),
    );
    expect(ledger[0]?.ok).toBe(true);
  });

  it('writes nothing of a write that fails', async () => {
    const [a] = (await newAccounts(1)) as [string];
    const journal = new DrizzlePlatformJournal(db);
    await expect(
      journal.record([
        { kind: 'account-opened', accountId: a, at: decidedAt },
        { kind: 'deposited', accountId: a, cents: 1_000, balanceCents: 1_000, at: decidedAt },
        // An account that does not exist: the whole write is refused.
        {
          kind: 'account-opened',
          accountId: '00000000-0000-4000-8000-000000000000',
          at: decidedAt,
        },
      ]),
    ).rejects.toThrow();
    expect((await loadPlatformState(db, { settledSince: 0 })).accounts).toEqual([]);
  });

  it('keeps the newest quote of each instrument', async () => {
    await saveMarketQuotes(db, [
      { symbol: 'BTCUSD', time: decidedAt, bid: 1, ask: 2 },
      { symbol: 'EURUSD', time: decidedAt, bid: 1.1, ask: 1.1001 },
    ]);
    await saveMarketQuotes(db, [
      { symbol: 'BTCUSD', time: decidedAt + 1_000, bid: 3, ask: 4 },
      { symbol: 'EURUSD', time: decidedAt - 1_000, bid: 9, ask: 9 },
    ]);
    expect(await loadMarketQuotes(db)).toEqual([
      { symbol: 'BTCUSD', time: decidedAt + 1_000, bid: 3, ask: 4 },
      { symbol: 'EURUSD', time: decidedAt, bid: 1.1, ask: 1.1001 },
    ]);
  });
});
