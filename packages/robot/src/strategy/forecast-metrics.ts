/**
 * Out-of-sample scorecard of probability forecasts (decision 021). Every forecast is scored
 * against an outcome that was unknown when it was made, so nothing here is in-sample.
 * Baselines: a coin flip (always 0.5) and the base rate (the running share of past outcomes,
 * which on this TP/SL geometry is far from 0.5 and is the honest bar to beat).
 */
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

  /**
   * @param baseRateBefore the share of positive outcomes seen before this forecast was made
   */
  record(probability: number, outcome: 0 | 1, confident: boolean, baseRateBefore: number): void {
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
    };
  }
}
