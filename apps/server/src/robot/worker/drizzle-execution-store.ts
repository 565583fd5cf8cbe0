import type { Category } from '@tradebot/contract';
import type {
  ExecutionStore,
  IntentStatus,
  OrderIntent,
  Side,
  TradeClosure,
  TradeRecord,
} from '@tradebot/robot';
import { and, eq, getTableColumns, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/database';
import { rowsOf } from '../../db/migrate';
import { pgArrayLiteral, unnestRows } from '../../db/pg-array';
import { dayStarts, operations, orderIntents, tradingPlatformLinks } from '../../db/schema';
import { tradeOf } from '../../db/trade-records';
import { fenced, type WriteFence } from './write-fence';

/** The account is not linked to a cTrader broker (decision 096). */
export function notLinkedToCTrader(account: SQL | AnyPgColumn): SQL {
  return sql`not exists (select 1 from ${tradingPlatformLinks} where ${tradingPlatformLinks.userId} = ${account} and ${tradingPlatformLinks.platform} = 'ctrader')`;
}

type IntentRow = typeof orderIntents.$inferSelect;

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
    ...(row.rejectBrokerCode === null ? {} : { rejectBrokerCode: row.rejectBrokerCode }),
  };
}

type OperationInsert = typeof operations.$inferInsert;

/** Every column of an operation: a fill writes them all (`unnestRows` types them from the table). */
const operationKeys = Object.keys(getTableColumns(operations)) as (keyof OperationInsert)[];

function operationRow(trade: TradeRecord): OperationInsert {
  return {
    ...trade,
    openedAt: new Date(trade.openedAt),
    closedAt: trade.closedAt === null ? null : new Date(trade.closedAt),
  };
}

/**
 * Which accounts one run of the robot trades (decision 092): with leases, its reads cover only
 * them and its writes carry their fencing tokens. Without, every account and no fence.
 */
export interface StoreScope {
  readonly accounts?: readonly string[];
  readonly fence?: WriteFence;
  /**
   * The built-in platform's run leaves out the accounts linked to a cTrader broker: their
   * intents and operations are the cTrader runs' (decision 096).
   */
  readonly builtInOnly?: boolean;
}

type StoreWrite =
  | {
      kind: 'status';
      clientOrderId: string;
      status: IntentStatus;
      rejectReason: string | null;
      rejectBrokerCode: string | null;
    }
  | { kind: 'fill'; trade: TradeRecord }
  | { kind: 'close'; positionId: string; closure: TradeClosure }
  | { kind: 'day'; accountId: string; day: number; equityCents: number };

interface WriteBatch {
  writes: StoreWrite[];
  waiters: { resolve: () => void; reject: (error: unknown) => void }[];
}

