import { describe, expect, it } from 'vitest';
import { LoopedQuoteFeed } from './looped-quote-feed';
import type { QuoteSeries } from './recorded-quotes';
import type { Tick } from './tick';

const dayMs = 86_400_000;
const weekMs = 7 * dayMs;
/** Monday 5 May 2014, 00:00 UTC: the OANDA sample's first week. */
const may5 = Date.parse('2014-05-05T00:00:00Z');

function series(symbol: string, times: number[]): QuoteSeries {
  return {
    symbol,
    length: times.length,
    times: Float64Array.from(times),
    bids: Float64Array.from(times, (_, i) => 1 + i / 100),
    asks: Float64Array.from(times, (_, i) => 1.0001 + i / 100),
    crossed: 0,
    files: [],
  };
}

function collect(feed: LoopedQuoteFeed): Tick[] {
  const seen: Tick[] = [];
  feed.subscribe((tick) => seen.push(tick));
  return seen;
}

describe('LoopedQuoteFeed (decision 140)', () => {
  const recording = [
    series('EURUSD', [may5 + 9 * 3_600_000, may5 + 9 * 3_600_000 + 1_000, may5 + 8 * dayMs]),
    series('NZDUSD', [may5 + 9 * 3_600_000 + 500]),
  ];

  it('loops the recording in whole weeks, so a weekday and hour of the clock play the same of the recording', () => {
    // Nine and a bit days recorded: a loop of two weeks.
    const feed = new LoopedQuoteFeed(recording, may5);
    expect(feed.loopMs).toBe(2 * weekMs);
    // A Monday 08:00 UTC years later, a whole number of loops after the recording's first quote.
    const loops = 300;
    const monday = may5 + 9 * 3_600_000 + loops * 2 * weekMs - 3_600_000;
    const later = new LoopedQuoteFeed(recording, monday);
    const seen = collect(later);
    later.advanceTo(monday);
    // Before 09:00 the previous loop still plays: each instrument's latest quote of it.
    expect(seen.map((t) => [t.symbol, t.time - monday])).toEqual([
      ['NZDUSD', -2 * weekMs + 3_600_000 + 500],
      ['EURUSD', -6 * dayMs - 8 * 3_600_000],
    ]);
    later.advanceTo(monday + 3_600_000 + 600);
    expect(seen.slice(2).map((t) => [t.symbol, t.time - monday])).toEqual([
      ['EURUSD', 3_600_000],
      ['NZDUSD', 3_600_000 + 500],
    ]);
    expect(new Date(seen[2]?.time ?? 0).getUTCDay()).toBe(1);
    expect(new Date(seen[2]?.time ?? 0).getUTCHours()).toBe(9);
    expect(seen[2]).toMatchObject({ bid: 1, ask: 1.0001 });
    expect(later.nextTime()).toBe(monday + 3_600_000 + 1_000);
  });

  it('starts each instrument at its latest quote before the start, and starts the loop again after its end', () => {
    // Wednesday of the recording's first week, a loop later: EURUSD's last quote was Monday's.
    const start = may5 + 2 * dayMs + 2 * weekMs;
    const feed = new LoopedQuoteFeed(recording, start);
    const seen = collect(feed);
    feed.advanceTo(start);
    expect(seen.map((t) => [t.symbol, t.time - (start - 2 * dayMs)])).toEqual([
      ['NZDUSD', 9 * 3_600_000 + 500],
      ['EURUSD', 9 * 3_600_000 + 1_000],
    ]);
    // On through the second week's quote and into the next loop's Monday.
    feed.advanceTo(start - 2 * dayMs + 2 * weekMs + 9 * 3_600_000 + 500);
    expect(seen.slice(2).map((t) => [t.symbol, t.time - (start - 2 * dayMs)])).toEqual([
      ['EURUSD', 8 * dayMs],
      ['EURUSD', 2 * weekMs + 9 * 3_600_000],
      ['NZDUSD', 2 * weekMs + 9 * 3_600_000 + 500],
    ]);
    // Times never go back, and the same instant twice publishes nothing new.
    const times = seen.map((t) => t.time);
    expect([...times].sort((a, b) => a - b)).toEqual(times);
    feed.advanceTo(start - 2 * dayMs + 2 * weekMs + 9 * 3_600_000 + 500);
    expect(seen).toHaveLength(5);
    expect(feed.lastQuotes().map((t) => t.symbol)).toEqual(['EURUSD', 'NZDUSD']);
  });

  it('refuses a recording without quotes', () => {
    expect(() => new LoopedQuoteFeed([series('EURUSD', [])], may5)).toThrow(/at least one quote/);
  });
});
