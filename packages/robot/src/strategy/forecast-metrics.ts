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

/** Groups a histogram of forecasts into (about) ten rows of equal count, smallest first. */
export function calibrationRows(
  counts: Float64Array,
  hits: Float64Array,
  probabilitySums: Float64Array,
): CalibrationRow[] {
  const total = counts.reduce((sum, count) => sum + count, 0);
  const rows: CalibrationRow[] = [];
  if (total === 0) return rows;
  let n = 0;
  let h = 0;
  let p = 0;
  let cumulative = 0;
  for (let i = 0; i < counts.length; i++) {
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
  return rows;
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

  /**
   * @param baseRateBefore the share of positive outcomes seen before this forecast was made
   * @param breakEven the break-even rate of the forecast's geometry (1: never above it)
   */
  record(
    probability: number,
    outcome: 0 | 1,
    confident: boolean,
    baseRateBefore: number,
    breakEven = 1,
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
      calibration: calibrationRows(this.aboveCounts, this.aboveHits, this.aboveProbabilities),
      calibrationAll: calibrationRows(this.allCounts, this.allHits, this.allProbabilities),
    };
  }
}
