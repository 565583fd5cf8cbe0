import { describe, expect, it } from 'vitest';
import { InstrumentCatalogue } from '../../src/instruments/catalogue';
import { isMarketOpen } from '../../src/instruments/trading-hours';
import { BTCUSD } from './fixtures';

describe('the fake broker BTCUSD', () => {
  it('is our catalogue crypto BTCUSD, whose market is open every day, weekends included', () => {
    const instrument = new InstrumentCatalogue().get(BTCUSD.symbolName);
    expect(instrument?.category).toBe('cripto');
    for (const time of ['2026-11-26T10:00:00Z', '2026-11-28T10:00:00Z', '2026-11-29T03:00:00Z']) {
      expect(instrument && isMarketOpen(instrument.schedule, Date.parse(time))).toBe(true);
    }
  });
});
