import {
  orderRejectionReasons,
  type OrderRejection,
  type OrderRejectionReason,
  type TradeRow,
  type TradingAccount,
} from '@tradebot/contract';
import {
  centsToDollars,
  exposureCap,
  toAccountSummary,
  toTradeRow,
  type AccountState,
  type Instrument,
  type InstrumentCatalogue,
  type TradeRecord,
} from '@tradebot/robot';
import type { RejectionRow } from '../repositories/trading.repository';

/** What says a linked broker account's currency: the account picked and its currency. */
export interface LinkedCurrency {
  readonly ctidTraderAccountId: number | null;
  readonly currency: string | null;
}

/**
 * The currency of an operation's amounts (decisions 097, 103): the one stored with it when it
 * filled. An operation stored before that (migration 0023) without one: the built-in platform's
 * are USD; a cTrader position (`ct<account>-<id>`, decision 096) is in the linked account's
 * currency when it is that account's, and unknown (null, never guessed) when it is a former link's.
 */
export function operationCurrency(
  trade: Pick<TradeRecord, 'positionId' | 'currency'>,
  link: LinkedCurrency,
): string | null {
  if (trade.currency !== null) return trade.currency;
  const { positionId } = trade;
  if (!positionId.startsWith('ct')) return 'USD';
  const own =
    link.ctidTraderAccountId !== null &&
    positionId.startsWith(`ct${String(link.ctidTraderAccountId)}-`);
  return own ? link.currency : null;
}

/**
 * An operation's value in its account's currency (decision 156): units × opening price when
 * the instrument is quoted in that currency, the units themselves when they are that currency
 * (USD/JPY in a USD account); null where it takes an exchange rate.
 */
export function positionValue(
  trade: Pick<TradeRecord, 'units' | 'entryPrice'>,
  instrument: Pick<Instrument, 'quoteCurrency' | 'category' | 'icon1'>,
  currency: string | null,
): number | null {
  if (currency === null) return null;
  if (instrument.quoteCurrency === currency) {
    return Math.round(trade.units * trade.entryPrice * 100) / 100;
  }
  if (instrument.category === 'forex' && instrument.icon1 === currency) return trade.units;
  return null;
}

/**
 * One operation as the contract spells it: the spec's raw fields (Amount, CloseTime, Cmd, ...)
 * from the robot's own edge mapping, plus what the dashboard needs.
 * @param currency the currency of its amounts (operationCurrency).
 * @param markCents an open operation's live profit (its mark at the platform).
 */
export function tradeRowOf(
  trade: TradeRecord,
  catalogue: InstrumentCatalogue,
  currency: string | null,
  markCents?: number,
): TradeRow {
  const instrument = catalogue.require(trade.symbol);
  const open = trade.closeReason === 'open';
  const edge = toTradeRow(trade, instrument, open ? (markCents ?? 0) : undefined);
  // Named one by one: a spread followed by more fields builds a slow object (about 10 times
  // slower to build and to serialize; npm run bench:live), and get-all-data builds hundreds.
  return {
    Amount: edge.Amount,
    CloseTime: edge.CloseTime,
    Cmd: edge.Cmd,
    Icon1: edge.Icon1,
    Icon2: edge.Icon2,
    OpenTime: edge.OpenTime,
    OutputName: edge.OutputName,
    Profit: edge.Profit,
    id: trade.positionId,
    symbol: trade.symbol,
    category: trade.category,
    side: trade.side,
    units: trade.units,
    openPrice: trade.entryPrice,
    closePrice: trade.closePrice,
    takeProfit: trade.takeProfit,
    stopLoss: trade.stopLoss,
    status: open ? 'open' : 'closed',
    closeReason: trade.closeReason === 'open' ? null : trade.closeReason,
    probability: trade.probability,
    breakEvenProbability: trade.breakEvenProbability,
    margin: centsToDollars(trade.marginCents),
    value: positionValue(trade, instrument, currency),
    currency,
  };
}

/** spec §3 account {balance, freeMargin, equity, earnings} plus exposure against the 50% cap. */
export function tradingAccountOf(account: AccountState): TradingAccount {
  return {
    ...toAccountSummary(account),
    deposits: centsToDollars(account.depositsCents),
    usedMargin: centsToDollars(account.usedMarginCents),
    exposure: account.equityCents > 0 ? account.usedMarginCents / account.equityCents : 0,
    exposureCap,
  };
}

const knownRejectionReasons: ReadonlySet<string> = new Set(orderRejectionReasons);

/**
 * A refused order as the dashboard lists it. A reason this version does not know (a later
 * robot's) reads as the broker's own refusal, with its code when there is one.
 */
export function orderRejectionOf(
  row: RejectionRow,
  catalogue: InstrumentCatalogue,
): OrderRejection {
  const instrument = catalogue.get(row.symbol);
  return {
    id: row.clientOrderId,
    at: new Date(row.decidedAt).toISOString(),
    symbol: row.symbol,
    OutputName: instrument?.outputName ?? row.symbol,
    category: instrument?.category ?? 'forex',
    side: row.side === 'sale' ? 'sale' : 'buy',
    units: row.units,
    reason:
      row.reason !== null && knownRejectionReasons.has(row.reason)
        ? (row.reason as OrderRejectionReason)
        : 'BROKER_REJECTED',
    brokerCode: row.brokerCode,
  };
}
