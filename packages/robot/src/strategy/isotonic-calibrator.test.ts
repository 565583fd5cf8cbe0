import { describe, expect, it } from 'vitest';
import { createSeededRandom } from '../random/random-source';
import { IsotonicCalibrator } from './isotonic-calibrator';
import { calibrationRows, ForecastMetrics } from './forecast-metrics';

describe('IsotonicCalibrator', () => {
  it('says nothing measured before its first fit', () => {
    const calibrator = new IsotonicCalibrator();
    expect(calibrator.ready).toBe(false);
    expect(calibrator.calibrate(0.93)).toBe(0.93);
  });

  it('maps an overconfident score to the hit rate measured for it, never decreasing', () => {
    const random = createSeededRandom(3);
    const calibrator = new IsotonicCalibrator({
      window: 40_000,
      refitEvery: 1_000,
      minimumBlock: 500,
    });
    // Raw scores claim p, the truth is 0.8 p: an overconfident model.
    for (let i = 0; i < 40_000; i++) {
      const raw = 0.5 + 0.49 * random.next();
      calibrator.learn(raw, random.next() < 0.8 * raw ? 1 : 0);
    }
    expect(calibrator.ready).toBe(true);
    for (const raw of [0.6, 0.75, 0.9]) {
      expect(Math.abs(calibrator.calibrate(raw) - 0.8 * raw)).toBeLessThan(0.04);
    }
    let previous = 0;
    for (let raw = 0.5; raw < 0.99; raw += 0.005) {
      expect(calibrator.calibrate(raw)).toBeGreaterThanOrEqual(previous);
      previous = calibrator.calibrate(raw);
    }
  });

  it('forgets outcomes older than its window', () => {
    const calibrator = new IsotonicCalibrator({
      window: 2_000,
      refitEvery: 500,
      minimumBlock: 200,
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
    });
    // 4,000 misses from a young regression, then 4,000 hits: the first half is forgotten.
    for (let i = 0; i < 4_000; i++) calibrator.learn(0.9, 0);
    for (let i = 0; i < 4_000; i++) calibrator.learn(0.9, 1);
    expect(calibrator.calibrate(0.9)).toBe(1);
  });

  it('keeps every step at least its share of the window', () => {
    const random = createSeededRandom(4);
    const learn = (options: { minimumShare: number }) => {
      const calibrator = new IsotonicCalibrator({
        window: 50_000,
        refitEvery: 1_000,
        minimumBlock: 100,
        ...options,
      });
      for (let i = 0; i < 50_000; i++) {
        const raw = 0.5 + 0.49 * random.next();
        calibrator.learn(raw, random.next() < raw ? 1 : 0);
      }
      const steps = new Set<number>();
      for (let raw = 0.5; raw < 0.99; raw += 0.001) steps.add(calibrator.calibrate(raw));
      return steps.size;
    };
    // The window holds the later half: 25,000 outcomes, so steps of 10% leave at most 10.
    expect(learn({ minimumShare: 0.1 })).toBeLessThanOrEqual(10);
    expect(learn({ minimumShare: 0 })).toBeGreaterThan(20);
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
