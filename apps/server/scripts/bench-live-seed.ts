// The seeding step of `npm run bench:live` (scripts/bench-live.mjs bundles and runs it while
// no server runs: PGlite takes one process at a time). It writes straight into the tables
// what a long-running robot would have written, so that the next server start restores it.
//
//   trader <email> <open> <closed>: the registered user becomes paid and linked with the robot
//     off, a platform account, `closed` operations closed over the last 30 days and `open`
//     operations still open (TP and SL far from the price: they stay open during the run).
//   fleet <email> <accounts>: `accounts - 1` more users in bulk SQL (no argon2 each: they share
//     the registered user's password hash), and every one of them paid, linked, with the robot
//     on in all categories and a platform account with a $10,000 deposit.
//   count <fromMs> <toMs>: what the server recorded in that window, as one JSON line: order
//     intents decided, orders settled at the platform, operations opened and closed; and the
//     totals of each table.
import { InstrumentCatalogue, type Instrument } from '@tradebot/robot';
import { eq, sql } from 'drizzle-orm';
import { loadConfig } from '../src/config';
import { openDatabase, pgliteDirectory, type Db } from '../src/db/database';
import { rowsOf } from '../src/db/migrate';
import {
  marketQuotes,
  operations,
  orderIntents,
  platformAccounts,
  platformDeposits,
  platformOrders,
  userSettings,
  users,
} from '../src/db/schema';
import { allCategoriesEnabled } from '../src/repositories/users.repository';

const depositCents = 1_000_000;
const dayMs = 86_400_000;
const rowsPerInsert = 500;

async function userIdOf(db: Db, email: string): Promise<string> {
  const [row] = await db.select({ id: users.id }).from(users).where(eq(users.email, email));
  if (!row) throw new Error(`no user ${email}: register it through the API first`);
  return row.id;
}

