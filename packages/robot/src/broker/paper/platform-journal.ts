import type { Cents } from '../../money/minor-units';
import type {
  OrderFilledReport,
  OrderRejectedReport,
  PositionClosedReport,
} from '../broker-adapter';

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
