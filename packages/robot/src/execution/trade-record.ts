import type { Category } from '@tradebot/contract';
import type { CloseReason, OrderRequest, Side } from '../broker/broker-adapter';
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
  /** A real broker's own error code for a rejection, when it gave one. */
  readonly rejectBrokerCode?: string;
}

/** What all the orders of one signal share: its market and model figures. */
export type SignalDecision = Pick<
  OrderIntent,
  | 'symbol'
  | 'category'
  | 'side'
  | 'takeProfit'
  | 'stopLoss'
  | 'decidedAt'
  | 'decisionBid'
  | 'decisionAsk'
  | 'probability'
  | 'breakEvenProbability'
>;

/**
 * An intent decided by this process's fan-out, as the plain object every port receives: the
 * store writes it as it is and a JSON encoding keeps every field. One object per order, with
 * its fields in one fixed order so every intent shares a shape (decision 041 measured this
 * against a getter-backed class plus a copy at the port).
 */
export function decidedIntent(
  clientOrderId: string,
  accountId: string,
  decision: SignalDecision,
  units: number,
  estimatedMarginCents: Cents,
  equityAtEntryCents: Cents,
  freeMarginAtEntryCents: Cents,
): OrderIntent {
  return {
    clientOrderId,
    accountId,
    symbol: decision.symbol,
    category: decision.category,
    side: decision.side,
    units,
    takeProfit: decision.takeProfit,
    stopLoss: decision.stopLoss,
    decidedAt: decision.decidedAt,
    decisionBid: decision.decisionBid,
    decisionAsk: decision.decisionAsk,
    probability: decision.probability,
    breakEvenProbability: decision.breakEvenProbability,
    estimatedMarginCents,
    equityAtEntryCents,
    freeMarginAtEntryCents,
    status: 'pending',
  };
}

/** The order the broker receives: exactly the seven fields of an `OrderRequest`, nothing more. */
export function orderRequestOf(intent: OrderIntent): OrderRequest {
  return {
    clientOrderId: intent.clientOrderId,
    accountId: intent.accountId,
    symbol: intent.symbol,
    side: intent.side,
    units: intent.units,
    takeProfit: intent.takeProfit,
    stopLoss: intent.stopLoss,
  };
}

/** A plain-object copy of any intent, with a new status if given. */
export function plainIntent(
  intent: OrderIntent,
  status: IntentStatus = intent.status,
  rejectReason: string | undefined = intent.rejectReason,
  rejectBrokerCode: string | undefined = intent.rejectBrokerCode,
): OrderIntent {
  return {
    clientOrderId: intent.clientOrderId,
    accountId: intent.accountId,
    symbol: intent.symbol,
    category: intent.category,
    side: intent.side,
    units: intent.units,
    takeProfit: intent.takeProfit,
    stopLoss: intent.stopLoss,
    decidedAt: intent.decidedAt,
    decisionBid: intent.decisionBid,
    decisionAsk: intent.decisionAsk,
    probability: intent.probability,
    breakEvenProbability: intent.breakEvenProbability,
    estimatedMarginCents: intent.estimatedMarginCents,
    equityAtEntryCents: intent.equityAtEntryCents,
    freeMarginAtEntryCents: intent.freeMarginAtEntryCents,
    status,
    ...(rejectReason === undefined ? {} : { rejectReason }),
    ...(rejectBrokerCode === undefined ? {} : { rejectBrokerCode }),
  };
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
  /**
   * The currency of its amounts (ISO 4217) as the broker said the account's when it filled; null
   * where it is not known (decision 103).
   */
  readonly currency: string | null;
}
