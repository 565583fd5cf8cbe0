import { numberLocaleOf } from '@tradebot/contract';
import { describe, expect, it } from 'vitest';
import { installMemoryStorage } from '../test/memory-storage';
import { formatCents, formatLots, formatMoney, formatPrice, formatSignedMoney } from './format';
import { rememberCountry } from './number-locale';

// Intl may separate a currency code from its number with a no-break space.
const plain = (text: string) => text.replace(/\s/g, ' ');

describe('numbers and money in the reader’s language and country (decision 089)', () => {
  it('takes the country for Spanish, and Brazil’s way for Portuguese anywhere', () => {
    expect(numberLocaleOf('es', 'AR')).toBe('es-AR');
    expect(numberLocaleOf('es', 'CO')).toBe('es-CO');
    expect(numberLocaleOf('es', 'MX')).toBe('es-MX');
    expect(numberLocaleOf('es', '')).toBe('es');
    // A country outside Spanish-speaking America keeps the Latin American default.
    expect(numberLocaleOf('es', 'US')).toBe('es');
    expect(numberLocaleOf('es', 'BR')).toBe('es');
    expect(numberLocaleOf('pt', 'AR')).toBe('pt');
    expect(numberLocaleOf('pt', 'BR')).toBe('pt');
  });

  it('writes "10.000,00" in Argentina, Colombia and Chile, "10,000.00" in Mexico', () => {
    expect(plain(formatMoney(numberLocaleOf('es', 'AR'), 10_000))).toBe('US$ 10.000,00');
    expect(plain(formatMoney(numberLocaleOf('es', 'CO'), 10_000))).toBe('US$ 10.000,00');
    expect(plain(formatMoney(numberLocaleOf('es', 'CL'), 10_000))).toMatch(/^US\$ ?10\.000,00$/);
    expect(plain(formatMoney(numberLocaleOf('es', 'MX'), 10_000))).toBe('USD 10,000.00');
    expect(plain(formatMoney(numberLocaleOf('es', ''), 10_000))).toBe('USD 10,000.00');
    expect(plain(formatMoney(numberLocaleOf('pt', 'BR'), 10_000))).toBe('US$ 10.000,00');
  });

  it('signs, cents, prices and lots follow the same locale', () => {
    const argentina = numberLocaleOf('es', 'AR');
    expect(plain(formatSignedMoney(argentina, -48.02))).toBe('-US$ 48,02');
    expect(plain(formatCents(argentina, 123_456))).toBe('US$ 1.234,56');
    expect(formatPrice(argentina, 1.08345)).toBe('1,08345');
    expect(formatLots(argentina, 5739.5)).toBe('5.739,5');
    expect(formatLots(numberLocaleOf('es', 'MX'), 5739.5)).toBe('5,739.5');
  });

  it('keeps only a two-letter country code, for the next visits', () => {
    const restore = installMemoryStorage();
    rememberCountry('AR');
    expect(localStorage.getItem('tradebot.country')).toBe('AR');
    rememberCountry('argentina');
    rememberCountry('');
    expect(localStorage.getItem('tradebot.country')).toBe('AR');
    restore();
  });
});
