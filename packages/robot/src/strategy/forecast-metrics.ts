/**
 * Out-of-sample scorecard of probability forecasts (decision 021). Every forecast is scored
 * against an outcome that was unknown when it was made, so nothing here is in-sample.
 * Baselines: a coin flip (always 0.5) and the base rate (the running share of past outcomes,
 * which on this TP/SL geometry is far from 0.5 and is the honest bar to beat).
 */
/** One row of a calibration table: forecasts grouped by size, what they claimed and hit. */
export interface CalibrationRow {
  /** 1 for the smallest forecasts, 10 for the largest. */
  readonly decile: number;
  /** Mean forecast probability in the row. */
  readonly claimed: number;
  /** Share of the row's forecasts that hit. */
  readonly hit: number;
  readonly count: number;
  /**
   * The standard error of `hit - claimed`, with the forecasts of one instrument on one day
   * counted as one cluster (a cluster-robust variance): they hit or miss together, as one trend
   * decides them all. Only where the forecasts were recorded with their cluster.
   */
  readonly standardError?: number;
}

export interface ForecastReport {
  readonly forecasts: number;
  /** Share of forecasts whose side of 0.5 matched the outcome. */
  readonly accuracy: number;
  readonly brierScore: number;
  readonly coinFlipAccuracy: number;
  readonly coinFlipBrierScore: number;
  readonly baseRate: number;
  readonly baseRateAccuracy: number;
  readonly baseRateBrierScore: number;
  /** Forecasts that cleared the trading threshold, and how often they won. */
  readonly confidentForecasts: number;
  readonly confidentHitRate: number;
  readonly confidentMeanProbability: number;
  /**
   * Forecasts at or above their break-even rate, in ten groups of (about) equal size by forecast
   * probability (decision 093). Fewer rows when there are fewer forecasts than ten.
   */
  readonly calibration: readonly CalibrationRow[];
  /** Every scored forecast in ten groups of (about) equal size by forecast probability. */
  readonly calibrationAll: readonly CalibrationRow[];
}

/** Forecast probabilities are kept in bins of 0.001: enough for deciles, bounded in memory. */
const histogramBins = 1000;

/** Per cluster, per histogram bin: forecasts, and the sum of (outcome - probability). */
export type ClusterResiduals = ReadonlyMap<string, ReadonlyMap<number, Residual>>;

interface Residual {
  count: number;
  sum: number;
}

/**
 * Groups a histogram of forecasts into (about) ten rows of equal count, smallest first; with
 * `clusters`, each row gets the cluster-robust standard error of its gap.
 */
export function calibrationRows(
  counts: Float64Array,
  hits: Float64Array,
  probabilitySums: Float64Array,
  clusters?: ClusterResiduals,
): CalibrationRow[] {
  const total = counts.reduce((sum, count) => sum + count, 0);
  const rows: CalibrationRow[] = [];
  if (total === 0) return rows;
  /** The row each bin falls in. */
  const rowOfBin = new Int32Array(counts.length);
  let n = 0;
  let h = 0;
  let p = 0;
  let cumulative = 0;
  for (let i = 0; i < counts.length; i++) {
    rowOfBin[i] = rows.length;
    const count = counts[i] ?? 0;
    if (count === 0) continue;
    n += count;
    h += hits[i] ?? 0;
    p += probabilitySums[i] ?? 0;
    cumulative += count;
    if (cumulative >= ((rows.length + 1) * total) / 10 || cumulative === total) {
      rows.push({ decile: rows.length + 1, claimed: p / n, hit: h / n, count: n });
      n = 0;
      h = 0;
      p = 0;
    }
  }
  if (!clusters || clusters.size === 0) return rows;
  return withStandardErrors(rows, rowOfBin, clusters);
}

/**
 * Var(hit - claimed) = G / (G - 1) x sum over clusters of (r_c - gap x n_c)^2 / N^2, where a
 * cluster has n_c forecasts in the row, r_c the sum of their (outcome - probability), and G
 * clusters fall in the row.
 */
function withStandardErrors(
  rows: readonly CalibrationRow[],
  rowOfBin: Int32Array,
  clusters: ClusterResiduals,
): CalibrationRow[] {
  const squares = new Float64Array(rows.length);
  const groups = new Float64Array(rows.length);
  const n = new Float64Array(rows.length);
  const r = new Float64Array(rows.length);
  for (const bins of clusters.values()) {
    n.fill(0);
    r.fill(0);
    for (const [bin, residual] of bins) {
      const row = rowOfBin[bin] ?? 0;
      n[row] = (n[row] ?? 0) + residual.count;
      r[row] = (r[row] ?? 0) + residual.sum;
    }
    rows.forEach((row, index) => {
      const count = n[index] ?? 0;
      if (count === 0) return;
      squares[index] =
        (squares[index] ?? 0) + ((r[index] ?? 0) - (row.hit - row.claimed) * count) ** 2;
      groups[index] = (groups[index] ?? 0) + 1;
    });
  }
  return rows.map((row, index) => {
    const g = groups[index] ?? 0;
    if (g < 2) return row;
    const variance = (g / (g - 1)) * ((squares[index] ?? 0) / row.count ** 2);
    return { ...row, standardError: Math.sqrt(variance) };
  });
}

