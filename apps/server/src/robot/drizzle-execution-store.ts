import type { Category } from '@tradebot/contract';
import type {
  CloseReason,
  ExecutionStore,
  IntentStatus,
  OrderIntent,
  Side,
  TradeClosure,
  TradeRecord,
} from '@tradebot/robot';
import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/database';
import { pgArrayLiteral } from '../db/pg-array';
import { dayStarts, operations, orderIntents } from '../db/schema';

type IntentRow = typeof orderIntents.$inferSelect;
type OperationRow = typeof operations.$inferSelect;

function intentOf(row: IntentRow): OrderIntent {
  return {
    clientOrderId: row.clientOrderId,
    accountId: row.accountId,
    symbol: row.symbol,
    category: row.category as Category,
    side: row.side as Side,
    units: row.units,
    takeProfit: row.takeProfit,
    stopLoss: row.stopLoss,
    decidedAt: row.decidedAt.getTime(),
    decisionBid: row.decisionBid,
    decisionAsk: row.decisionAsk,
    probability: row.probability,
    breakEvenProbability: row.breakEvenProbability,
    estimatedMarginCents: row.estimatedMarginCents,
    equityAtEntryCents: row.equityAtEntryCents,
    freeMarginAtEntryCents: row.freeMarginAtEntryCents,
    status: row.status as IntentStatus,
    ...(row.rejectReason === null ? {} : { rejectReason: row.rejectReason }),
  };
}

export function tradeOf(row: OperationRow): TradeRecord {
  return {
    positionId: row.positionId,
    clientOrderId: row.clientOrderId,
    accountId: row.accountId,
    symbol: row.symbol,
    category: row.category as Category,
    side: row.side as Side,
    units: row.units,
    openedAt: row.openedAt.getTime(),
    entryBid: row.entryBid,
    entryAsk: row.entryAsk,
    entryPrice: row.entryPrice,
    pipSize: row.pipSize,
    takeProfit: row.takeProfit,
    stopLoss: row.stopLoss,
    probability: row.probability,
    breakEvenProbability: row.breakEvenProbability,
    marginCents: row.marginCents,
    equityAtEntryCents: row.equityAtEntryCents,
    freeMarginAtEntryCents: row.freeMarginAtEntryCents,
    usedMarginAfterEntryCents: row.usedMarginAfterEntryCents,
    closedAt: row.closedAt === null ? null : row.closedAt.getTime(),
    closePrice: row.closePrice,
    closeReason: row.closeReason as CloseReason | 'open',
    profitCents: row.profitCents,
  };
}

function operationRow(trade: TradeRecord): typeof operations.$inferInsert {
  return {
    positionId: trade.positionId,
    clientOrderId: trade.clientOrderId,
    accountId: trade.accountId,
    symbol: trade.symbol,
    category: trade.category,
    side: trade.side,
    units: trade.units,
    openedAt: new Date(trade.openedAt),
    entryBid: trade.entryBid,
    entryAsk: trade.entryAsk,
    entryPrice: trade.entryPrice,
    pipSize: trade.pipSize,
    takeProfit: trade.takeProfit,
    stopLoss: trade.stopLoss,
    probability: trade.probability,
    breakEvenProbability: trade.breakEvenProbability,
    marginCents: trade.marginCents,
    equityAtEntryCents: trade.equityAtEntryCents,
    freeMarginAtEntryCents: trade.freeMarginAtEntryCents,
    usedMarginAfterEntryCents: trade.usedMarginAfterEntryCents,
    closedAt: trade.closedAt === null ? null : new Date(trade.closedAt),
    closePrice: trade.closePrice,
    closeReason: trade.closeReason,
    profitCents: trade.profitCents,
  };
}

/**
 * The robot's ExecutionStore on the server's database (robot/src/execution/execution-store.ts).
 * Inserts skip rows whose key exists, and updates only move a row forward (a filled intent is
 * never made pending again, a closed operation never closed twice), so a replay is harmless.
 */
export class DrizzleExecutionStore implements ExecutionStore {
  constructor(
    private readonly db: Db,
    /** Told once an operation's closure is in the database (the server's read caches). */
    private readonly onClosureStored: (accountId: string) => void = () => undefined,
  ) {}

