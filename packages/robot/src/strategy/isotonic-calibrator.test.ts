import { describe, expect, it } from 'vitest';
import { createSeededRandom } from '../random/random-source';
import { IsotonicCalibrator } from './isotonic-calibrator';
import { calibrationRows, ForecastMetrics } from './forecast-metrics';

/** Feeds `count` raw scores uniform over [0.5, 0.99), each hitting with probability truth(raw). */
function learnUniform(
  calibrator: IsotonicCalibrator,
  count: number,
  seed: number,
  truth: (raw: number) => number,
): void {
  const random = createSeededRandom(seed);
  for (let i = 0; i < count; i++) {
    const raw = 0.5 + 0.49 * random.next();
    calibrator.learn(raw, random.next() < truth(raw) ? 1 : 0);
  }
}

describe('IsotonicCalibrator', () => {
  it('says nothing measured before its first fit', () => {
    const calibrator = new IsotonicCalibrator();
    expect(calibrator.ready).toBe(false);
    expect(calibrator.calibrate(0.93)).toBe(0.93);
  });

  it('maps an overconfident score to the hit rate measured for it, never decreasing below its top share', () => {
    const calibrator = new IsotonicCalibrator({
      window: 40_000,
      refitEvery: 1_000,
      minimumBlock: 500,
    });
    // Raw scores claim p, the truth is 0.8 p: an overconfident model.
    learnUniform(calibrator, 40_000, 3, (raw) => 0.8 * raw);
    expect(calibrator.ready).toBe(true);
    for (const raw of [0.6, 0.75, 0.9, 0.97]) {
      expect(Math.abs(calibrator.calibrate(raw) - 0.8 * raw)).toBeLessThan(0.04);
    }
    // The top tenth (raw scores from about 0.94) gets the curve once it holds enough outcomes
    // (here it does not); below it the map is always monotone.
    let previous = 0;
    for (let raw = 0.5; raw < 0.93; raw += 0.005) {
      expect(calibrator.calibrate(raw)).toBeGreaterThanOrEqual(previous);
      previous = calibrator.calibrate(raw);
    }
  });

  it('gives the top share of raw scores a claim that follows their hit rate, not one step', () => {
    // A truth that rises steeply among the highest raw scores, as the robot's does.
    const truth = (raw: number) => 0.6 + 0.35 * ((raw - 0.5) / 0.49) ** 4;
    const learn = (topShare: number, minimumShare: number, seed: number) => {
      const calibrator = new IsotonicCalibrator({
        window: 200_000,
        refitEvery: 2_000,
        minimumBlock: 500,
        minimumShare,
        topShare,
        averaging: 1,
      });
      learnUniform(calibrator, 400_000, seed, truth);
      return calibrator;
    };
    const smooth = learn(0.2, 0.05, 5);
    const steps = learn(0, 0.2, 55);
    for (const raw of [0.92, 0.95, 0.98]) {
      expect(Math.abs(smooth.calibrate(raw) - truth(raw))).toBeLessThan(0.01);
    }
    // Steps of a fifth of the window (the top one from about 0.9) give 0.92 and 0.98 one
    // claim, several points off.
    expect(steps.calibrate(0.92)).toBe(steps.calibrate(0.98));
    expect(Math.abs(steps.calibrate(0.98) - truth(0.98))).toBeGreaterThan(0.03);
  });

  it('lets the claim fall at the far top when the hit rate does', () => {
    const truth = (raw: number) => (raw < 0.95 ? 0.9 * raw : 0.855 - 3 * (raw - 0.95));
    const calibrator = new IsotonicCalibrator({
      window: 200_000,
      refitEvery: 2_000,
      minimumBlock: 500,
      topShare: 0.2,
      averaging: 1,
    });
    learnUniform(calibrator, 200_000, 6, truth);
    expect(calibrator.calibrate(0.985)).toBeLessThan(calibrator.calibrate(0.95) - 0.03);
    expect(Math.abs(calibrator.calibrate(0.985) - truth(0.985))).toBeLessThan(0.02);
  });

  it('keeps to steps while the top share holds fewer outcomes than three steps of a full window', () => {
    // The default window (1,000,000) needs 60,000 outcomes in its top tenth before a curve.
    const calibrator = new IsotonicCalibrator();
    learnUniform(calibrator, 400_000, 7, (raw) => raw ** 3);
    let previous = 0;
    const claims = new Set<number>();
    for (let raw = 0.5; raw < 0.99; raw += 0.001) {
      expect(calibrator.calibrate(raw)).toBeGreaterThanOrEqual(previous);
      previous = calibrator.calibrate(raw);
      claims.add(previous);
    }
    // 200,000 outcomes in the window, steps of at least 4,000: at most 50 claims.
    expect(claims.size).toBeLessThanOrEqual(50);
  });

  it('reads the curve no further out than the scores with enough outcomes above them', () => {
    const random = createSeededRandom(8);
    const calibrator = new IsotonicCalibrator({
      window: 200_000,
      refitEvery: 2_000,
      minimumBlock: 1_500,
      topShare: 0.2,
      averaging: 1,
    });
    for (let i = 0; i < 200_000; i++) {
      // A few far-out scores that all hit: 40 among 200,000.
      const far = i % 5_000 === 0;
      const raw = far ? 0.997 : 0.5 + 0.47 * random.next();
      calibrator.learn(raw, far || random.next() < (raw > 0.85 ? 0.9 : 0.7) ? 1 : 0);
    }
    expect(Math.abs(calibrator.calibrate(0.96) - 0.9)).toBeLessThan(0.01);
    expect(Math.abs(calibrator.calibrate(0.997) - calibrator.calibrate(0.96))).toBeLessThan(0.01);
  });

  it('moves its claim by a share of what one window says, not all of it', () => {
    const calibrator = new IsotonicCalibrator({
      window: 2_000,
      refitEvery: 500,
      minimumBlock: 200,
      averaging: 0.1,
    });
    for (let i = 0; i < 100_000; i++) calibrator.learn(0.9, i % 2 === 0 ? 1 : 0);
    expect(calibrator.calibrate(0.9)).toBeCloseTo(0.5, 6);
    // A lucky window (every forecast hits), refitted four times: 1 - 0.9^4 of the way to 1.
    for (let i = 0; i < 2_000; i++) calibrator.learn(0.9, 1);
    expect(calibrator.calibrate(0.9)).toBeGreaterThan(0.5);
    expect(calibrator.calibrate(0.9)).toBeLessThan(0.5 + 0.5 * (1 - 0.9 ** 4) + 1e-9);
  });

  it('forgets outcomes older than its window', () => {
    const calibrator = new IsotonicCalibrator({
      window: 2_000,
      refitEvery: 500,
      minimumBlock: 200,
      averaging: 1,
    });
    for (let i = 0; i < 2_000; i++) calibrator.learn(0.9, 1);
    expect(calibrator.calibrate(0.9)).toBe(1);
    // A window and a refit later, the fit holds only the new outcomes.
    for (let i = 0; i < 2_500; i++) calibrator.learn(0.9, i % 2 === 0 ? 1 : 0);
    expect(calibrator.calibrate(0.9)).toBe(0.5);
  });

  it('holds no more than the later half of what it learned while young', () => {
    const calibrator = new IsotonicCalibrator({
      window: 100_000,
      refitEvery: 500,
      minimumBlock: 200,
      averaging: 1,
    });
    // 4,000 misses from a young regression, then 4,000 hits: the first half is forgotten.
    for (let i = 0; i < 4_000; i++) calibrator.learn(0.9, 0);
    for (let i = 0; i < 4_000; i++) calibrator.learn(0.9, 1);
    expect(calibrator.calibrate(0.9)).toBe(1);
  });

  it('keeps every step at least its share of the window', () => {
    const learn = (options: { minimumShare: number }, seed: number) => {
      const calibrator = new IsotonicCalibrator({
        window: 50_000,
        refitEvery: 1_000,
        minimumBlock: 100,
        topShare: 0,
        averaging: 1,
        ...options,
      });
      learnUniform(calibrator, 50_000, seed, (raw) => raw);
      const steps = new Set<number>();
      for (let raw = 0.5; raw < 0.99; raw += 0.001) steps.add(calibrator.calibrate(raw));
      return steps.size;
    };
    // The window holds the later half: 25,000 outcomes, so steps of 10% leave at most 10 (and
    // the top bin, with no share to cover, its own rate).
    expect(learn({ minimumShare: 0.1 }, 4)).toBeLessThanOrEqual(11);
    expect(learn({ minimumShare: 0 }, 44)).toBeGreaterThan(20);
  });
});

