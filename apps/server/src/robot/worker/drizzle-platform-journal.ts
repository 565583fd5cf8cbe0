import type {
  BrokerRejectReason,
  CloseReason,
  OrderFilledReport,
  OrderRejectedReport,
  PaperBrokerState,
  PlatformEntry,
  PlatformJournal,
  PositionClosedReport,
  Side,
  Tick,
} from '@tradebot/robot';
import { and, eq, gte, isNotNull, isNull, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { pgArrayLiteral, unnestRows } from '../../db/pg-array';
import { rowsOf } from '../../db/migrate';
import { marketQuotes, platformAccounts, platformDeposits, platformOrders } from '../../db/schema';
import { fenced, type WriteFence } from './write-fence';

type EntryOf<K extends PlatformEntry['kind']> = Extract<PlatformEntry, { kind: K }>;
type OrderRecord = PaperBrokerState['orders'][number];
type OrderRow = typeof platformOrders.$inferSelect;

type OrderInsert = typeof platformOrders.$inferInsert;

/** The settled orders of one write, in one statement: a parameter per column (pg-array.ts). */
async function insertOrders(
  db: Db,
  rows: readonly OrderInsert[],
  fence: WriteFence | undefined,
): Promise<void> {
  const v = unnestRows(
    platformOrders,
    [
      'clientOrderId',
      'accountId',
      'outcome',
      'settledAt',
      'rejectReason',
      'positionId',
      'positionNumber',
      'symbol',
      'side',
      'units',
      'price',
      'bid',
      'ask',
      'takeProfit',
      'stopLoss',
      'marginCents',
    ],
    rows,
  );
  const inserted = await db.execute(sql`
    insert into ${platformOrders} (${v.columns})
    select * from ${v.source}
    where ${fenced(fence, sql`v.account_id`)}
    on conflict do nothing
    returning client_order_id`);
  const missing = rows.length - rowsOf(inserted).length;
  if (fence && missing > 0) fence.refused('platform orders', missing);
}

function positionNumber(positionId: string): number | null {
  const match = /^P(\d+)$/.exec(positionId);
  return match?.[1] ? Number(match[1]) : null;
}

function orderRow(
  outcome: OrderFilledReport | OrderRejectedReport,
): typeof platformOrders.$inferInsert {
  if (outcome.kind === 'rejected') {
    return {
      clientOrderId: outcome.clientOrderId,
      accountId: outcome.accountId,
      outcome: 'rejected',
      settledAt: new Date(outcome.time),
      rejectReason: outcome.reason,
    };
  }
  return {
    clientOrderId: outcome.clientOrderId,
    accountId: outcome.accountId,
    outcome: 'filled',
    settledAt: new Date(outcome.time),
    positionId: outcome.positionId,
    positionNumber: positionNumber(outcome.positionId),
    symbol: outcome.symbol,
    side: outcome.side,
    units: outcome.units,
    price: outcome.price,
    bid: outcome.bid,
    ask: outcome.ask,
    takeProfit: outcome.takeProfit,
    stopLoss: outcome.stopLoss,
    marginCents: outcome.marginCents,
  };
}

/** Postgres and PGlite both answer `{ rows }` for a raw statement. */
interface BookedRow {
  account_id: string;
  cents: string | number;
}

/**
 * The built-in platform's journal (robot PlatformJournal port) on the server's database. Each
 * `record` is one transaction: every entry of the write lands, and a closure's profit reaches
 * the account's balance in the same transaction as the closure, or nothing does.
 *
 * Balances move by increments booked only for rows this write actually inserted or closed, so
 * replaying a write (a retry after a crash) books nothing twice, and
 * balance = deposits + realised profit holds by construction.
 */
export class DrizzlePlatformJournal implements PlatformJournal {
  constructor(
    private readonly db: Db,
    /** With account leases: orders and closures land only while the lease's token holds. */
    private readonly fence?: WriteFence,
  ) {}

  async record(entries: readonly PlatformEntry[]): Promise<void> {
    if (entries.length === 0) return;
    const opened: EntryOf<'account-opened'>[] = [];
    const deposited: EntryOf<'deposited'>[] = [];
    const settled: EntryOf<'order-settled'>[] = [];
    const closed: EntryOf<'position-closed'>[] = [];
    for (const entry of entries) {
      switch (entry.kind) {
        case 'account-opened':
          opened.push(entry);
          break;
        case 'deposited':
          deposited.push(entry);
          break;
        case 'order-settled':
          settled.push(entry);
          break;
        case 'position-closed':
          closed.push(entry);
          break;
      }
    }
    // Entries only depend on earlier kinds (a deposit on its account, a closure on its fill), so
    // applying them kind by kind keeps every dependency in order.
    await this.db.transaction(async (tx) => {
      if (opened.length > 0) {
        await tx
          .insert(platformAccounts)
          .values(opened.map((e) => ({ accountId: e.accountId, openedAt: new Date(e.at) })))
          .onConflictDoNothing();
      }
      const deposits = new Map<string, number>();
      if (deposited.length > 0 && this.fence) {
        // With leases, a deposit lands where no process holds the account now (an account just
        // opened, before any claim) or this run holds it: a process whose lease moved on would
        // book money the holder's platform never sees (decision 105, addendum).
        const v = unnestRows(
          platformDeposits,
          ['accountId', 'depositedAt', 'cents', 'balanceAfterCents', 'opening'],
          deposited.map((e) => ({
            accountId: e.accountId,
            depositedAt: new Date(e.at),
            cents: e.cents,
            balanceAfterCents: e.balanceCents,
            opening: e.opening === true,
          })),
        );
        // The fence's refusals are counted apart from deposits already booked (`on conflict do
        // nothing`: a replay, or the one opening deposit another process wrote first, decision
        // 110), which are no news for an operator.
        const result = await tx.execute(sql`
          with v as (select * from ${v.source}),
          allowed as (
            select v.* from v
            where not exists (select 1 from robot_leases l
                where l.account_id = v.account_id and l.owner <> '' and l.lease_until > now())
              or ${fenced(this.fence, sql`v.account_id`)}
          ),
          booked as (
            insert into ${platformDeposits} (${v.columns})
            select * from allowed
            on conflict do nothing
            returning account_id, cents
          )
          select account_id, cents, null::int8 as allowed from booked
          union all
          select null, null, count(*) from allowed`);
        const rows = rowsOf<BookedRow & { allowed: string | number | null }>(result);
        const allowed = Number(rows.find((row) => row.allowed !== null)?.allowed ?? 0);
        const booked = rows.filter((row) => row.allowed === null);
        if (allowed < deposited.length) {
          this.fence.refused('platform deposits', deposited.length - allowed);
        }
        for (const row of booked) {
          deposits.set(row.account_id, (deposits.get(row.account_id) ?? 0) + Number(row.cents));
        }
      } else if (deposited.length > 0) {
        const booked = await tx
          .insert(platformDeposits)
          .values(
            deposited.map((e) => ({
              accountId: e.accountId,
              depositedAt: new Date(e.at),
              cents: e.cents,
              balanceAfterCents: e.balanceCents,
              opening: e.opening === true,
            })),
          )
          .onConflictDoNothing()
          .returning({ accountId: platformDeposits.accountId, cents: platformDeposits.cents });
        for (const row of booked) {
          deposits.set(row.accountId, (deposits.get(row.accountId) ?? 0) + row.cents);
        }
      }
      if (settled.length > 0)
        await insertOrders(
          tx,
          settled.map((entry) => orderRow(entry.outcome)),
          this.fence,
        );
      const profits = new Map<string, number>();
      if (closed.length > 0) {
        const reports = closed.map((entry) => entry.report);
        const v = unnestRows(
          platformOrders,
          ['clientOrderId', 'closedAt', 'closePrice', 'closeReason', 'closeProfitCents'],
          reports.map((r) => ({
            clientOrderId: r.clientOrderId,
            closedAt: new Date(r.time),
            closePrice: r.closePrice,
            closeReason: r.reason,
            closeProfitCents: r.profitCents,
          })),
        );
        const result = await tx.execute(sql`
          update ${platformOrders} as o
          set ${v.set(['closedAt', 'closePrice', 'closeReason', 'closeProfitCents'])}
          from ${v.source}
          where o.client_order_id = v.client_order_id and o.outcome = 'filled' and o.closed_at is null
            and ${fenced(this.fence, sql`o.account_id`)}
          returning o.account_id, v.close_profit_cents as cents`);
        const missing = reports.length - rowsOf(result).length;
        if (this.fence && missing > 0) this.fence.refused('platform closures', missing);
        for (const row of rowsOf<BookedRow>(result)) {
          profits.set(row.account_id, (profits.get(row.account_id) ?? 0) + Number(row.cents));
        }
      }
      for (const accountId of new Set([...deposits.keys(), ...profits.keys()])) {
        const depositCents = deposits.get(accountId) ?? 0;
        const profitCents = profits.get(accountId) ?? 0;
        await tx
          .update(platformAccounts)
          .set({
            depositsCents: sql`${platformAccounts.depositsCents} + ${depositCents}`,
            realisedProfitCents: sql`${platformAccounts.realisedProfitCents} + ${profitCents}`,
            balanceCents: sql`${platformAccounts.balanceCents} + ${depositCents + profitCents}`,
          })
          .where(eq(platformAccounts.accountId, accountId));
      }
    });
  }
}

/** A column a filled order always has: a null there is a broken row, not a default. */
function present<T>(value: T | null, column: string, row: OrderRow): T {
  if (value === null) throw new Error(`platform order ${row.clientOrderId} has no ${column}`);
  return value;
}

function outcomeOf(row: OrderRow): OrderFilledReport | OrderRejectedReport {
  if (row.outcome === 'rejected') {
    return {
      kind: 'rejected',
      clientOrderId: row.clientOrderId,
      accountId: row.accountId,
      reason: present(row.rejectReason, 'reject_reason', row) as BrokerRejectReason,
      time: row.settledAt.getTime(),
    };
  }
  return {
    kind: 'filled',
    clientOrderId: row.clientOrderId,
    accountId: row.accountId,
    positionId: present(row.positionId, 'position_id', row),
    symbol: present(row.symbol, 'symbol', row),
    side: present(row.side, 'side', row) as Side,
    units: present(row.units, 'units', row),
    price: present(row.price, 'price', row),
    bid: present(row.bid, 'bid', row),
    ask: present(row.ask, 'ask', row),
    takeProfit: present(row.takeProfit, 'take_profit', row),
    stopLoss: present(row.stopLoss, 'stop_loss', row),
    marginCents: present(row.marginCents, 'margin_cents', row),
    time: row.settledAt.getTime(),
  };
}

function closureOf(row: OrderRow): PositionClosedReport | undefined {
  if (row.closedAt === null || row.outcome !== 'filled') return undefined;
  return {
    kind: 'position-closed',
    clientOrderId: row.clientOrderId,
    accountId: row.accountId,
    positionId: present(row.positionId, 'position_id', row),
    symbol: present(row.symbol, 'symbol', row),
    closePrice: present(row.closePrice, 'close_price', row),
    reason: present(row.closeReason, 'close_reason', row) as CloseReason,
    profitCents: present(row.closeProfitCents, 'close_profit_cents', row),
    time: row.closedAt.getTime(),
  };
}

/**
 * Rebuilds the platform's state from its tables: the accounts with their balances, the open
 * positions, and the orders settled since `settledSince` (what reconciliation after a crash
 * may ask about; older history stays in the database, as a real broker keeps it on its side).
 */
export async function loadPlatformState(
  db: Db,
  options: {
    settledSince: number;
    /** Only these accounts (a robot holding leases, decision 092); every account otherwise. */
    accounts?: readonly string[];
    /** The first position number of this run (a block of its own, decision 092). */
    firstPositionNumber?: number;
  },
): Promise<PaperBrokerState> {
  const only = options.accounts;
  const ofAccounts = (
    column: typeof platformAccounts.accountId | typeof platformOrders.accountId,
  ) => (only === undefined ? undefined : sql`${column} = any(${pgArrayLiteral(only)}::uuid[])`);
  const [accounts, orders, quotes, numbers] = await Promise.all([
    db
      .select()
      .from(platformAccounts)
      .where(ofAccounts(platformAccounts.accountId))
      .orderBy(platformAccounts.openedAt, platformAccounts.accountId),
    db
      .select()
      .from(platformOrders)
      .where(
        and(
          ofAccounts(platformOrders.accountId),
          or(
            and(eq(platformOrders.outcome, 'filled'), isNull(platformOrders.closedAt)),
            gte(platformOrders.settledAt, new Date(options.settledSince)),
            and(
              isNotNull(platformOrders.closedAt),
              gte(platformOrders.closedAt, new Date(options.settledSince)),
            ),
          ),
        ),
      )
      .orderBy(
        platformOrders.settledAt,
        platformOrders.positionNumber,
        platformOrders.clientOrderId,
      ),
    loadMarketQuotes(db),
    db
      .select({ last: sql<string | number | null>`max(${platformOrders.positionNumber})` })
      .from(platformOrders),
  ]);
  return {
    // A run with a block of its own numbers from it: another process's newer block may already
    // hold the largest number (decision 092).
    nextPositionNumber: options.firstPositionNumber ?? Number(numbers[0]?.last ?? 0) + 1,
    accounts: accounts.map((row) => ({
      accountId: row.accountId,
      depositsCents: row.depositsCents,
      realisedProfitCents: row.realisedProfitCents,
      balanceCents: row.balanceCents,
    })),
    orders: orders.map((row): OrderRecord => ({ outcome: outcomeOf(row), closed: closureOf(row) })),
    lastTicks: quotes,
  };
}

/** The market's last quotes, as saved by `saveMarketQuotes`. */
export async function loadMarketQuotes(db: Db): Promise<Tick[]> {
  const rows = await db.select().from(marketQuotes).orderBy(marketQuotes.symbol);
  return rows.map((row) => ({
    symbol: row.symbol,
    time: row.quotedAt.getTime(),
    bid: row.bid,
    ask: row.ask,
  }));
}

/** Upserts the latest quote of each instrument; an older quote never replaces a newer one. */
export async function saveMarketQuotes(db: Db, ticks: readonly Tick[]): Promise<void> {
  if (ticks.length === 0) return;
  await db
    .insert(marketQuotes)
    .values(
      ticks.map((tick) => ({
        symbol: tick.symbol,
        quotedAt: new Date(tick.time),
        bid: tick.bid,
        ask: tick.ask,
      })),
    )
    .onConflictDoUpdate({
      target: marketQuotes.symbol,
      set: {
        quotedAt: sql`excluded.quoted_at`,
        bid: sql`excluded.bid`,
        ask: sql`excluded.ask`,
      },
      setWhere: sql`excluded.quoted_at > ${marketQuotes.quotedAt}`,
    });
}

/** The latest time the robot or its market recorded (epoch ms), 0 on a fresh database. */
export async function latestRobotTime(db: Db): Promise<number> {
  const result = await db.execute(sql`
    select greatest(
      (select max(quoted_at) from market_quotes),
      (select max(decided_at) from order_intents),
      (select max(settled_at) from platform_orders),
      (select max(closed_at) from platform_orders)
    ) as latest`);
  const latest = rowsOf<{ latest: Date | string | null }>(result)[0]?.latest;
  return latest ? new Date(latest).getTime() : 0;
}
