/**
 * Online logistic regression trained by stochastic gradient descent on log loss. Minimising log
 * loss is what makes its outputs usable as probabilities (they are then checked, out of sample,
 * with the Brier score rather than trusted).
 */
export class OnlineLogisticRegression {
  readonly weights: Float64Array;
  private updates = 0;

  constructor(
    size: number,
    private readonly learningRate = 0.05,
    private readonly l2 = 1e-4,
  ) {
    this.weights = new Float64Array(size);
  }

  get samplesSeen(): number {
    return this.updates;
  }

  predict(features: ArrayLike<number>): number {
    let z = 0;
    for (let i = 0; i < this.weights.length; i++) z += (this.weights[i] ?? 0) * (features[i] ?? 0);
    return sigmoid(z);
  }

  learn(features: ArrayLike<number>, label: 0 | 1): void {
    const error = label - this.predict(features);
    // A decaying step: fast at first, then stable (1/sqrt(t) schedule with a floor). The floor
    // is low so that a score means the same thing for as long as the calibrator's window lasts
    // (decision 093): a regression that swings with each trend would move its scores under it.
    this.updates++;
    const rate = Math.max(
      this.learningRate / Math.sqrt(1 + this.updates / 1000),
      this.learningRate / 100,
    );
    for (let i = 0; i < this.weights.length; i++) {
      const w = this.weights[i] ?? 0;
      this.weights[i] = w + rate * (error * (features[i] ?? 0) - this.l2 * w);
    }
  }
}

export function sigmoid(z: number): number {
  if (z >= 0) return 1 / (1 + Math.exp(-z));
  const e = Math.exp(z);
  return e / (1 + e);
}