/** A deterministic generator, so that every run seeds the same history. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

async function insertInChunks<T>(rows: T[], insert: (chunk: T[]) => Promise<unknown>) {
  for (let start = 0; start < rows.length; start += rowsPerInsert) {
    await insert(rows.slice(start, start + rowsPerInsert));
  }
}

async function seedTrader(db: Db, email: string, openCount: number, closedCount: number) {
  const accountId = await userIdOf(db, email);
  const catalogue = new InstrumentCatalogue();
  // Quoted in USD, so that profit and margin need no conversion here.
  const instruments = catalogue.instruments.filter((i) => i.quoteCurrency === 'USD');
  const quotes = new Map(
    (await db.select().from(marketQuotes)).map((q) => [q.symbol, (q.bid + q.ask) / 2]),
  );
  const priceOf = (instrument: Instrument) =>
    quotes.get(instrument.symbol) ?? instrument.referencePrice;
  const [numbers] = await db
    .select({ last: sql<number | null>`max(${platformOrders.positionNumber})` })
    .from(platformOrders);
  let positionNumber = (numbers?.last ?? 0) + 1;
  const next = random(9);
  const now = Date.now();
  const operationRows: (typeof operations.$inferInsert)[] = [];
  const orderRows: (typeof platformOrders.$inferInsert)[] = [];
  const intentRows: (typeof orderIntents.$inferInsert)[] = [];
  let realisedProfitCents = 0;
  for (let index = 0; index < closedCount + openCount; index++) {
    const open = index >= closedCount;
    const instrument = instruments[Math.floor(next() * instruments.length)] ?? instruments[0];
    if (!instrument) throw new Error('no instrument quoted in USD');
    const price = priceOf(instrument);
    const side = next() < 0.5 ? 'buy' : 'sale';
    const direction = side === 'buy' ? 1 : -1;
    // About $20 of margin each: 100 open operations hold a fifth of the deposit.
    const units = Math.max(
      instrument.unitStep,
      Math.round((20 * instrument.leverage) / price / instrument.unitStep) * instrument.unitStep,
    );
    const spread = instrument.typicalSpreadPips * instrument.pipSize;
    const bid = price - spread / 2;
    const ask = price + spread / 2;
    const entryPrice = side === 'buy' ? ask : bid;
    // Open ones sit far from both exits; closed ones went 30 pips either way.
    const distance = open ? price * 0.4 : 30 * instrument.pipSize;
    const takeProfit = entryPrice + direction * distance;
    const stopLoss = entryPrice - direction * distance;
    const openedAt = open
      ? now - Math.floor(next() * dayMs)
      : now - 30 * dayMs + Math.floor((index / closedCount) * 29 * dayMs);
    const won = next() < 0.55;
    const closePrice = won ? takeProfit : stopLoss;
    const profitCents = open
      ? null
      : Math.round((closePrice - entryPrice) * direction * units * 100);
    if (profitCents !== null) realisedProfitCents += profitCents;
    const closedAt = open ? null : openedAt + 60_000 + Math.floor(next() * 6 * 3_600_000);
    const marginCents = Math.round(((units * entryPrice) / instrument.leverage) * 100);
    const positionId = `P${String(positionNumber)}`;
    const clientOrderId = `bench-${accountId}-${String(index)}`;
    const closeReason = open ? 'open' : won ? 'tp' : 'sl';
    operationRows.push({
      positionId,
      clientOrderId,
      accountId,
      symbol: instrument.symbol,
      category: instrument.category,
      side,
      units,
      openedAt: new Date(openedAt),
      entryBid: bid,
      entryAsk: ask,
      entryPrice,
      pipSize: instrument.pipSize,
      takeProfit,
      stopLoss,
      probability: 0.62,
      breakEvenProbability: 0.5,
      marginCents,
      equityAtEntryCents: depositCents,
      freeMarginAtEntryCents: depositCents - marginCents,
      usedMarginAfterEntryCents: marginCents,
      closedAt: closedAt === null ? null : new Date(closedAt),
      closePrice: open ? null : closePrice,
      closeReason,
      profitCents,
    });
    orderRows.push({
      clientOrderId,
      accountId,
      outcome: 'filled',
      settledAt: new Date(openedAt),
      positionId,
      positionNumber,
      symbol: instrument.symbol,
      side,
      units,
      price: entryPrice,
      bid,
      ask,
      takeProfit,
      stopLoss,
      marginCents,
      closedAt: closedAt === null ? null : new Date(closedAt),
      closePrice: open ? null : closePrice,
      closeReason: open ? null : closeReason,
      closeProfitCents: profitCents,
    });
    intentRows.push({
      clientOrderId,
      accountId,
      symbol: instrument.symbol,
      category: instrument.category,
      side,
      units,
      takeProfit,
      stopLoss,
      decidedAt: new Date(openedAt - 1),
      decisionBid: bid,
      decisionAsk: ask,
      probability: 0.62,
      breakEvenProbability: 0.5,
      estimatedMarginCents: marginCents,
      equityAtEntryCents: depositCents,
      freeMarginAtEntryCents: depositCents - marginCents,
      status: 'filled',
    });
    positionNumber++;
  }
  await db.transaction(async (tx) => {
    await tx
      .update(userSettings)
      .set({ authorized: true, linked: true, loginTradear: true, botOn: false })
      .where(eq(userSettings.userId, accountId));
    const openedAt = new Date(now - 31 * dayMs);
    await tx.insert(platformAccounts).values({
      accountId,
      depositsCents: depositCents,
      realisedProfitCents,
      balanceCents: depositCents + realisedProfitCents,
      openedAt,
    });
    await tx.insert(platformDeposits).values({
      accountId,
      depositedAt: openedAt,
      cents: depositCents,
      balanceAfterCents: depositCents,
    });
    await insertInChunks(intentRows, (chunk) => tx.insert(orderIntents).values(chunk));
    await insertInChunks(orderRows, (chunk) => tx.insert(platformOrders).values(chunk));
    await insertInChunks(operationRows, (chunk) => tx.insert(operations).values(chunk));
  });
  console.log(
    `seeded ${email}: ${String(openCount)} open, ${String(closedCount)} closed operations`,
  );
}

async function seedFleet(db: Db, email: string, accounts: number) {
  const userId = await userIdOf(db, email);
  await db.transaction(async (tx) => {
    await tx.execute(sql`
      insert into users (name, last_name, email, password_hash, language)
      select 'Bench', 'Robot ' || n, 'fleet-' || n || '@bench.invalid',
             (select password_hash from users where id = ${userId}), 'es'
      from generate_series(1, ${accounts - 1}) as n`);
    await tx.execute(sql`
      insert into user_settings (user_id, categories_enabled)
      select id, ${JSON.stringify(allCategoriesEnabled)}::jsonb from users
      where email like 'fleet-%@bench.invalid'`);
    await tx.execute(sql`
      update user_settings
      set bot_on = true, risk = 1, categories_enabled = ${JSON.stringify(allCategoriesEnabled)}::jsonb,
          authorized = true, linked = true, login_tradear = true
      where user_id = ${userId} or user_id in (select id from users where email like 'fleet-%@bench.invalid')`);
    await tx.execute(sql`
      insert into platform_accounts (account_id, deposits_cents, balance_cents, opened_at)
      select user_id, ${depositCents}, ${depositCents}, now() from user_settings
      where user_id not in (select account_id from platform_accounts)`);
    await tx.execute(sql`
      insert into platform_deposits (account_id, deposited_at, cents, balance_after_cents)
      select account_id, opened_at, ${depositCents}, ${depositCents} from platform_accounts p
      where not exists (select 1 from platform_deposits d where d.account_id = p.account_id)`);
  });
  const [row] = await db.select({ count: sql<number>`count(*)::int` }).from(platformAccounts);
  console.log(`seeded a fleet of ${String(row?.count ?? 0)} trading accounts`);
}

async function countRecorded(db: Db, from: number, to: number) {
  const window = (column: unknown) =>
    sql`${column} >= ${new Date(from).toISOString()}::timestamptz and ${column} < ${new Date(to).toISOString()}::timestamptz`;
  const countOf = async (table: unknown, column: unknown) => {
    const result = await db.execute(
      sql`select count(*)::int as count from ${table} where ${window(column)}`,
    );
    return rowsOf<{ count: number }>(result)[0]?.count ?? 0;
  };
  const totalOf = async (table: unknown) => {
    const result = await db.execute(sql`select count(*)::int as count from ${table}`);
    return rowsOf<{ count: number }>(result)[0]?.count ?? 0;
  };
  console.log(
    JSON.stringify({
      window: {
        intents: await countOf(orderIntents, orderIntents.decidedAt),
        settled: await countOf(platformOrders, platformOrders.settledAt),
        opened: await countOf(operations, operations.openedAt),
        closed: await countOf(operations, operations.closedAt),
      },
      total: {
        intents: await totalOf(orderIntents),
        settled: await totalOf(platformOrders),
        operations: await totalOf(operations),
      },
    }),
  );
}

const [mode, email, ...counts] = process.argv.slice(2);
const config = loadConfig();
const database = await openDatabase({
  databaseUrl: config.DATABASE_URL,
  pgliteDir: pgliteDirectory(config.dataDir),
});
try {
  if (!email) throw new Error('usage: bench-live-seed trader|fleet|count <arguments...>');
  if (mode === 'count') await countRecorded(database.db, Number(email), Number(counts[0]));
  else if (mode === 'trader')
    await seedTrader(database.db, email, Number(counts[0]), Number(counts[1]));
  else if (mode === 'fleet') await seedFleet(database.db, email, Number(counts[0]));
  else throw new Error(`unknown mode ${String(mode)}`);
} finally {
  await database.close();
}
