/**
 * Online recalibration (decision 093). The regression's raw probability is mapped to the hit
 * rate measured on the most recent `window` outcomes of forecasts with a similar raw score. Every
 * pair it learns from was forecast before its outcome was known, so the fit is on held-out data;
 * it is refitted every `refitEvery` outcomes, so it follows a regression that keeps learning.
 *
 * Raw scores are binned on the logit scale (fine near 0 and 1, where the bar of this geometry
 * lies). Below the top `topShare` of the window's outcomes (by raw score), the map is isotonic:
 * pool-adjacent-violators, a step holding at least `minimumBlock` outcomes and at least
 * `minimumShare` of the window. Over the top `topShare`, where the robot trades, it is a smooth
 * curve (a logistic regression of the outcome on the raw logit and its square) once that share
 * holds the outcomes of three steps of a full window. Steps of a fiftieth of the window gave
 * every score there one claim whatever its hit rate (from 91% to 95% in the simulated market),
 * and what moved that claim was the window's luck. The curve may fall at the far top, where the
 * measured hit rate does; it is read no further out than `minimumBlock` outcomes reach.
 *
 * The curve's fits are averaged: the map the robot uses moves towards each new one by
 * `averaging` (memory: a window's length of fits), by 2 / (curve fits so far) while they are
 * few. The robot trades only when a claim clears break-even, so it picks the moments when the fit
 * happens to be high: a claim that moves with the window's luck is picked at its lucky moments,
 * and then claims more than it hits. An average of many fits barely moves. Before the curve (a
 * young calibrator), each fit of steps is used as it is. Decision 093, addenda of 2026-11-27.
 *
 * The window is kept as per-bin counts in `chunkCount` chunks, so its memory does not grow with
 * its length; the oldest chunk leaves whole.
 */
export interface IsotonicCalibratorOptions {
  /** Outcomes kept: between 99% and 100% of it once full (chunks leave whole). */
  readonly window: number;
  readonly refitEvery: number;
  /** Outcomes a fitted step holds at least. */
  readonly minimumBlock: number;
  /** Share of the window's outcomes a fitted step holds at least, once that is more. */
  readonly minimumShare: number;
  /** Share of the window's outcomes, those of the highest raw scores, the smooth curve covers. */
  readonly topShare: number;
  /**
   * Weight of a new curve fit in the map the robot uses (an exponential average over fits); while
   * there are few, 2 / (curve fits so far), so that the map averages about the later half of
   * them, as the window holds the later half of the outcomes.
   */
  readonly averaging: number;
}

export const defaultIsotonicOptions: IsotonicCalibratorOptions = {
  window: 1_000_000,
  refitEvery: 2_000,
  minimumBlock: 1_500,
  minimumShare: 0.02,
  topShare: 0.1,
  // A window's length of fits: 1,000,000 / 2,000.
  averaging: 0.002,
};