describe('calibrationRows', () => {
  it('groups a histogram into ten rows of about equal count, smallest forecasts first', () => {
    const counts = new Float64Array(1000);
    const hits = new Float64Array(1000);
    const sums = new Float64Array(1000);
    for (let bin = 900; bin < 1000; bin++) {
      counts[bin] = 10;
      hits[bin] = bin % 2 === 0 ? 10 : 9;
      sums[bin] = (10 * (bin + 0.5)) / 1000;
    }
    const rows = calibrationRows(counts, hits, sums);
    expect(rows.map((r) => r.count)).toEqual(Array(10).fill(100));
    expect(rows[0]?.claimed).toBeCloseTo(0.905, 6);
    expect(rows[9]?.claimed).toBeCloseTo(0.995, 6);
    expect(rows[0]?.hit).toBeCloseTo(0.95, 6);
    expect(calibrationRows(new Float64Array(10), hits, sums)).toEqual([]);
  });

  it('gives each row the standard error of its gap with an instrument-day as one cluster', () => {
    // 200 forecasts of 90% in four clusters of 50 that hit 50, 50, 40 and 40 times: 90% hit,
    // no gap, but the clusters disagree. Counted one by one the error would be
    // sqrt(0.9 x 0.1 / 200) = 2.1 points; by cluster, sqrt(4/3 x 4 x 5^2) / 200 = 5.8.
    const learn = (metrics: ForecastMetrics, cluster: string, hits: number) => {
      for (let i = 0; i < 50; i++) metrics.record(0.9, i < hits ? 1 : 0, true, 0.7, 0.85, cluster);
    };
    const first = new ForecastMetrics();
    learn(first, 'EURUSD 1', 50);
    learn(first, 'EURUSD 2', 40);
    const second = new ForecastMetrics();
    learn(second, 'GBPUSD 1', 50);
    learn(second, 'GBPUSD 2', 40);
    first.merge(second);
    const [row, ...others] = first.report().calibration;
    expect(others).toEqual([]);
    expect(row?.count).toBe(200);
    expect(row?.hit).toBeCloseTo(0.9, 9);
    expect(row?.standardError).toBeCloseTo(Math.sqrt((4 / 3) * 4 * 25) / 200, 9);

    // Without clusters there is no error to give, rather than a binomial one that claims more.
    const plain = new ForecastMetrics();
    for (let i = 0; i < 200; i++) plain.record(0.9, i % 10 === 0 ? 0 : 1, true, 0.7, 0.85);
    expect(plain.report().calibration[0]?.standardError).toBeUndefined();
  });
});
