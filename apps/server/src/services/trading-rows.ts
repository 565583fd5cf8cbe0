import type { TradeRow, TradingAccount } from '@tradebot/contract';
import {
  centsToDollars,
  exposureCap,
  toAccountSummary,
  toTradeRow,
  type AccountState,
  type InstrumentCatalogue,
  type TradeRecord,
} from '@tradebot/robot';

/**
 * One operation as the contract spells it: the spec's raw fields (Amount, CloseTime, Cmd, ...)
 * from the robot's own edge mapping, plus what the dashboard needs.
 * @param markCents an open operation's live profit (its mark at the platform).
 */
export function tradeRowOf(
  trade: TradeRecord,
  catalogue: InstrumentCatalogue,
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
