import type { AccountState, Side } from '../broker/broker-adapter';
import type { TradeRecord } from '../execution/trade-record';
import type { Instrument } from '../instruments/instrument';
import { centsToDollars, type Cents } from '../money/minor-units';

/**
 * A trade row as the dashboard receives it (spec §2, Dashboard: "the raw rows carry Amount,
 * CloseTime, Cmd, Icon1, Icon2, OpenTime, OutputName, Profit"). The spec does not show the
 * types; decision 023 fixes them: Amount in lots, Cmd 0 = buy and 1 = sale (the MetaTrader
 * convention these names come from), times as ISO 8601 UTC, Profit in USD.
 */
export interface TradeRow {
  readonly Amount: number;
  readonly CloseTime: string | null;
  readonly Cmd: 0 | 1;
  readonly Icon1: string;
  readonly Icon2: string;
  readonly OpenTime: string;
  readonly OutputName: string;
  readonly Profit: number;
}

export function sideToCmd(side: Side): 0 | 1 {
  return side === 'buy' ? 0 : 1;
}

/**
 * @param unrealisedProfitCents for an open trade, its current mark (from the broker's open
 * positions); ignored once the trade is closed.
 */
export function toTradeRow(
  trade: TradeRecord,
  instrument: Instrument,
  unrealisedProfitCents?: Cents,
): TradeRow {
  return {
    Amount: Number((trade.units / instrument.contractSize).toFixed(6)),
    CloseTime: trade.closedAt === null ? null : new Date(trade.closedAt).toISOString(),
    Cmd: sideToCmd(trade.side),
    Icon1: instrument.icon1,
    Icon2: instrument.icon2,
    OpenTime: new Date(trade.openedAt).toISOString(),
    OutputName: instrument.outputName,
    Profit: centsToDollars(trade.profitCents ?? unrealisedProfitCents ?? 0),
  };
}

/** spec §3, Trading data: account {balance, freeMargin, equity, earnings}, in USD. */
export interface AccountSummary {
  readonly balance: number;
  readonly freeMargin: number;
  readonly equity: number;
  /** equity - deposits: everything the account has made or lost, realised or not. */
  readonly earnings: number;
}

export function toAccountSummary(account: AccountState): AccountSummary {
  return {
    balance: centsToDollars(account.balanceCents),
    freeMargin: centsToDollars(account.freeMarginCents),
    equity: centsToDollars(account.equityCents),
    earnings: centsToDollars(account.equityCents - account.depositsCents),
  };
}
