import { InstrumentCatalogue } from '@tradebot/robot';
import { describe, expect, it } from 'vitest';
import { operationCurrency, positionValue } from './trading-rows';

/** An operation stored before migration 0023: no currency of its own. */
const before0023 = (positionId: string) => ({ positionId, currency: null });

describe('the currency of an operation (decisions 097, 103)', () => {
  const link = { ctidTraderAccountId: 4_400_202, currency: 'BRL' };

  it('is the one stored with it, whatever the account is linked to now', () => {
    expect(operationCurrency({ positionId: 'ct4400101-7', currency: 'BRL' }, link)).toBe('BRL');
    const platform = { ctidTraderAccountId: null, currency: 'USD' };
    expect(operationCurrency({ positionId: 'ct4400101-7', currency: 'BRL' }, platform)).toBe('BRL');
    expect(operationCurrency({ positionId: 'P17', currency: 'USD' }, link)).toBe('USD');
  });

  it('is USD on the built-in platform, whatever the account is linked to now', () => {
    expect(operationCurrency(before0023('P17'), link)).toBe('USD');
    expect(
      operationCurrency(before0023('P17'), { ctidTraderAccountId: null, currency: 'USD' }),
    ).toBe('USD');
  });

  it("is the linked broker account's for its own positions, and unknown for a former link's", () => {
    expect(operationCurrency(before0023('ct4400202-1002'), link)).toBe('BRL');
    expect(operationCurrency(before0023('ct4400101-7'), link)).toBeNull();
    expect(operationCurrency(before0023('ct44002020-7'), link)).toBeNull();
    expect(
      operationCurrency(before0023('ct4400202-7'), { ctidTraderAccountId: null, currency: 'USD' }),
    ).toBe(null);
  });
});

// Issue 39: lots alone told a beginner nothing; each operation says what it is worth (156).
describe('the value of an operation in its currency (decision 156)', () => {
  const catalogue = new InstrumentCatalogue();
  const value = (symbol: string, units: number, entryPrice: number, currency: string | null) =>
    positionValue({ units, entryPrice }, catalogue.require(symbol), currency);

  it('is units × opening price when the instrument is quoted in that currency', () => {
    expect(value('EURUSD', 10_000, 1.08412, 'USD')).toBe(10_841.2);
    expect(value('BTCUSD', 0.05, 62_345.67, 'USD')).toBe(3_117.28);
    expect(value('AAPL.US', 3, 227.52, 'USD')).toBe(682.56);
  });

  it('is the units themselves when they are that currency', () => {
    expect(value('USDJPY', 20_000, 151.234, 'USD')).toBe(20_000);
  });

  it('is not guessed where it needs an exchange rate or the currency is unknown', () => {
    expect(value('EURGBP', 10_000, 0.8612, 'USD')).toBeNull();
    expect(value('EURUSD', 10_000, 1.08412, 'BRL')).toBeNull();
    expect(value('EURUSD', 10_000, 1.08412, null)).toBeNull();
  });
});
