// Writes of the robot's Drizzle adapters on PGlite (in memory): one group-commit wave of 4,600
// intents, against the baseline of the same rows through Drizzle's multi-row insert (2,000 rows a
// statement) in the same run; and the platform journal writing 4,600 fills and closures.
// Run: npx tsx apps/server/scripts/bench-robot-store.ts
import type { OrderIntent, PlatformEntry } from '@tradebot/robot';
import { migrationsFolder } from '../src/app';
import { openDatabase } from '../src/db/database';
import { migrate, readMigrations } from '../src/db/migrate';
import { orderIntents } from '../src/db/schema';
import { UsersRepository } from '../src/repositories/users.repository';
import { DrizzleExecutionStore } from '../src/robot/worker/drizzle-execution-store';
import { DrizzlePlatformJournal } from '../src/robot/worker/drizzle-platform-journal';

const accounts = 46;
const perAccount = 100;
const rounds = 5;
const decidedAt = Date.parse('2026-11-21T12:00:00Z');

const database = await openDatabase({});
await migrate(database.db, await readMigrations(migrationsFolder));
const users = new UsersRepository(database.db);
const accountIds: string[] = [];
for (let i = 0; i < accounts; i++) {
  const user = await users.create({
    email: `bench${String(i)}@example.com`,
    name: 'Bench',
    lastName: 'Mark',
    passwordHash: 'none',
  });
  accountIds.push(user.id);
}

function wave(round: number, tag = ''): OrderIntent[] {
  return accountIds.flatMap((accountId) =>
    Array.from({ length: perAccount }, (_, i) => ({
      clientOrderId: `${accountId}/S${String(i)}${tag}/${String(decidedAt + round)}`,
      accountId,
      symbol: `S${String(i)}`,
      category: 'cripto' as const,
      side: 'buy' as const,
      units: 0.5,
      takeProfit: 101,
      stopLoss: 95,
      decidedAt: decidedAt + round,
      decisionBid: 100,
      decisionAsk: 100.1,
      probability: 0.96,
      breakEvenProbability: 0.93,
      estimatedMarginCents: 2_500,
      equityAtEntryCents: 1_000_000,
      freeMarginAtEntryCents: 1_000_000,
      status: 'pending' as const,
    })),
  );
}

function journalWave(intents: OrderIntent[], round: number): PlatformEntry[] {
  return intents.flatMap((intent, index): PlatformEntry[] => {
    const positionId = `P${String(round * 10_000 + index + 1)}`;
    return [
      {
        kind: 'order-settled',
        outcome: {
          kind: 'filled',
          clientOrderId: intent.clientOrderId,
          accountId: intent.accountId,
          positionId,
          symbol: intent.symbol,
          side: intent.side,
          units: intent.units,
          price: 100.1,
          bid: 100,
          ask: 100.1,
          takeProfit: intent.takeProfit,
          stopLoss: intent.stopLoss,
          marginCents: 2_503,
          time: decidedAt + round,
        },
      },
      {
        kind: 'position-closed',
        report: {
          kind: 'position-closed',
          clientOrderId: intent.clientOrderId,
          accountId: intent.accountId,
          positionId,
          symbol: intent.symbol,
          closePrice: 101,
          reason: 'tp',
          profitCents: 45,
          time: decidedAt + round + 1_000,
        },
        balanceCents: 0,
      },
    ];
  });
}

async function time(run: () => Promise<void>): Promise<number> {
  const started = performance.now();
  await run();
  return performance.now() - started;
}

const store = new DrizzleExecutionStore(database.db);
/** The baseline: Drizzle's own multi-row insert, as the first version of the adapter wrote. */
async function drizzleValues(intents: OrderIntent[]): Promise<void> {
  const rows = intents.map((intent) => ({ ...intent, decidedAt: new Date(intent.decidedAt) }));
  await database.db.transaction(async (tx) => {
    for (let start = 0; start < rows.length; start += 2_000) {
      await tx
        .insert(orderIntents)
        .values(rows.slice(start, start + 2_000))
        .onConflictDoNothing();
    }
  });
}
const journal = new DrizzlePlatformJournal(database.db);
await journal.record(
  accountIds.flatMap((accountId): PlatformEntry[] => [
    { kind: 'account-opened', accountId, at: decidedAt - 1 },
    { kind: 'deposited', accountId, cents: 1_000_000, balanceCents: 1_000_000, at: decidedAt - 1 },
  ]),
);

const drizzleMs: number[] = [];
const baselineMs: number[] = [];
const journalMs: number[] = [];
for (let round = 0; round < rounds; round++) {
  const intents = wave(round);
  baselineMs.push(await time(() => drizzleValues(wave(round, 'b'))));
  drizzleMs.push(await time(() => store.saveIntents(intents)));
  const entries = journalWave(intents, round);
  journalMs.push(await time(() => journal.record(entries)));
}
const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
const intentsPerWave = accounts * perAccount;
console.log(`intents per wave: ${String(intentsPerWave)}, rounds: ${String(rounds)} (median)`);
console.log(`baseline, Drizzle multi-row insert: ${median(baselineMs).toFixed(1)} ms`);
console.log(
  `PGlite saveIntents: ${median(drizzleMs).toFixed(1)} ms, ${((intentsPerWave / median(drizzleMs)) * 1000).toFixed(0)} intents/s, ratio to baseline ${(median(baselineMs) / median(drizzleMs)).toFixed(2)}`,
);
console.log(
  `PGlite journal, ${String(intentsPerWave)} fills + ${String(intentsPerWave)} closures in one write: ${median(journalMs).toFixed(1)} ms`,
);
await database.close();
