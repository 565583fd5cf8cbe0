import type { Cents } from '../money/minor-units';
import type { Unsubscribe } from '../market-data/tick';

export type Side = 'buy' | 'sale';
/**
 * Why a position closed: its take-profit, its stop-loss, a margin close-out, the kill switch, or
 * the user closing that one operation (decision 152).
 */
export type CloseReason = 'tp' | 'sl' | 'closeout' | 'kill' | 'manual';

export interface OrderRequest {
  /** Deterministic, so that a resend after a crash is recognised as the same order. */
  readonly clientOrderId: string;
  readonly accountId: string;
  readonly symbol: string;
  readonly side: Side;
  readonly units: number;
  readonly takeProfit: number;
  readonly stopLoss: number;
}

export type BrokerRejectReason =
  | 'UNKNOWN_ACCOUNT'
  | 'UNKNOWN_INSTRUMENT'
  | 'MARKET_CLOSED'
  | 'NO_PRICE'
  | 'INVALID_STOPS'
  | 'INVALID_SIZE'
  | 'INSUFFICIENT_MARGIN'
  /** A real broker's grant expired or was revoked: the user must authorise the product again. */
  | 'NOT_AUTHORISED'
  /** A real broker refused the order for a reason of its own (`brokerCode` names it). */
  | 'BROKER_REJECTED';

export interface OrderFilledReport {
  readonly kind: 'filled';
  readonly clientOrderId: string;
  readonly accountId: string;
  readonly positionId: string;
  readonly symbol: string;
  readonly side: Side;
  readonly units: number;
  /** The ask for a buy, the bid for a sale. */
  readonly price: number;
  readonly bid: number;
  readonly ask: number;
  readonly takeProfit: number;
  readonly stopLoss: number;
  readonly marginCents: Cents;
  readonly time: number;
}

export interface OrderRejectedReport {
  readonly kind: 'rejected';
  readonly clientOrderId: string;
  readonly accountId: string;
  readonly reason: BrokerRejectReason;
  /** A real broker's own error code, when it gave one. */
  readonly brokerCode?: string;
  readonly time: number;
}

export interface PositionClosedReport {
  readonly kind: 'position-closed';
  readonly clientOrderId: string;
  readonly accountId: string;
  readonly positionId: string;
  readonly symbol: string;
  readonly closePrice: number;
  readonly reason: CloseReason;
  /** Realised profit booked to the balance, in cents, after negative-balance protection. */
  readonly profitCents: Cents;
  readonly time: number;
}

export type ExecutionReport = OrderFilledReport | OrderRejectedReport | PositionClosedReport;

export interface OpenPositionView {
  readonly positionId: string;
  readonly clientOrderId: string;
  readonly symbol: string;
  readonly side: Side;
  readonly units: number;
  readonly marginCents: Cents;
  readonly unrealisedProfitCents: Cents;
}

/**
 * Account figures in hundredths of the account's currency: USD cents on the built-in platform
 * (ARCHITECTURE.md, "Money and prices"), a broker account's own deposit currency otherwise
 * (decision 097).
 */
export interface AccountState {
  readonly accountId: string;
  /** The account's currency, ISO 4217; absent means USD. */
  readonly currency?: string;
  readonly depositsCents: Cents;
  readonly realisedProfitCents: Cents;
  readonly balanceCents: Cents;
  readonly equityCents: Cents;
  readonly usedMarginCents: Cents;
  readonly freeMarginCents: Cents;
  readonly openPositions: number;
}

/**
 * The currency an account's amounts are in (decision 103): USD where the broker names none (the
 * built-in platform), null for an account the broker does not know or whose currency it has not
 * said yet.
 */
export function accountCurrency(account: AccountState | undefined): string | null {
  if (account === undefined) return null;
  if (account.currency === undefined) return 'USD';
  return account.currency === '' ? null : account.currency;
}

/** The figures the risk gate reads on every evaluation; a snapshot (decision 099). */
export type AccountFigures = Pick<
  AccountState,
  'equityCents' | 'usedMarginCents' | 'freeMarginCents'
>;

export type OrderQueryResult =
  | { readonly status: 'unknown' }
  | { readonly status: 'rejected'; readonly rejection: OrderRejectedReport }
  | {
      readonly status: 'filled';
      readonly fill: OrderFilledReport;
      readonly closed: PositionClosedReport | undefined;
    };

/**
 * Port: the broker where orders execute (nautilus' ExecutionClient). The paper broker is the
 * embedded default; a real broker's adapter implements the same calls.
 *
 * Results arrive as execution reports, possibly more than once and possibly during the call
 * that caused them; the engine applies each once.
 */
export interface BrokerAdapter {
  submitOrder(order: OrderRequest): void;
  closePosition(accountId: string, positionId: string, reason: CloseReason): void;
  onReport(listener: (report: ExecutionReport) => void): Unsubscribe;
  /** A snapshot of the account's figures, safe to keep. */
  account(accountId: string): AccountState | undefined;
  /**
   * The account's latest figures, or undefined for an unknown account: a new plain object on
   * every call, which the caller owns and may keep (it does not move with the account). An
   * adapter keeps its own representation to itself and never hands it out (decision 099). The
   * risk gate reads this on every evaluation that passes its cheap checks, so it must be cheap:
   * it must not block or touch the network (decision 025).
   */
  accountFigures(accountId: string): AccountFigures | undefined;
  openPositions(accountId: string): readonly OpenPositionView[];
  /** For reconciliation after a restart: what became of an order the engine sent. */
  queryOrder(clientOrderId: string): Promise<OrderQueryResult>;
  /**
   * A broker whose accounts may hold another currency than USD (decision 097): the value, in the
   * account's currency, of one unit of the symbol's quote currency at the broker's own prices,
   * or undefined while it cannot say (no conversion yet: the engine then sends nothing). Absent:
   * the account is in USD and the engine converts with the catalogue. Plain and non-blocking,
   * like `accountFigures`.
   */
  quoteToAccount?(accountId: string, symbol: string): number | undefined;
  /**
   * The account's own leverage at the broker (100 for 1:100), or undefined while it has not
   * said. The engine sizes with the lower of it and the catalogue's: an account with less
   * leverage than the catalogue's gets operations of 10% of its capital in margin, not several
   * times that, and one with more is never sized larger than the published rule. Absent: the
   * catalogue's leverage is the account's (the built-in platform).
   */
  accountLeverage?(accountId: string): number | undefined;
  /**
   * The leverage the broker applies to `symbol` on the account (decision 102): the lower of the
   * account's and the symbol's dynamic leverage, at the tier the position's notional falls in
   * when `notionalCents` (in the account's currency) is given, the lowest tier's otherwise.
   * Undefined while it cannot say; the engine then falls back to `accountLeverage`. Absent: the
   * catalogue's leverage (the built-in platform).
   */
  symbolLeverage?(accountId: string, symbol: string, notionalCents?: number): number | undefined;
}
