/**
 * Online histogram-binning recalibration. A raw model probability is replaced by the measured
 * hit rate of past forecasts that fell in the same bin, shrunk towards the raw value while the
 * bin has few outcomes. What the robot acts on is therefore a measured frequency, not the raw
 * score of a regression that may be overconfident at the extremes (decision 021).
 */
export class OnlineCalibrator {
  private readonly counts: Float64Array;
  private readonly hits: Float64Array;

  constructor(
    private readonly bins = 100,
    private readonly pseudoCount = 50,
  ) {
    this.counts = new Float64Array(bins);
    this.hits = new Float64Array(bins);
  }

  calibrate(raw: number): number {
    const bin = this.binOf(raw);
    const n = this.counts[bin] ?? 0;
    return ((this.hits[bin] ?? 0) + this.pseudoCount * raw) / (n + this.pseudoCount);
  }

  learn(raw: number, outcome: 0 | 1): void {
    const bin = this.binOf(raw);
    this.counts[bin] = (this.counts[bin] ?? 0) + 1;
    this.hits[bin] = (this.hits[bin] ?? 0) + outcome;
  }

  private binOf(p: number): number {
    return Math.min(this.bins - 1, Math.max(0, Math.floor(p * this.bins)));
  }
}
