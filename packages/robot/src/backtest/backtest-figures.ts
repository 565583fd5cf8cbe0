import { summarise } from '../simulation/simulation-summary';
import type { BacktestResult } from './run-backtest';

/**
 * The few figures of a backtest a page can show (decision 142): what the robot did on recorded
 * quotes, and where they came from. Money in USD; shares 0-1; a share with nothing to measure
 * (no market-open minute, no scored forecast) is null.
 */
export interface BacktestFigures {
  readonly instruments: readonly string[];
  readonly quotes: number;
  /** The first and last quote replayed, epoch ms. */
  readonly first: number;
  readonly last: number;
  readonly startingBalanceUsd: number;
  readonly operations: number;
  /** Closed with a profit. */
  readonly wins: number;
  /** Realised profit plus the open positions marked at the last quote. */
  readonly resultUsd: number;
  readonly noEdgeShare: number | null;
  readonly marketOpenMinutes: number;
  /** 1 - Brier / the base rate's Brier, on the model's out-of-sample forecasts. */
  readonly brierSkill: number | null;
  readonly forecasts: number;
}

export function backtestFigures(result: BacktestResult): BacktestFigures {
  const summary = summarise(result);
  const { model } = summary;
  return {
    instruments: result.source.instruments.map((i) => i.symbol),
    quotes: result.source.instruments.reduce((sum, i) => sum + i.quotes, 0),
    first: result.source.first,
    last: result.source.last,
    startingBalanceUsd: summary.deposits,
    operations: summary.operations,
    wins: result.trades.filter((t) => t.closeReason !== 'open' && (t.profitCents ?? 0) > 0).length,
    // Both in dollars with cents: rounding their sum keeps it in cents.
    resultUsd: Math.round((summary.realisedProfit + summary.unrealisedProfit) * 100) / 100,
    noEdgeShare: summary.marketOpenMinutes === 0 ? null : summary.noEdgeShare,
    marketOpenMinutes: summary.marketOpenMinutes,
    brierSkill:
      model.forecasts === 0 || !(model.baseRateBrierScore > 0)
        ? null
        : 1 - model.brierScore / model.baseRateBrierScore,
    forecasts: model.forecasts,
  };
}
