import { categories, type Category } from '@tradebot/contract';
import { noEdgeAfterMs } from '../engine/trading-engine';
import { centsToDollars } from '../money/minor-units';
import type { CalibrationRow, ForecastReport } from '../strategy/forecast-metrics';
import type { RobotRun } from './run-robot';
import type { SimulationResult } from './run-simulation';

export interface SimulationSummary {
  readonly operations: number;
  readonly closed: number;
  readonly open: number;
  readonly byCategory: Readonly<Record<Category, number>>;
  readonly byCloseReason: Readonly<Record<string, number>>;
  /** Closed operations with a positive profit, over closed operations. */
  readonly winRate: number;
  readonly realisedProfit: number;
  readonly unrealisedProfit: number;
  readonly deposits: number;
  readonly finalEquity: number;
  readonly averageMarginFraction: number;
  readonly largestExposureFraction: number;
  /**
   * The largest fall of an account's balance from its previous peak, as a share of that peak,
   * over its closed operations in the order they closed (realised profit only).
   */
  readonly maxDrawdownFraction: number;
  /** Traded signals: the probability the model claimed, the break-even it had to clear, the outcome. */
  readonly meanClaimedProbability: number;
  readonly meanBreakEven: number;
  readonly ledgerHolds: boolean;
  readonly model: ForecastReport;
  /** Market-open minutes in which the robot said it had no edge, over market-open minutes. */
  readonly noEdgeShare: number;
  readonly marketOpenMinutes: number;
}

export function summarise(result: RobotRun): SimulationSummary {
  const { trades } = result;
  const closed = trades.filter((t) => t.closeReason !== 'open');
  const byCategory = Object.fromEntries(categories.map((c) => [c, 0])) as Record<Category, number>;
  const byCloseReason: Record<string, number> = {};
  let marginFractionSum = 0;
  let largestExposure = 0;
  let claimed = 0;
  let breakEven = 0;
  for (const t of trades) {
    byCategory[t.category]++;
    byCloseReason[t.closeReason] = (byCloseReason[t.closeReason] ?? 0) + 1;
    marginFractionSum += t.marginCents / t.freeMarginAtEntryCents;
    largestExposure = Math.max(largestExposure, t.usedMarginAfterEntryCents / t.equityAtEntryCents);
    claimed += t.probability;
    breakEven += t.breakEvenProbability;
  }
  const realisedCents = closed.reduce((sum, t) => sum + (t.profitCents ?? 0), 0);
  const unrealisedCents = [...result.openMarks.values()].reduce((a, b) => a + b, 0);
  const n = trades.length;
  return {
    operations: n,
    closed: closed.length,
    open: n - closed.length,
    byCategory,
    byCloseReason,
    winRate: closed.filter((t) => (t.profitCents ?? 0) > 0).length / closed.length,
    realisedProfit: centsToDollars(realisedCents),
    unrealisedProfit: centsToDollars(unrealisedCents),
    deposits: centsToDollars(result.accounts.reduce((s, a) => s + a.depositsCents, 0)),
    finalEquity: centsToDollars(result.accounts.reduce((s, a) => s + a.equityCents, 0)),
    averageMarginFraction: marginFractionSum / n,
    largestExposureFraction: largestExposure,
    maxDrawdownFraction: maxDrawdown(result),
    meanClaimedProbability: claimed / n,
    meanBreakEven: breakEven / n,
    ledgerHolds: result.accounts.every(
      (a) => a.balanceCents === a.depositsCents + a.realisedProfitCents,
    ),
    model: result.model.overall,
    noEdgeShare: result.time.noEdgeMinutes / result.time.openMinutes,
    marketOpenMinutes: result.time.openMinutes,
  };
}

function maxDrawdown(result: RobotRun): number {
  const closed = result.trades
    .filter((t) => t.closedAt !== null)
    .sort((a, b) => (a.closedAt ?? 0) - (b.closedAt ?? 0));
  let largest = 0;
  for (const account of result.accounts) {
    let balance = account.depositsCents;
    let peak = balance;
    for (const t of closed) {
      if (t.accountId !== account.accountId) continue;
      balance += t.profitCents ?? 0;
      peak = Math.max(peak, balance);
      largest = Math.max(largest, (peak - balance) / peak);
    }
  }
  return largest;
}

