import { describe, expect, it } from 'vitest';
import { GaussianSampler, createSeededRandom, deriveSeed } from './random-source';

describe('createSeededRandom', () => {
  it('repeats the same stream for the same seed and differs for another seed', () => {
    const draw = (seed: number) => {
      const random = createSeededRandom(seed);
      return Array.from({ length: 20 }, () => random.next());
    };
    expect(draw(42)).toEqual(draw(42));
    expect(draw(42)).not.toEqual(draw(43));
  });

  it('stays in [0, 1) and looks uniform', () => {
    const random = createSeededRandom(7);
    const buckets = new Array<number>(10).fill(0);
    const n = 100_000;
    let outOfRange = 0;
    for (let i = 0; i < n; i++) {
      const x = random.next();
      if (x < 0 || x >= 1) outOfRange++;
      const bucket = Math.floor(x * 10);
      buckets[bucket] = (buckets[bucket] ?? 0) + 1;
    }
    expect(outOfRange).toBe(0);
    for (const count of buckets) expect(Math.abs(count - n / 10)).toBeLessThan(600);
  });

  it('derives distinct streams', () => {
    expect(deriveSeed(1, 0)).not.toBe(deriveSeed(1, 1));
    expect(deriveSeed(1, 0)).not.toBe(deriveSeed(2, 0));
  });
});

describe('GaussianSampler', () => {
  it('has mean 0 and variance 1', () => {
    const gaussian = new GaussianSampler(createSeededRandom(3));
    const n = 100_000;
    let sum = 0;
    let sumSquares = 0;
    for (let i = 0; i < n; i++) {
      const x = gaussian.next();
      sum += x;
      sumSquares += x * x;
    }
    expect(Math.abs(sum / n)).toBeLessThan(0.02);
    expect(Math.abs(sumSquares / n - 1)).toBeLessThan(0.03);
  });
});
