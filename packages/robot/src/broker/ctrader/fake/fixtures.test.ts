import { describe, expect, it } from 'vitest';
import { InstrumentCatalogue } from '../../../instruments/catalogue';
import { isMarketOpen } from '../../../instruments/trading-hours';
import { BTCUSD, eurusdOpenAt } from './fixtures';

describe('eurusdOpenAt', () => {
  it('is open on a weekday and closed at the weekend, as our catalogue trades forex', () => {
    expect(eurusdOpenAt(Date.parse('2026-11-26T10:00:00Z'))).toBe(true); // Thursday
    expect(eurusdOpenAt(Date.parse('2026-11-28T10:00:00Z'))).toBe(false); // Saturday
    expect(eurusdOpenAt(Date.parse('2026-11-29T12:00:00Z'))).toBe(false); // Sunday noon
  });
});

describe('the fake broker BTCUSD', () => {
  it('is our catalogue crypto BTCUSD, whose market is open every day, weekends included', () => {
    const instrument = new InstrumentCatalogue().get(BTCUSD.symbolName);
    expect(instrument?.category).toBe('cripto');
    for (const time of ['2026-11-26T10:00:00Z', '2026-11-28T10:00:00Z', '2026-11-29T03:00:00Z']) {
      expect(instrument && isMarketOpen(instrument.schedule, Date.parse(time))).toBe(true);
    }
  });
});
