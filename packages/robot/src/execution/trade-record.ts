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
 * An intent decided by this process's fan-out. Its per-account figures are its own and the
 * rest is read from the signal's shared decision, so an order allocates one small object
 * instead of a copy of every figure (decision 025). Its shared fields are getters, which a
 * spread or `structuredClone` does not copy: use `plainIntent` for a copy.
 */
export class PendingIntent implements OrderIntent {
  readonly status = 'pending';

  constructor(
    readonly clientOrderId: string,
    readonly accountId: string,
    private readonly decision: SignalDecision,
    readonly units: number,
    readonly estimatedMarginCents: Cents,
    readonly equityAtEntryCents: Cents,
    readonly freeMarginAtEntryCents: Cents,
  ) {}

  get symbol(): string {
    return this.decision.symbol;
  }
  get category(): Category {
    return this.decision.category;
  }
  get side(): Side {
    return this.decision.side;
  }
  get takeProfit(): number {
    return this.decision.takeProfit;
  }
  get stopLoss(): number {
    return this.decision.stopLoss;
  }
  get decidedAt(): number {
    return this.decision.decidedAt;
  }
  get decisionBid(): number {
    return this.decision.decisionBid;
  }
  get decisionAsk(): number {
    return this.decision.decisionAsk;
  }
  get probability(): number {
    return this.decision.probability;
  }
  get breakEvenProbability(): number {
    return this.decision.breakEvenProbability;
  }
}

/** A plain-object copy of any intent, with a new status if given. */
export function plainIntent(
  intent: OrderIntent,
  status: IntentStatus = intent.status,
  rejectReason: string | undefined = intent.rejectReason,
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
}
