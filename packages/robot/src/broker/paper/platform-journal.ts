import type { Cents } from '../../money/minor-units';
import type {
  OrderFilledReport,
  OrderRejectedReport,
  PositionClosedReport,
} from '../broker-adapter';
import type { PaperAccountState, PaperBrokerState, PaperOrderRecord } from './paper-broker';

/**
 * What the built-in trading platform records, in the order it happened. Every entry is plain
 * data: the server writes it to its database, and a restored platform is rebuilt from it.
 */
export type PlatformEntry =
  | {
      readonly kind: 'account-opened';
      readonly accountId: string;
      readonly at: number;
    }
  | {
      readonly kind: 'deposited';
      readonly accountId: string;
      readonly cents: Cents;
      /** The account's balance once this deposit is in. */
      readonly balanceCents: Cents;
      readonly at: number;
      /**
       * The first deposit, made with the opening: an account has one, however many processes
       * opened it (a journal books a second one as nothing).
       */
      readonly opening?: true;
    }
  | {
      /** An order's outcome: a fill opens a position, a rejection settles the order. */
      readonly kind: 'order-settled';
      readonly outcome: OrderFilledReport | OrderRejectedReport;
    }
  | {
      readonly kind: 'position-closed';
      readonly report: PositionClosedReport;
      /** The account's balance once this profit or loss is booked. */
      readonly balanceCents: Cents;
    };

/**
 * Port: the platform's durable ledger (the server implements it on its database). A real
 * broker reports only what it has recorded, and so does the paper broker with a journal: an
 * execution report goes out only after the write holding its entry has landed. Writes are
 * called one at a time, in order, each with every entry gathered since the previous one.
 */
export interface PlatformJournal {
  record(entries: readonly PlatformEntry[]): Promise<void>;
}

/**
 * The platform's state after `entries`, applied in order to `state`: the semantics a database
 * adapter must reproduce (an account row per account, an order row per order with its closure).
 * Entries apply once each, in order; an order or a closure already present is kept as it is
 * (both are keyed by client order id). The last quotes are not journalled; they stay as `state`
 * has them.
 */
export function foldPlatformEntries(
  state: PaperBrokerState,
  entries: readonly PlatformEntry[],
): PaperBrokerState {
  const accounts = new Map<string, PaperAccountState>(
    state.accounts.map((account) => [account.accountId, account]),
  );
  const orders = new Map<string, PaperOrderRecord>(
    state.orders.map((order) => [order.outcome.clientOrderId, order]),
  );
  for (const entry of entries) {
    switch (entry.kind) {
      case 'account-opened':
        if (!accounts.has(entry.accountId)) {
          accounts.set(entry.accountId, {
            accountId: entry.accountId,
            depositsCents: 0,
            realisedProfitCents: 0,
            balanceCents: 0,
          });
        }
        break;
      case 'deposited': {
        const account = requireAccount(accounts, entry.accountId);
        accounts.set(entry.accountId, {
          ...account,
          depositsCents: account.depositsCents + entry.cents,
          balanceCents: entry.balanceCents,
        });
        break;
      }
      case 'order-settled':
        if (!orders.has(entry.outcome.clientOrderId)) {
          orders.set(entry.outcome.clientOrderId, { outcome: entry.outcome, closed: undefined });
        }
        break;
      case 'position-closed': {
        const { report } = entry;
        const order = orders.get(report.clientOrderId);
        if (!order || order.closed) break;
        orders.set(report.clientOrderId, { ...order, closed: report });
        const account = requireAccount(accounts, report.accountId);
        accounts.set(report.accountId, {
          ...account,
          realisedProfitCents: account.realisedProfitCents + report.profitCents,
          balanceCents: entry.balanceCents,
        });
        break;
      }
    }
  }
  return {
    ...(state.nextPositionNumber === undefined
      ? {}
      : { nextPositionNumber: state.nextPositionNumber }),
    accounts: [...accounts.values()],
    orders: [...orders.values()],
    lastTicks: state.lastTicks,
  };
}

function requireAccount(
  accounts: ReadonlyMap<string, PaperAccountState>,
  accountId: string,
): PaperAccountState {
  const account = accounts.get(accountId);
  if (!account) throw new Error(`Journal entry for unknown account ${accountId}`);
  return account;
}