/** Keeps the first write of each key: a replay in the same batch changes nothing, as apart. */
function firstOf<T>(items: readonly T[], key: (item: T) => string): T[] {
  const seen = new Set<string>();
  return items.filter((item) => {
    const k = key(item);
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

/**
 * The robot's ExecutionStore on the server's database (robot/src/execution/execution-store.ts).
 * Inserts skip rows whose key exists, and updates only move a row forward (a filled intent is
 * never made pending again, a closed operation never closed twice), so a replay is harmless.
 *
 * Status changes, fills, closures and day starts are written by group commit (decision 046):
 * the calls of one turn share one transaction, one statement per kind whatever their number,
 * applied in the order fills, closures, so a closure never overtakes its fill; whatever comes
 * while a write is in flight waits for the next one. A wave of 10,000 accounts expires or fills
 * tens of thousands of orders at once: one round trip each would keep the database busy for
 * longer than a shutdown may last. Each call resolves once its transaction has committed.
 */
export class DrizzleExecutionStore implements ExecutionStore {
  private gathered: WriteBatch = { writes: [], waiters: [] };
  private writing = false;
  private writeScheduled = false;
  /** Intents the fence kept out of the database: they are never sent (see `mayBeSent`). */
  private readonly refusedIntents = new Set<string>();

  constructor(
    private readonly db: Db,
    /** Told once an operation's closure is in the database (the server's read caches). */
    private readonly onClosureStored: (accountId: string) => void = () => undefined,
    private readonly scope: StoreScope = {},
  ) {}

  /** False for an intent this store did not write (the lease's token had moved on). */
  mayBeSent(clientOrderId: string): boolean {
    return !this.refusedIntents.delete(clientOrderId);
  }

  private fence(account: SQL): SQL {
    return fenced(this.scope.fence, account);
  }

  /** Tells the fence how many rows of a write did not land. */
  private counted(what: string, asked: number, result: unknown): void {
    if (!this.scope.fence) return;
    const missing = asked - rowsOf(result).length;
    if (missing > 0) this.scope.fence.refused(what, missing);
  }

  private accountFilter(
    column:
      typeof orderIntents.accountId | typeof operations.accountId | typeof dayStarts.accountId,
  ): SQL | undefined {
    const accounts = this.scope.accounts;
    const held =
      accounts === undefined
        ? undefined
        : sql`${column} = any(${pgArrayLiteral(accounts)}::uuid[])`;
    if (!this.scope.builtInOnly) return held;
    const builtIn = notLinkedToCTrader(column);
    return held === undefined ? builtIn : sql`${held} and ${builtIn}`;
  }

  private enqueue(write: StoreWrite): Promise<void> {
    return new Promise((resolve, reject) => {
      this.gathered.writes.push(write);
      this.gathered.waiters.push({ resolve, reject });
      this.scheduleWrite();
    });
  }

  private scheduleWrite(): void {
    if (this.writeScheduled || this.writing || this.gathered.writes.length === 0) return;
    this.writeScheduled = true;
    queueMicrotask(() => {
      this.writeScheduled = false;
      const batch = this.gathered;
      this.gathered = { writes: [], waiters: [] };
      this.writing = true;
      this.write(batch.writes)
        .then(
          (closedAccounts) => {
            for (const waiter of batch.waiters) waiter.resolve();
            for (const accountId of closedAccounts) this.onClosureStored(accountId);
          },
          (error: unknown) => {
            for (const waiter of batch.waiters) waiter.reject(error);
          },
        )
        .finally(() => {
          this.writing = false;
          this.scheduleWrite();
        });
    });
  }

  /** One transaction; resolves with the accounts an operation of which it closed. */
  private async write(writes: readonly StoreWrite[]): Promise<string[]> {
    const of = <K extends StoreWrite['kind']>(kind: K) =>
      writes.filter((write): write is Extract<StoreWrite, { kind: K }> => write.kind === kind);
    const statuses = firstOf(of('status'), (write) => write.clientOrderId);
    const fills = of('fill').map((write) => write.trade);
    const closes = firstOf(of('close'), (write) => write.positionId);
    const days = of('day');
    return this.db.transaction(async (tx) => {
      if (statuses.length > 0) {
        const v = unnestRows(
          orderIntents,
          ['clientOrderId', 'status', 'rejectReason', 'rejectBrokerCode'],
          statuses,
        );
        const updated = await tx.execute(sql`
          update ${orderIntents} as i
            set ${v.set(['status', 'rejectReason', 'rejectBrokerCode'])}
          from ${v.source}
          where i.client_order_id = v.client_order_id and i.status = 'pending'
            and ${this.fence(sql`i.account_id`)}
          returning i.client_order_id`);
        this.counted('intent statuses', statuses.length, updated);
      }
      if (fills.length > 0) {
        const rows = fills.map(operationRow);
        const v = unnestRows(operations, operationKeys, rows);
        const inserted = await tx.execute(sql`
          insert into ${operations} (${v.columns})
          select * from ${v.source}
          where ${this.fence(sql`v.account_id`)}
          on conflict do nothing
          returning position_id`);
        // An intent is filled where its operation is stored: with leases, statements of one
        // transaction see the lease at different moments, so the fence decides once, above.
        await tx.execute(sql`
          update ${orderIntents} as i set status = 'filled', reject_reason = null
          where client_order_id = any(${pgArrayLiteral(rows.map((r) => r.clientOrderId))}::text[])
            and exists (select 1 from ${operations} o where o.client_order_id = i.client_order_id)`);
        this.counted('fills', rows.length, inserted);
      }
      let closedAccounts: string[] = [];
      if (closes.length > 0) {
        const v = unnestRows(
          operations,
          ['positionId', 'closedAt', 'closePrice', 'closeReason', 'profitCents'],
          closes.map(({ positionId, closure }) => ({
            positionId,
            closedAt: new Date(closure.closedAt),
            closePrice: closure.closePrice,
            closeReason: closure.closeReason,
            profitCents: closure.profitCents,
          })),
        );
        const closed = await tx.execute(sql`
          update ${operations} as o
          set ${v.set(['closedAt', 'closePrice', 'closeReason', 'profitCents'])}
          from ${v.source}
          where o.position_id = v.position_id and o.close_reason = 'open'
            and ${this.fence(sql`o.account_id`)}
          returning o.account_id`);
        this.counted('closures', closes.length, closed);
        closedAccounts = rowsOf<{ account_id: string }>(closed).map((row) => row.account_id);
      }
      if (days.length > 0) {
        const v = unnestRows(dayStarts, ['accountId', 'day', 'equityCents'], days);
        await tx.execute(sql`
          insert into ${dayStarts} (${v.columns})
          select * from ${v.source}
          on conflict do nothing`);
      }
      return closedAccounts;
    });
  }

  /** One statement whatever the wave's size: a parameter per column (see pgArrayLiteral). */
  async saveIntents(intents: readonly OrderIntent[]): Promise<void> {
    if (intents.length === 0) return;
    const v = unnestRows(
      orderIntents,
      [
        'clientOrderId',
        'accountId',
        'symbol',
        'category',
        'side',
        'units',
        'takeProfit',
        'stopLoss',
        'decidedAt',
        'decisionBid',
        'decisionAsk',
        'probability',
        'breakEvenProbability',
        'estimatedMarginCents',
        'equityAtEntryCents',
        'freeMarginAtEntryCents',
        'status',
        'rejectReason',
      ],
      intents.map((intent) => ({ ...intent, decidedAt: new Date(intent.decidedAt) })),
    );
    const inserted = await this.db.execute(sql`
      insert into ${orderIntents} (${v.columns})
      select * from ${v.source}
      where ${this.fence(sql`v.account_id`)}
      on conflict do nothing
      returning client_order_id`);
    if (!this.scope.fence) return;
    const written = new Set(
      rowsOf<{ client_order_id: string }>(inserted).map((row) => row.client_order_id),
    );
    const refused = intents.filter((intent) => !written.has(intent.clientOrderId));
    for (const intent of refused) this.refusedIntents.add(intent.clientOrderId);
    if (refused.length > 0) this.scope.fence.refused('intents', refused.length);
  }

  updateIntentStatus(
    clientOrderId: string,
    status: IntentStatus,
    rejectReason?: string,
    rejectBrokerCode?: string,
  ): Promise<void> {
    return this.enqueue({
      kind: 'status',
      clientOrderId,
      status,
      rejectReason: rejectReason ?? null,
      rejectBrokerCode: rejectBrokerCode ?? null,
    });
  }

  recordFill(trade: TradeRecord): Promise<void> {
    return this.enqueue({ kind: 'fill', trade });
  }

  closeTrade(positionId: string, closure: TradeClosure): Promise<void> {
    return this.enqueue({ kind: 'close', positionId, closure });
  }

  recordDayStart(accountId: string, day: number, equityCents: number): Promise<void> {
    return this.enqueue({ kind: 'day', accountId, day, equityCents });
  }

  async dayStarts(day: number): Promise<ReadonlyMap<string, number>> {
    const rows = await this.db
      .select({ accountId: dayStarts.accountId, equityCents: dayStarts.equityCents })
      .from(dayStarts)
      .where(and(eq(dayStarts.day, day), this.accountFilter(dayStarts.accountId)));
    return new Map(rows.map((row) => [row.accountId, row.equityCents]));
  }

  pendingIntents(): Promise<readonly OrderIntent[]> {
    return this.intentsWhere(
      and(eq(orderIntents.status, 'pending'), this.accountFilter(orderIntents.accountId)),
    );
  }

  openTrades(): Promise<readonly TradeRecord[]> {
    return this.tradesWhere(
      and(eq(operations.closeReason, 'open'), this.accountFilter(operations.accountId)),
    );
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
