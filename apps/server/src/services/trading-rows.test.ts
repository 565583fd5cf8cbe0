import { describe, expect, it } from 'vitest';
import { operationCurrency } from './trading-rows';

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
