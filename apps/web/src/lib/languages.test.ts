import * as contract from '@tradebot/contract';
import { describe, expect, it } from 'vitest';
import { defaultLanguage, isLanguage, languages } from './languages';

describe('the web mirror of the contract languages', () => {
  it('lists the same languages, default first', () => {
    expect(languages).toEqual(contract.languages);
    expect(defaultLanguage).toBe(contract.defaultLanguage);
  });

  it.each(['es', 'pt', 'en', '', null, 1])('isLanguage(%j) agrees with the contract', (value) => {
    expect(isLanguage(value)).toBe(contract.isLanguage(value));
  });
});
