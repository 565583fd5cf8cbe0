/**
 * Online isotonic recalibration (decision 093). The regression's raw probability is mapped to
 * the hit rate measured on the most recent `window` outcomes of forecasts with a similar raw
 * score, under the one constraint that a higher raw score never maps to a lower probability
 * (pool-adjacent-violators). Every pair it learns from was forecast before its outcome was
 * known, so the fit is on held-out data; it is refitted every `refitEvery` outcomes, so it
 * follows a regression that keeps learning.
 *
 * Raw scores are binned on the logit scale (fine near 0 and 1, where the bar of this geometry
 * lies). A fitted step holds at least `minimumBlock` outcomes, and at least `minimumShare` of
 * the outcomes in the window.
 *
 * The window is long and the steps are wide on purpose (decision 093, addendum of 2026-11-27):
 * the robot trades only when a fitted step clears break-even, so it picks the moments when the
 * fit happens to be high. A fit that moves with the last hours' luck (a trend or two of a few
 * instruments fills the top steps) is picked at its lucky moments, and then claims more than it
 * hits; the top step most of all, as it stands apart only while it is lucky. A fit over about a
 * week of outcomes, in steps of a fiftieth of them, barely moves, so being picked tells little
 * about its luck. The window is kept as per-bin counts in `chunkCount` chunks, so its memory
 * does not grow with its length; the oldest chunk leaves whole.
 */
export interface IsotonicCalibratorOptions {
  /** Outcomes kept: between 99% and 100% of it once full (chunks leave whole). */
  readonly window: number;
  readonly refitEvery: number;
  /** Outcomes a fitted step holds at least. */
  readonly minimumBlock: number;
  /** Share of the window's outcomes a fitted step holds at least, once that is more. */
  readonly minimumShare: number;
}

export const defaultIsotonicOptions: IsotonicCalibratorOptions = {
  window: 1_000_000,
  refitEvery: 2_000,
  minimumBlock: 1_500,
  minimumShare: 0.02,
};

const logitMin = -7;
const logitMax = 7;
const binsPerUnit = 20;
const binCount = (logitMax - logitMin) * binsPerUnit;
const chunkCount = 100;

function binOf(raw: number): number {
  const p = Math.min(Math.max(raw, 1e-9), 1 - 1e-9);
  const logit = Math.log(p / (1 - p));
  const bin = Math.floor((logit - logitMin) * binsPerUnit);
  return bin < 0 ? 0 : bin >= binCount ? binCount - 1 : bin;
}

export class IsotonicCalibrator {
  private readonly options: IsotonicCalibratorOptions;
  private readonly chunkSize: number;
  private readonly counts = new Float64Array(binCount);
  private readonly hits = new Float64Array(binCount);
  /**
   * The window in chunks of `chunkSize` outcomes, oldest first, the last one filling: per bin,
   * outcomes at [bin] and hits at [binCount + bin]. Allocated as the window fills.
   */
  private readonly chunks: Uint32Array[] = [];
  private filling = 0;
  private size = 0;
  private learned = 0;
  private sinceFit = 0;
  /** Per bin, the fitted probability; undefined until the first fit. */
  private fitted: Float64Array | undefined;

  constructor(options: Partial<IsotonicCalibratorOptions> = {}) {
    this.options = { ...defaultIsotonicOptions, ...options };
    this.chunkSize = Math.max(1, Math.ceil(this.options.window / chunkCount));
  }

  /** Whether a fit exists: before it, `calibrate` has nothing measured to say. */
  get ready(): boolean {
    return this.fitted !== undefined;
  }

  /** The measured probability for a raw score (the raw score itself before the first fit). */
  calibrate(raw: number): number {
    const fitted = this.fitted;
    if (!fitted) return raw;
    return fitted[binOf(raw)] ?? raw;
  }

  learn(raw: number, outcome: 0 | 1): void {
    const bin = binOf(raw);
    let chunk = this.chunks[this.chunks.length - 1];
    if (!chunk || this.filling === this.chunkSize) {
      chunk = this.chunks.length === chunkCount ? this.dropOldest() : new Uint32Array(2 * binCount);
      this.chunks.push(chunk);
      this.filling = 0;
    }
    chunk[bin] = (chunk[bin] ?? 0) + 1;
    chunk[binCount + bin] = (chunk[binCount + bin] ?? 0) + outcome;
    this.filling++;
    this.size++;
    this.learned++;
    this.counts[bin] = (this.counts[bin] ?? 0) + 1;
    this.hits[bin] = (this.hits[bin] ?? 0) + outcome;
    // Young, the regression changes fast: outcomes of its first scores say little about its
    // scores now, so the window holds no more than the later half of everything learned.
    while (this.chunks.length > 2 && this.size - this.chunkSize >= this.learned / 2) {
      this.dropOldest();
    }
    this.sinceFit++;
    if (this.sinceFit >= this.options.refitEvery && this.size >= 2 * this.options.minimumBlock) {
      this.refit();
    }
  }

  /** Takes the oldest chunk's outcomes out of the window and hands its array back, emptied. */
  private dropOldest(): Uint32Array {
    const oldest = this.chunks.shift() ?? new Uint32Array(2 * binCount);
    for (let bin = 0; bin < binCount; bin++) {
      const count = oldest[bin] ?? 0;
      if (count === 0) continue;
      this.counts[bin] = (this.counts[bin] ?? 0) - count;
      this.hits[bin] = (this.hits[bin] ?? 0) - (oldest[binCount + bin] ?? 0);
      this.size -= count;
    }
    oldest.fill(0);
    return oldest;
  }

  /** Pool-adjacent-violators over the bins, with no step shorter than the larger minimum. */
  private refit(): void {
    this.sinceFit = 0;
    const starts: number[] = [];
    const n: number[] = [];
    const h: number[] = [];
    const min = Math.max(this.options.minimumBlock, this.options.minimumShare * this.size);
    for (let bin = 0; bin < binCount; bin++) {
      const count = this.counts[bin] ?? 0;
      if (count === 0) continue;
      starts.push(bin);
      n.push(count);
      h.push(this.hits[bin] ?? 0);
      // Pool while the step before the last is short or the last is not above it.
      while (n.length > 1 && ((n[n.length - 2] ?? 0) < min || violates(n, h))) merge(starts, n, h);
    }
    // The top step may still be short: it joins the one below (and pools on if that violates).
    while (n.length > 1 && ((n[n.length - 1] ?? 0) < min || violates(n, h))) merge(starts, n, h);
    const fitted = this.fitted ?? new Float64Array(binCount);
    let step = 0;
    for (let bin = 0; bin < binCount; bin++) {
      while (step + 1 < starts.length && (starts[step + 1] ?? binCount) <= bin) step++;
      fitted[bin] = (h[step] ?? 0) / (n[step] ?? 1);
    }
    this.fitted = fitted;
  }
}

/** Whether the last step's rate is not above the one before it. */
function violates(n: readonly number[], h: readonly number[]): boolean {
  const last = n.length - 1;
  return (h[last] ?? 0) / (n[last] ?? 1) <= (h[last - 1] ?? 0) / (n[last - 1] ?? 1);
}

/** Pools the last step into the one before it. */
function merge(starts: number[], n: number[], h: number[]): void {
  const last = n.length - 1;
  n[last - 1] = (n[last - 1] ?? 0) + (n[last] ?? 0);
  h[last - 1] = (h[last - 1] ?? 0) + (h[last] ?? 0);
  n.pop();
  h.pop();
  starts.pop();
}