export class ForecastMetrics {
  private forecasts = 0;
  private correct = 0;
  private brier = 0;
  private positives = 0;
  private baseRateBrier = 0;
  private baseRateCorrect = 0;
  private confident = 0;
  private confidentHits = 0;
  private confidentProbabilitySum = 0;
  private readonly aboveCounts = new Float64Array(histogramBins);
  private readonly aboveHits = new Float64Array(histogramBins);
  private readonly aboveProbabilities = new Float64Array(histogramBins);
  private readonly allCounts = new Float64Array(histogramBins);
  private readonly allHits = new Float64Array(histogramBins);
  private readonly allProbabilities = new Float64Array(histogramBins);
  /** Forecasts at or above break-even by cluster, when recorded with one. */
  private readonly aboveClusters = new Map<string, Map<number, Residual>>();

  /**
   * @param baseRateBefore the share of positive outcomes seen before this forecast was made
   * @param breakEven the break-even rate of the forecast's geometry (1: never above it)
   * @param cluster what ties this forecast's outcome to others' (an instrument's day); kept
   *   for forecasts at or above break-even, for the standard errors of their calibration
   */
  record(
    probability: number,
    outcome: 0 | 1,
    confident: boolean,
    baseRateBefore: number,
    breakEven = 1,
    cluster?: string,
  ): void {
    this.forecasts++;
    if ((probability >= 0.5 ? 1 : 0) === outcome) this.correct++;
    this.brier += (probability - outcome) ** 2;
    this.baseRateBrier += (baseRateBefore - outcome) ** 2;
    if ((baseRateBefore >= 0.5 ? 1 : 0) === outcome) this.baseRateCorrect++;
    if (outcome === 1) this.positives++;
    if (confident) {
      this.confident++;
      this.confidentHits += outcome;
      this.confidentProbabilitySum += probability;
    }
    const bin = Math.min(histogramBins - 1, Math.max(0, Math.floor(probability * histogramBins)));
    this.allCounts[bin] = (this.allCounts[bin] ?? 0) + 1;
    this.allHits[bin] = (this.allHits[bin] ?? 0) + outcome;
    this.allProbabilities[bin] = (this.allProbabilities[bin] ?? 0) + probability;
    if (probability >= breakEven) {
      this.aboveCounts[bin] = (this.aboveCounts[bin] ?? 0) + 1;
      this.aboveHits[bin] = (this.aboveHits[bin] ?? 0) + outcome;
      this.aboveProbabilities[bin] = (this.aboveProbabilities[bin] ?? 0) + probability;
      if (cluster !== undefined)
        addResidual(this.aboveClusters, cluster, bin, 1, outcome - probability);
    }
  }

  merge(other: ForecastMetrics): void {
    this.forecasts += other.forecasts;
    this.correct += other.correct;
    this.brier += other.brier;
    this.positives += other.positives;
    this.baseRateBrier += other.baseRateBrier;
    this.baseRateCorrect += other.baseRateCorrect;
    this.confident += other.confident;
    this.confidentHits += other.confidentHits;
    this.confidentProbabilitySum += other.confidentProbabilitySum;
    for (let i = 0; i < histogramBins; i++) {
      this.aboveCounts[i] = (this.aboveCounts[i] ?? 0) + (other.aboveCounts[i] ?? 0);
      this.aboveHits[i] = (this.aboveHits[i] ?? 0) + (other.aboveHits[i] ?? 0);
      this.aboveProbabilities[i] =
        (this.aboveProbabilities[i] ?? 0) + (other.aboveProbabilities[i] ?? 0);
      this.allCounts[i] = (this.allCounts[i] ?? 0) + (other.allCounts[i] ?? 0);
      this.allHits[i] = (this.allHits[i] ?? 0) + (other.allHits[i] ?? 0);
      this.allProbabilities[i] = (this.allProbabilities[i] ?? 0) + (other.allProbabilities[i] ?? 0);
    }
    for (const [cluster, bins] of other.aboveClusters) {
      for (const [bin, residual] of bins) {
        addResidual(this.aboveClusters, cluster, bin, residual.count, residual.sum);
      }
    }
  }

  report(): ForecastReport {
    const n = this.forecasts;
    const ratio = (a: number, b: number) => (b === 0 ? Number.NaN : a / b);
    return {
      forecasts: n,
      accuracy: ratio(this.correct, n),
      brierScore: ratio(this.brier, n),
      coinFlipAccuracy: 0.5,
      coinFlipBrierScore: 0.25,
      baseRate: ratio(this.positives, n),
      baseRateAccuracy: ratio(this.baseRateCorrect, n),
      baseRateBrierScore: ratio(this.baseRateBrier, n),
      confidentForecasts: this.confident,
      confidentHitRate: ratio(this.confidentHits, this.confident),
      confidentMeanProbability: ratio(this.confidentProbabilitySum, this.confident),
      calibration: calibrationRows(
        this.aboveCounts,
        this.aboveHits,
        this.aboveProbabilities,
        this.aboveClusters,
      ),
      calibrationAll: calibrationRows(this.allCounts, this.allHits, this.allProbabilities),
    };
  }
}

function addResidual(
  clusters: Map<string, Map<number, Residual>>,
  cluster: string,
  bin: number,
  count: number,
  sum: number,
): void {
  let bins = clusters.get(cluster);
  if (!bins) {
    bins = new Map();
    clusters.set(cluster, bins);
  }
  const residual = bins.get(bin);
  if (residual) {
    residual.count += count;
    residual.sum += sum;
  } else bins.set(bin, { count, sum });
}