/** A share, or "n/a" when there was nothing to divide (no operation closed, say). */
const pct = (x: number) => (Number.isFinite(x) ? `${(100 * x).toFixed(2)}%` : 'n/a');
const usd = (x: number) => `${x < 0 ? '-' : ''}$${Math.abs(x).toFixed(2)}`;

function calibrationLines(rows: readonly CalibrationRow[]): string[] {
  if (rows.length === 0) return ['  none'];
  return rows.map(
    (row) =>
      `  ${String(row.decile).padStart(2)}: claimed ${pct(row.claimed)} -> hit ${pct(row.hit)} (${(100 * (row.hit - row.claimed)).toFixed(2)}${row.standardError === undefined ? '' : ` ± ${(100 * row.standardError).toFixed(2)}`} points), ${String(row.count)} forecasts`,
  );
}

export function formatSummary(s: SimulationSummary, result: SimulationResult): string {
  const o = result.options;
  return formatReport(
    s,
    result,
    [
      `Simulation: ${o.accounts} accounts, ${o.days} days from ${new Date(o.startTime).toISOString()}, seed ${o.seed}, risk ${o.risk}`,
    ],
    'These figures describe this simulated market only (decision 021); they promise nothing about real markets.',
  );
}

/**
 * The report every run of the robot prints, simulated or recorded: `heading` says what it ran
 * on, `closing` what its figures describe.
 */
export function formatReport(
  s: SimulationSummary,
  result: RobotRun,
  heading: readonly string[],
  closing: string,
): string {
  const m = s.model;
  return [
    ...heading,
    `  ticks ${result.ticks}, wall clock ${(result.wallClockMs / 1000).toFixed(1)} s`,
    `Operations: ${s.operations} (${s.closed} closed, ${s.open} open at the end)`,
    `  by category: ${Object.entries(s.byCategory)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')}`,
    `  by close reason: ${Object.entries(s.byCloseReason)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')}`,
    `Win rate (closed): ${pct(s.winRate)}; mean probability claimed at entry ${pct(s.meanClaimedProbability)}, mean break-even ${pct(s.meanBreakEven)}`,
    `P&L: realised ${usd(s.realisedProfit)}, unrealised ${usd(s.unrealisedProfit)}; deposits ${usd(s.deposits)} -> equity ${usd(s.finalEquity)}`,
    `Drawdown (balance over closed operations, the worst account): ${pct(s.maxDrawdownFraction)} from its peak`,
    `Average margin per operation: ${pct(s.averageMarginFraction)} of free margin; largest exposure at entry: ${pct(s.largestExposureFraction)} of equity`,
    `Ledger identity balance = deposits + realised profit: ${s.ledgerHolds ? 'holds for every account' : 'BROKEN'}`,
    `Model, out of sample (${m.forecasts} virtual trades scored):`,
    `  accuracy ${pct(m.accuracy)} vs coin flip ${pct(m.coinFlipAccuracy)} vs base rate ${pct(m.baseRateAccuracy)}`,
    `  Brier ${m.brierScore.toFixed(4)} vs coin flip ${m.coinFlipBrierScore.toFixed(4)} vs base rate ${m.baseRateBrierScore.toFixed(4)} (lower is better)`,
    `  forecasts above break-even plus margin: ${m.confidentForecasts}, hit rate ${pct(m.confidentHitRate)} vs mean claimed ${pct(m.confidentMeanProbability)}`,
    `  Brier skill against the base rate: ${pct(1 - m.brierScore / m.baseRateBrierScore)} (above 0: better than always forecasting the base rate)`,
    'Calibration, every forecast (decile: claimed -> hit, count):',
    ...calibrationLines(m.calibrationAll),
    "Calibration, forecasts at or above break-even (decile: claimed -> hit, count; ± one standard error, an instrument's day counted as one cluster):",
    ...calibrationLines(m.calibration),
    `No edge: ${pct(s.noEdgeShare)} of market-open time (${String(s.marketOpenMinutes)} market-open minutes; the robot says so after ${String(noEdgeAfterMs / 3_600_000)} h without a signal)`,
    closing,
  ].join('\n');
}
