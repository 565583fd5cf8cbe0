import { describe, expect, it } from 'vitest';
import { centsToDollars, dollarsToCents, dollarsToCentsRoundedUp } from './minor-units';

describe('dollarsToCents', () => {
  it.each([
    [1.234, 123],
    [1.236, 124],
    [0.125, 12],
    [0.135, 14],
    [-0.125, -12],
    [-0.135, -14],
    [-0.001, 0],
    [10.005, 1000], // 10.005 is 1000.4999... cents in binary floating point
    [0, 0],
  ])('%d dollars -> %d cents', (dollars, cents) => {
    expect(dollarsToCents(dollars)).toBe(cents);
  });

  it('never yields negative zero', () => {
    expect(Object.is(dollarsToCents(-0.001), 0)).toBe(true);
  });
});

describe('dollarsToCentsRoundedUp', () => {
  it('rounds margin up, but not exact values', () => {
    expect(dollarsToCentsRoundedUp(10.001)).toBe(1001);
    expect(dollarsToCentsRoundedUp(10.01)).toBe(1001);
    expect(dollarsToCentsRoundedUp(1000 / 30)).toBe(3334);
  });
});

describe('centsToDollars', () => {
  it('converts back for display', () => {
    expect(centsToDollars(12345)).toBe(123.45);
  });
});
