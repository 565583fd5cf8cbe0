import { describe, expect, it } from 'vitest';
import { operationCurrency } from './trading-rows';

describe('the currency of an operation (decision 097)', () => {
  const link = { ctidTraderAccountId: 4_400_202, currency: 'BRL' };

  it('is USD on the built-in platform, whatever the account is linked to now', () => {
    expect(operationCurrency('P17', link)).toBe('USD');
    expect(operationCurrency('P17', { ctidTraderAccountId: null, currency: 'USD' })).toBe('USD');
  });

  it("is the linked broker account's for its own positions, and unknown for a former link's", () => {
    expect(operationCurrency('ct4400202-1002', link)).toBe('BRL');
    expect(operationCurrency('ct4400101-7', link)).toBeNull();
    expect(operationCurrency('ct44002020-7', link)).toBeNull();
    expect(operationCurrency('ct4400202-7', { ctidTraderAccountId: null, currency: 'USD' })).toBe(
      null,
    );
  });
});
