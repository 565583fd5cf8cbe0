import { describe, expect, it } from 'vitest';
import { backoffDelay } from './backoff';

describe('backoffDelay', () => {
  it('doubles from the first wait, up to the cap', () => {
    const waits = [0, 1, 2, 3, 4, 5].map((retry) =>
      backoffDelay(retry, { firstMs: 250, capMs: 3_000 }),
    );
    expect(waits).toEqual([250, 500, 1_000, 2_000, 3_000, 3_000]);
  });

  it('stays at the cap however many retries came before (no overflow to Infinity or NaN)', () => {
    expect(backoffDelay(5_000, { firstMs: 1_000, capMs: 3_600_000 })).toBe(3_600_000);
  });

  it('with jitter, waits a random share of the exponential wait, never under half the first', () => {
    const at = (random: number) =>
      backoffDelay(3, { firstMs: 250, capMs: 30_000, jitter: true, random: () => random });
    expect(at(0)).toBe(125);
    expect(at(0.5)).toBe(1_000);
    expect(at(0.999)).toBeCloseTo(1_998, 0);
  });
});
