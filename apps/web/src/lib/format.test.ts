import { describe, expect, it } from 'vitest';
import {
  formatDateTime,
  formatLots,
  formatMoney,
  formatPercent,
  formatPrice,
  formatSignedMoney,
  toneOf,
} from './format';

// Intl may separate a currency code from its number with a no-break space.
const plain = (text: string) => text.replace(/\s/g, ' ');

describe('formatting in the user language (USD, Intl)', () => {
  it('writes money the way each language does', () => {
    expect(plain(formatMoney('es', 1234.5))).toBe('USD 1,234.50');
    expect(plain(formatMoney('pt', 1234.5))).toBe('US$ 1.234,50');
  });

  it('signs gains and losses, so colour is not the only cue, and leaves zero unsigned', () => {
    expect(plain(formatSignedMoney('es', 1.25))).toBe('+USD 1.25');
    expect(plain(formatSignedMoney('es', -0.4))).toBe('-USD 0.40');
    expect(plain(formatSignedMoney('pt', -0.4))).toBe('-US$ 0,40');
    expect(plain(formatSignedMoney('es', 0.001))).toBe('USD 0.00');
    expect(plain(formatSignedMoney('es', -0.004))).toBe('USD 0.00');
  });

  it('colours by the cents shown, not by dust', () => {
    expect(toneOf(0.01)).toBe('positive');
    expect(toneOf(-0.01)).toBe('negative');
    expect(toneOf(0.004)).toBe('neutral');
    expect(toneOf(-0.004)).toBe('neutral');
  });

  it('writes shares as percentages with one decimal at most', () => {
    expect(formatPercent('es', 0.5)).toBe('50%');
    expect(plain(formatPercent('pt', 0.1234))).toBe('12,3%');
  });

  it('keeps the digits a price came with, at least two', () => {
    expect(formatPrice('es', 1.08412)).toBe('1.08412');
    expect(formatPrice('pt', 1.08412)).toBe('1,08412');
    expect(formatPrice('es', 64000)).toBe('64,000.00');
    expect(formatPrice('es', 1e-7)).toBe('0.0000001');
  });

  it('writes lots with two decimals at most', () => {
    expect(formatLots('pt', 0.125)).toBe('0,13');
    expect(formatLots('es', 2)).toBe('2');
  });

  it('writes a time in the given zone, and a dash for a broken one', () => {
    expect(formatDateTime('pt', '2026-11-20T10:05:00.000Z', 'UTC')).toBe('20/11/2026, 10:05');
    expect(formatDateTime('es', '2026-11-20T22:05:00.000Z', 'UTC')).toBe('20/11/26, 22:05');
    expect(formatDateTime('es', 'not a date', 'UTC')).toBe('—');
  });
});