  /** One statement whatever the wave's size: a parameter per column (see pgArrayLiteral). */
  async saveIntents(intents: readonly OrderIntent[]): Promise<void> {
    if (intents.length === 0) return;
    const column = (read: (intent: OrderIntent) => string | number | null) =>
      pgArrayLiteral(intents.map(read));
    await this.db.execute(sql`
      insert into ${orderIntents} (
        client_order_id, account_id, symbol, category, side, units, take_profit, stop_loss,
        decided_at, decision_bid, decision_ask, probability, break_even_probability,
        estimated_margin_cents, equity_at_entry_cents, free_margin_at_entry_cents, status,
        reject_reason)
      select * from unnest(
        ${column((i) => i.clientOrderId)}::text[],
        ${column((i) => i.accountId)}::uuid[],
        ${column((i) => i.symbol)}::text[],
        ${column((i) => i.category)}::text[],
        ${column((i) => i.side)}::text[],
        ${column((i) => i.units)}::float8[],
        ${column((i) => i.takeProfit)}::float8[],
        ${column((i) => i.stopLoss)}::float8[],
        ${column((i) => new Date(i.decidedAt).toISOString())}::timestamptz[],
        ${column((i) => i.decisionBid)}::float8[],
        ${column((i) => i.decisionAsk)}::float8[],
        ${column((i) => i.probability)}::float8[],
        ${column((i) => i.breakEvenProbability)}::float8[],
        ${column((i) => i.estimatedMarginCents)}::int8[],
        ${column((i) => i.equityAtEntryCents)}::int8[],
        ${column((i) => i.freeMarginAtEntryCents)}::int8[],
        ${column((i) => i.status)}::text[],
        ${column((i) => i.rejectReason ?? null)}::text[])
      on conflict do nothing`);
  }

  async updateIntentStatus(
    clientOrderId: string,
    status: IntentStatus,
    rejectReason?: string,
  ): Promise<void> {
    await this.db
      .update(orderIntents)
      .set({ status, rejectReason: rejectReason ?? null })
      .where(
        and(eq(orderIntents.clientOrderId, clientOrderId), eq(orderIntents.status, 'pending')),
      );
  }

  async recordFill(trade: TradeRecord): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx
        .update(orderIntents)
        .set({ status: 'filled', rejectReason: null })
        .where(eq(orderIntents.clientOrderId, trade.clientOrderId));
      await tx.insert(operations).values(operationRow(trade)).onConflictDoNothing();
    });
  }

  async closeTrade(positionId: string, closure: TradeClosure): Promise<void> {
    const closed = await this.db
      .update(operations)
      .set({
        closedAt: new Date(closure.closedAt),
        closePrice: closure.closePrice,
        closeReason: closure.closeReason,
        profitCents: closure.profitCents,
      })
      .where(and(eq(operations.positionId, positionId), eq(operations.closeReason, 'open')))
      .returning({ accountId: operations.accountId });
    for (const row of closed) this.onClosureStored(row.accountId);
  }

  async recordDayStart(accountId: string, day: number, equityCents: number): Promise<void> {
    await this.db.insert(dayStarts).values({ accountId, day, equityCents }).onConflictDoNothing();
  }

  async dayStarts(day: number): Promise<ReadonlyMap<string, number>> {
    const rows = await this.db
      .select({ accountId: dayStarts.accountId, equityCents: dayStarts.equityCents })
      .from(dayStarts)
      .where(eq(dayStarts.day, day));
    return new Map(rows.map((row) => [row.accountId, row.equityCents]));
  }

  pendingIntents(): Promise<readonly OrderIntent[]> {
    return this.intentsWhere(eq(orderIntents.status, 'pending'));
  }

  openTrades(): Promise<readonly TradeRecord[]> {
    return this.tradesWhere(eq(operations.closeReason, 'open'));
  }

  trades(filter: { accountId?: string } = {}): Promise<readonly TradeRecord[]> {
    return this.tradesWhere(
      filter.accountId === undefined ? undefined : eq(operations.accountId, filter.accountId),
    );
  }

  /** Every intent, in decision order (tests and the crash check). */
  intents(): Promise<readonly OrderIntent[]> {
    return this.intentsWhere(undefined);
  }

  private async intentsWhere(where: SQL | undefined): Promise<readonly OrderIntent[]> {
    const rows = await this.db
      .select()
      .from(orderIntents)
      .where(where)
      .orderBy(orderIntents.decidedAt, orderIntents.clientOrderId);
    return rows.map(intentOf);
  }

  private async tradesWhere(where: SQL | undefined): Promise<readonly TradeRecord[]> {
    const rows = await this.db
      .select()
      .from(operations)
      .where(where)
      .orderBy(operations.openedAt, operations.positionId);
    return rows.map(tradeOf);
  }
}
