import type { Category } from '@tradebot/contract';
import type { CloseReason, Side, TradeRecord } from '@tradebot/robot';
import type { operations } from './schema';

/**
 * A stored operation, read by the robot's execution store (robot/worker/) and by the
 * repositories that page and export operations: one mapping of the `operations` table, here so
 * that neither side imports the other (decision 165).
 */
type OperationRow = typeof operations.$inferSelect;

/** A stored operation as the robot books it: the same fields, instants as epoch ms. */
export function tradeOf(row: OperationRow): TradeRecord {
  const { openedAt, closedAt, category, side, closeReason, ...same } = row;
  return {
    ...same,
    category: category as Category,
    side: side as Side,
    openedAt: openedAt.getTime(),
    closedAt: closedAt === null ? null : closedAt.getTime(),
    closeReason: closeReason as CloseReason | 'open',
  };
}