/** Outcomes a calibrator with these options learns before its first fit (decision 147). */
export function firstFitOutcomes(options: Partial<IsotonicCalibratorOptions>): number {
  const { refitEvery, minimumBlock } = { ...defaultIsotonicOptions, ...options };
  return Math.max(refitEvery, 2 * minimumBlock);
}

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
  /** Per bin, the averaged fitted probability; undefined until the first fit. */
  private fitted: Float64Array | undefined;
  private readonly latest = new Float64Array(binCount);
  /** Fits that used the curve: the average over them weighs a new one 2 / curveFits while few. */
  private curveFits = 0;

  constructor(options: Partial<IsotonicCalibratorOptions> = {}) {
    this.options = { ...defaultIsotonicOptions, ...options };
    this.chunkSize = Math.max(1, Math.ceil(this.options.window / chunkCount));
  }

  /** Whether a fit exists: before it, `calibrate` has nothing measured to say. */
  get ready(): boolean {
    return this.fitted !== undefined;
  }

  /**
   * Outcomes learned towards the first fit, and how many it takes (at least `refitEvery` since
   * the start, and twice `minimumBlock` in the window): what "still learning" counts
   * (decision 147). Learned equals needed once, and only once, the first fit exists.
   */
  get firstFitProgress(): { learned: number; needed: number } {
    const needed = firstFitOutcomes(this.options);
    return { learned: this.ready ? needed : Math.min(this.learned, needed - 1), needed };
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

  /**
   * Pool-adjacent-violators over the bins below the top share, with no step shorter than the
   * larger minimum; the smooth curve over the top share; then the average of fits moves.
   */
  private refit(): void {
    this.sinceFit = 0;
    const { minimumBlock, minimumShare, topShare, window } = this.options;
    const minimum = Math.max(minimumBlock, minimumShare * this.size);
    // A curve of three parameters needs the outcomes of three steps of a full window: a young
    // calibrator (a small window, a regression still moving) keeps to steps.
    const region = topRegion(this.counts, topShare * this.size);
    const top =
      region.outcomes < 3 * Math.max(minimumBlock, minimumShare * window) ? binCount : region.start;
    const latest = this.latest;
    this.fitIsotonic(top, minimum, latest);
    fitTopCurve(this.counts, this.hits, top, minimumBlock, latest);
    // Steps alone (a young calibrator) are used as fitted, as they always were; the curve's fits
    // are averaged from the first one on.
    const curved = top < binCount;
    if (curved) this.curveFits++;
    const weight = curved ? Math.min(1, Math.max(this.options.averaging, 2 / this.curveFits)) : 1;
    const fitted = this.fitted ?? new Float64Array(binCount);
    for (let bin = 0; bin < binCount; bin++) {
      const value = fitted[bin] ?? 0;
      fitted[bin] = value + weight * ((latest[bin] ?? 0) - value);
    }
    this.fitted = fitted;
  }

  /** Isotonic steps over the bins below `top` into `out[0, top)`. */
  private fitIsotonic(top: number, min: number, out: Float64Array): void {
    const starts: number[] = [];
    const n: number[] = [];
    const h: number[] = [];
    for (let bin = 0; bin < top; bin++) {
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
    let step = 0;
    for (let bin = 0; bin < top; bin++) {
      while (step + 1 < starts.length && (starts[step + 1] ?? binCount) <= bin) step++;
      out[bin] = (h[step] ?? 0) / (n[step] ?? 1);
    }
  }
}

/** The highest bin with at least `share` outcomes at or above it, and those outcomes. */
function topRegion(counts: Float64Array, share: number): { start: number; outcomes: number } {
  let outcomes = 0;
  for (let bin = binCount - 1; bin >= 0; bin--) {
    outcomes += counts[bin] ?? 0;
    if (outcomes >= share || bin === 0) return { start: bin, outcomes };
  }
  return { start: 0, outcomes };
}

/**
 * Over the bins from `top`, a logistic regression of the hit rate on the bin's centre logit and
 * its square, weighted by outcomes (Newton's method, halving a step that does not improve the
 * likelihood), written into `out[top, binCount)`. Bins beyond the highest with `support`
 * outcomes at or above it take the curve's value there. Fewer than three bins with outcomes, or
 * a system that cannot be solved, give the region's pooled rate instead.
 */
function fitTopCurve(
  counts: Float64Array,
  hits: Float64Array,
  top: number,
  support: number,
  out: Float64Array,
): void {
  const z: number[] = [];
  const n: number[] = [];
  const y: number[] = [];
  let pooledN = 0;
  let pooledH = 0;
  for (let bin = top; bin < binCount; bin++) {
    const count = counts[bin] ?? 0;
    if (count === 0) continue;
    z.push(centreOf(bin));
    n.push(count);
    y.push((hits[bin] ?? 0) / count);
    pooledN += count;
    pooledH += hits[bin] ?? 0;
  }
  const pooled = pooledN > 0 ? pooledH / pooledN : 0;
  const zMin = z[0] ?? 0;
  // The curve is read no further out than the highest scores with `support` outcomes at or
  // above them: beyond, a few lucky outcomes would bend it anywhere.
  let zMax = z[z.length - 1] ?? 0;
  let above = 0;
  for (let i = z.length - 1; i >= 0; i--) {
    above += n[i] ?? 0;
    if (above >= support) {
      zMax = z[i] ?? zMax;
      break;
    }
  }
  const centre = z.reduce((sum, value) => sum + value, 0) / Math.max(1, z.length);
  const x = z.map((value) => value - centre);
  const beta = z.length >= 3 ? logisticQuadratic(x, n, y, pooled) : undefined;
  for (let bin = top; bin < binCount; bin++) {
    if (!beta) {
      out[bin] = pooled;
      continue;
    }
    const x = Math.min(Math.max(centreOf(bin), zMin), zMax) - centre;
    out[bin] = sigmoid(beta[0] + beta[1] * x + beta[2] * x * x);
  }
}

function centreOf(bin: number): number {
  return (bin + 0.5) / binsPerUnit + logitMin;
}

function sigmoid(eta: number): number {
  return 1 / (1 + Math.exp(-eta));
}

/** Maximum-likelihood [b0, b1, b2] of p = sigmoid(b0 + b1 x + b2 x^2), x centred logits. */
function logisticQuadratic(
  x: readonly number[],
  n: readonly number[],
  y: readonly number[],
  pooled: number,
): [number, number, number] | undefined {
  if (pooled <= 0 || pooled >= 1) return undefined;
  const logLikelihood = (b: readonly number[]) => {
    let sum = 0;
    for (let i = 0; i < x.length; i++) {
      const xi = x[i] ?? 0;
      const eta = (b[0] ?? 0) + (b[1] ?? 0) * xi + (b[2] ?? 0) * xi * xi;
      // log p = -log(1 + e^-eta), log(1 - p) = -log(1 + e^eta), computed without overflow.
      const logP = -softplus(-eta);
      const logQ = -softplus(eta);
      sum += (n[i] ?? 0) * ((y[i] ?? 0) * logP + (1 - (y[i] ?? 0)) * logQ);
    }
    return sum;
  };
  let beta: [number, number, number] = [Math.log(pooled / (1 - pooled)), 0, 0];
  let current = logLikelihood(beta);
  for (let iteration = 0; iteration < 50; iteration++) {
    // The log-likelihood's gradient g and its information matrix h (minus its Hessian).
    const g = [0, 0, 0];
    const h = [
      [0, 0, 0],
      [0, 0, 0],
      [0, 0, 0],
    ];
    for (let i = 0; i < x.length; i++) {
      const xi = x[i] ?? 0;
      const features = [1, xi, xi * xi];
      const p = sigmoid(beta[0] + beta[1] * xi + beta[2] * xi * xi);
      const w = (n[i] ?? 0) * p * (1 - p);
      const r = (n[i] ?? 0) * ((y[i] ?? 0) - p);
      for (let a = 0; a < 3; a++) {
        g[a] = (g[a] ?? 0) + r * (features[a] ?? 0);
        const row = h[a] ?? [];
        for (let b = 0; b < 3; b++)
          row[b] = (row[b] ?? 0) + w * (features[a] ?? 0) * (features[b] ?? 0);
      }
    }
    const step = solve3(h, g);
    if (!step) return undefined;
    let scale = 1;
    let next: [number, number, number] = beta;
    let value = -Infinity;
    for (let halving = 0; halving < 30; halving++) {
      next = [beta[0] + scale * step[0], beta[1] + scale * step[1], beta[2] + scale * step[2]];
      value = logLikelihood(next);
      if (value >= current) break;
      scale /= 2;
    }
    if (!(value >= current)) break;
    const moved = Math.max(...[0, 1, 2].map((a) => Math.abs((next[a] ?? 0) - (beta[a] ?? 0))));
    beta = next;
    current = value;
    if (moved < 1e-9) break;
  }
  return beta.every(Number.isFinite) ? beta : undefined;
}

function softplus(t: number): number {
  return t > 0 ? t + Math.log1p(Math.exp(-t)) : Math.log1p(Math.exp(t));
}

/** Solves the 3x3 system m s = v (Gaussian elimination, partial pivoting); undefined if singular. */
function solve3(
  m: readonly (readonly number[])[],
  v: readonly number[],
): [number, number, number] | undefined {
  const a = m.map((row, i) => [...row, v[i] ?? 0]);
  for (let col = 0; col < 3; col++) {
    let pivot = col;
    for (let row = col + 1; row < 3; row++) {
      if (Math.abs(a[row]?.[col] ?? 0) > Math.abs(a[pivot]?.[col] ?? 0)) pivot = row;
    }
    const pivotRow = a[pivot] ?? [];
    if (Math.abs(pivotRow[col] ?? 0) < 1e-12) return undefined;
    [a[col], a[pivot]] = [pivotRow, a[col] ?? []];
    for (let row = col + 1; row < 3; row++) {
      const target = a[row] ?? [];
      const factor = (target[col] ?? 0) / (pivotRow[col] ?? 1);
      for (let k = col; k < 4; k++) target[k] = (target[k] ?? 0) - factor * (pivotRow[k] ?? 0);
    }
  }
  const s = [0, 0, 0];
  for (let row = 2; row >= 0; row--) {
    const r = a[row] ?? [];
    let sum = r[3] ?? 0;
    for (let k = row + 1; k < 3; k++) sum -= (r[k] ?? 0) * (s[k] ?? 0);
    s[row] = sum / (r[row] ?? 1);
  }
  return [s[0] ?? 0, s[1] ?? 0, s[2] ?? 0];
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
