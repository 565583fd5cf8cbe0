import { describe, expect, it } from 'vitest';
import { InstrumentCatalogue } from '../instruments/catalogue';
import { TestOnlyStrategy, testOnlyStrategy } from './test-only-strategy';

describe('TestOnlyStrategy', () => {
  it('signals on every n-th quote of each instrument, alternating sides', () => {
    const catalogue = new InstrumentCatalogue();
    const eurusd = catalogue.require('EURUSD');
    const strategy = new TestOnlyStrategy(3);
    const sides = [];
    for (let i = 1; i <= 9; i++) {
      const signal = strategy.onTick({ symbol: 'EURUSD', time: i, bid: 1.1, ask: 1.1001 }, eurusd);
      if (i % 3 === 0) sides.push(signal?.side);
      else expect(signal).toBeUndefined();
    }
    expect(sides).toEqual(['buy', 'sale', 'buy']);
    expect(testOnlyStrategy('always-signal')).toBeInstanceOf(TestOnlyStrategy);
    // The frequent one signals on the 10th quote, then every 10th.
    const frequent = testOnlyStrategy('frequent-signal');
    const signalled = [];
    for (let i = 1; i <= 30; i++) {
      if (frequent.onTick({ symbol: 'EURUSD', time: i, bid: 1.1, ask: 1.1001 }, eurusd)) {
        signalled.push(i);
      }
    }
    expect(signalled).toEqual([10, 20, 30]);
  });
});
