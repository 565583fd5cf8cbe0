import { categories } from '@tradebot/contract';
import { describe, expect, it } from 'vitest';
import { InstrumentCatalogue } from './catalogue';
import { isMarketOpen } from './trading-hours';

const catalogue = new InstrumentCatalogue();
const at = (iso: string) => Date.parse(iso);

describe('instrument catalogue', () => {
  it('lists more than 400 instruments with unique symbols in every category', () => {
    expect(catalogue.instruments.length).toBeGreaterThanOrEqual(400);
    for (const category of categories)
      expect(catalogue.inCategory(category).length).toBeGreaterThan(10);
  });

  it('gives every instrument coherent trading figures', () => {
    for (const i of catalogue.instruments) {
      expect(i.outputName, i.symbol).not.toBe('');
      expect(i.icon1 && i.icon2, i.symbol).toBeTruthy();
      expect(i.pipSize, i.symbol).toBeGreaterThanOrEqual(10 ** -i.digits);
      expect(i.typicalSpreadPips, i.symbol).toBeGreaterThan(0);
      expect(i.referencePrice, i.symbol).toBeGreaterThan(i.pipSize * 10);
      expect(i.unitStep, i.symbol).toBeGreaterThan(0);
      expect(i.annualVolatility, i.symbol).toBeGreaterThan(0);
    }
  });

  it('caps leverage at the ESMA retail levels', () => {
    const leverage = (symbol: string) => catalogue.require(symbol).leverage;
    expect(leverage('EURUSD')).toBe(30);
    expect(leverage('USDJPY')).toBe(30);
    expect(leverage('EURCAD')).toBe(30);
    expect(leverage('AUDUSD')).toBe(20); // AUD is not an ESMA major currency
    expect(leverage('USDTRY')).toBe(20);
    expect(leverage('XAUUSD')).toBe(20);
    expect(leverage('US500')).toBe(20);
    expect(leverage('HK50')).toBe(10);
    expect(leverage('USOIL')).toBe(10);
    expect(leverage('XAGUSD')).toBe(10);
    expect(leverage('AAPL.US')).toBe(5);
    expect(leverage('BTCUSD')).toBe(2);
  });

  it('uses market pip conventions', () => {
    expect(catalogue.require('EURUSD')).toMatchObject({ digits: 5, pipSize: 0.0001 });
    expect(catalogue.require('USDJPY')).toMatchObject({ digits: 3, pipSize: 0.01 });
    expect(catalogue.require('XAUUSD')).toMatchObject({ pipSize: 0.1 });
    expect(catalogue.require('AAPL.US')).toMatchObject({ digits: 2, pipSize: 0.01 });
    expect(catalogue.require('7203.JP')).toMatchObject({ digits: 0, pipSize: 1 });
  });

  it('keeps each market in its own hours', () => {
    const saturday = at('2024-06-15T12:00:00Z');
    expect(isMarketOpen(catalogue.require('BTCUSD').schedule, saturday)).toBe(true);
    expect(isMarketOpen(catalogue.require('EURUSD').schedule, saturday)).toBe(false);
    const tuesdayNoonUtc = at('2024-06-11T12:00:00Z');
    expect(isMarketOpen(catalogue.require('SAP.DE').schedule, tuesdayNoonUtc)).toBe(true);
    expect(isMarketOpen(catalogue.require('AAPL.US').schedule, tuesdayNoonUtc)).toBe(false);
    // US index CFDs pause for an hour at 17:00 New York (21:00 UTC in summer).
    expect(isMarketOpen(catalogue.require('US500').schedule, at('2024-06-11T21:30:00Z'))).toBe(
      false,
    );
    expect(isMarketOpen(catalogue.require('US500').schedule, at('2024-06-11T22:30:00Z'))).toBe(
      true,
    );
  });

  it('rejects duplicate symbols', () => {
    const [first] = catalogue.instruments;
    if (!first) throw new Error('empty catalogue');
    expect(() => new InstrumentCatalogue([first, first])).toThrow(/Duplicate/);
  });
});
