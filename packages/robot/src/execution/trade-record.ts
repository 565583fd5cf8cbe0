import type { Category } from '@tradebot/contract';
import type { CloseReason, Side } from '../broker/broker-adapter';
import type { Cents } from '../money/minor-units';

/** Status of an order intent, recorded before the order is sent (decision 023). */
export type IntentStatus = 'pending' | 'filled' | 'rejected' | 'expired';

export interface OrderIntent {
  readonly clientOrderId: string;
  readonly accountId: string;
  readonly symbol: string;
  readonly category: Category;
  readonly side: Side;
  readonly units: number;
  readonly takeProfit: number;
  readonly stopLoss: number;
  /** Time of the tick the decision was made on. */
  readonly decidedAt: number;
  readonly decisionBid: number;
  readonly decisionAsk: number;
  readonly probability: number;
  readonly breakEvenProbability: number;
  readonly estimatedMarginCents: Cents;
  readonly equityAtEntryCents: Cents;
  readonly freeMarginAtEntryCents: Cents;
  readonly status: IntentStatus;
  readonly rejectReason?: string;
}

/** One operation, open or closed, with the figures the simulation and the dashboard need. */
export interface TradeRecord {
  readonly positionId: string;
  readonly clientOrderId: string;
  readonly accountId: string;
  readonly symbol: string;
  readonly category: Category;
  readonly side: Side;
  readonly units: number;
  readonly openedAt: number;
  readonly entryBid: number;
  readonly entryAsk: number;
  readonly entryPrice: number;
  readonly pipSize: number;
  readonly takeProfit: number;
  readonly stopLoss: number;
  readonly probability: number;
  readonly breakEvenProbability: number;
  readonly marginCents: Cents;
  readonly equityAtEntryCents: Cents;
  readonly freeMarginAtEntryCents: Cents;
  readonly usedMarginAfterEntryCents: Cents;
  readonly closedAt: number | null;
  readonly closePrice: number | null;
  readonly closeReason: CloseReason | 'open';
  readonly profitCents: Cents | null;
}
