/**
 * Online isotonic recalibration (decision 093). The regression's raw probability is mapped to
 * the hit rate measured on the most recent `window` outcomes of forecasts with a similar raw
 * score, under the one constraint that a higher raw score never maps to a lower probability
 * (pool-adjacent-violators). Every pair it learns from was forecast before its outcome was
 * known, so the fit is on held-out data; it is refitted every `refitEvery` outcomes, so it
 * follows a regression that keeps learning.
 *
 * Raw scores are binned on the logit scale (fine near 0 and 1, where the bar of this geometry
 * lies), and a fitted step holds at least `minimumBlock` outcomes: a step that small cannot be
 * pushed over the bar by a few lucky hits, which is what made the previous calibrator claim more
 * than it hit.
 */
export interface IsotonicCalibratorOptions {
  readonly window: number;
  readonly refitEvery: number;
  readonly minimumBlock: number;
}

export const defaultIsotonicOptions: IsotonicCalibratorOptions = {
  window: 60_000,
  refitEvery: 2_000,
  minimumBlock: 1_500,
};

const logitMin = -7;
const logitMax = 7;
const binsPerUnit = 20;
const binCount = (logitMax - logitMin) * binsPerUnit;

function binOf(raw: number): number {
  const p = Math.min(Math.max(raw, 1e-9), 1 - 1e-9);
  const logit = Math.log(p / (1 - p));
  const bin = Math.floor((logit - logitMin) * binsPerUnit);
  return bin < 0 ? 0 : bin >= binCount ? binCount - 1 : bin;
}

export class IsotonicCalibrator {
  private readonly options: IsotonicCalibratorOptions;
  private readonly counts = new Float64Array(binCount);
  private readonly hits = new Float64Array(binCount);
  /** Ring buffer of the window: bin * 2 + outcome. */
  private readonly ring: Int32Array;
  private size = 0;
  private next = 0;
  private sinceFit = 0;
  /** Per bin, the fitted probability; undefined until the first fit. */
  private fitted: Float64Array | undefined;

  constructor(options: Partial<IsotonicCalibratorOptions> = {}) {
    this.options = { ...defaultIsotonicOptions, ...options };
    this.ring = new Int32Array(this.options.window);
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
    if (this.size === this.options.window) {
      const old = this.ring[this.next] ?? 0;
      const oldBin = old >> 1;
      this.counts[oldBin] = (this.counts[oldBin] ?? 0) - 1;
      this.hits[oldBin] = (this.hits[oldBin] ?? 0) - (old & 1);
    } else {
      this.size++;
    }
    this.ring[this.next] = bin * 2 + outcome;
    this.next = (this.next + 1) % this.options.window;
    this.counts[bin] = (this.counts[bin] ?? 0) + 1;
    this.hits[bin] = (this.hits[bin] ?? 0) + outcome;
    this.sinceFit++;
    if (this.sinceFit >= this.options.refitEvery && this.size >= 2 * this.options.minimumBlock) {
      this.refit();
    }
  }

  /** Pool-adjacent-violators over the bins, with no step shorter than minimumBlock. */
  private refit(): void {
    this.sinceFit = 0;
    const starts: number[] = [];
    const n: number[] = [];
    const h: number[] = [];
    const min = this.options.minimumBlock;
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
