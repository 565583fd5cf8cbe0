import type { Category } from '@tradebot/contract';
import type { CloseReason, Side } from '../broker/broker-adapter';
import type { TradeRecord } from '../execution/trade-record';
import { centsToDollars, type Cents } from '../money/minor-units';

/** One line of the simulation's JSONL output; money in account currency (USD) units. */
export interface OperationLine {
  readonly account_id: string;
  readonly instrument: string;
  readonly category: Category;
  readonly side: Side;
  readonly units: number;
  readonly opened_at: string;
  readonly closed_at: string | null;
  readonly entry_bid: number;
  readonly entry_ask: number;
  readonly pip_size: number;
  readonly tp: number;
  readonly sl: number;
  readonly margin: number;
  readonly equity_at_entry: number;
  readonly free_margin_at_entry: number;
  readonly used_margin_after_entry: number;
  readonly close_price: number | null;
  readonly close_reason: CloseReason | 'open';
  /** Realised profit; for an open operation, its unrealised profit at the end of the run. */
  readonly profit: number;
  readonly probability: number;
  readonly break_even_probability: number;
}

export function toOperationLine(trade: TradeRecord, openMark: Cents | undefined): OperationLine {
  return {
    account_id: trade.accountId,
    instrument: trade.symbol,
    category: trade.category,
    side: trade.side,
    units: trade.units,
    opened_at: new Date(trade.openedAt).toISOString(),
    closed_at: trade.closedAt === null ? null : new Date(trade.closedAt).toISOString(),
    entry_bid: trade.entryBid,
    entry_ask: trade.entryAsk,
    pip_size: trade.pipSize,
    tp: trade.takeProfit,
    sl: trade.stopLoss,
    margin: centsToDollars(trade.marginCents),
    equity_at_entry: centsToDollars(trade.equityAtEntryCents),
    free_margin_at_entry: centsToDollars(trade.freeMarginAtEntryCents),
    used_margin_after_entry: centsToDollars(trade.usedMarginAfterEntryCents),
    close_price: trade.closePrice,
    close_reason: trade.closeReason,
    profit: centsToDollars(trade.profitCents ?? openMark ?? 0),
    probability: Number(trade.probability.toFixed(4)),
    break_even_probability: Number(trade.breakEvenProbability.toFixed(4)),
  };
}
