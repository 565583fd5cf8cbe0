import { describe, expect, it } from 'vitest';
import {
  isMarketOpen,
  latestWeekdayAt,
  mondayToFriday,
  nextOpening,
  session,
  sessionPosition,
  sundayToThursday,
  timeZoneOffsetMs,
  type TradingSchedule,
} from './trading-hours';

const forex: TradingSchedule = {
  kind: 'weekly',
  timeZone: 'America/New_York',
  sessions: [session(sundayToThursday, '17:00', '17:00')],
};
const nyse: TradingSchedule = {
  kind: 'weekly',
  timeZone: 'America/New_York',
  sessions: [session(mondayToFriday, '09:30', '16:00')],
};
const tokyo: TradingSchedule = {
  kind: 'weekly',
  timeZone: 'Asia/Tokyo',
  sessions: [session(mondayToFriday, '09:00', '11:30'), session(mondayToFriday, '12:30', '15:30')],
};
const at = (iso: string) => Date.parse(iso);

describe('timeZoneOffsetMs', () => {
  it('follows daylight saving in New York and London', () => {
    expect(timeZoneOffsetMs('America/New_York', at('2024-01-15T12:00:00Z'))).toBe(-5 * 3_600_000);
    expect(timeZoneOffsetMs('America/New_York', at('2024-07-15T12:00:00Z'))).toBe(-4 * 3_600_000);
    expect(timeZoneOffsetMs('Europe/London', at('2024-03-31T00:59:00Z'))).toBe(0);
    expect(timeZoneOffsetMs('Europe/London', at('2024-03-31T01:00:00Z'))).toBe(3_600_000);
  });
});

describe('forex: 24/5 from Sunday 17:00 New York', () => {
  it('opens on Sunday 17:00 local in winter and in summer', () => {
    expect(isMarketOpen(forex, at('2024-01-14T21:59:00Z'))).toBe(false); // Sun 16:59 EST
    expect(isMarketOpen(forex, at('2024-01-14T22:00:00Z'))).toBe(true); // Sun 17:00 EST
    expect(isMarketOpen(forex, at('2024-07-14T20:59:00Z'))).toBe(false); // Sun 16:59 EDT
    expect(isMarketOpen(forex, at('2024-07-14T21:00:00Z'))).toBe(true); // Sun 17:00 EDT
  });

  it('stays open through the week and closes on Friday 17:00', () => {
    expect(isMarketOpen(forex, at('2024-01-17T03:00:00Z'))).toBe(true);
    expect(isMarketOpen(forex, at('2024-01-19T21:59:00Z'))).toBe(true); // Fri 16:59
    expect(isMarketOpen(forex, at('2024-01-19T22:00:00Z'))).toBe(false); // Fri 17:00
    expect(isMarketOpen(forex, at('2024-01-20T12:00:00Z'))).toBe(false); // Saturday
  });

  it('restarts the session at the daily 17:00 rollover', () => {
    expect(sessionPosition(forex, at('2024-01-16T22:01:00Z'))?.sinceOpen).toBeCloseTo(1);
    expect(sessionPosition(forex, at('2024-01-16T21:58:00Z'))?.untilClose).toBeCloseTo(2);
  });
});

describe('exchange hours', () => {
  it('opens NYSE at 09:30 New York time across DST', () => {
    expect(isMarketOpen(nyse, at('2024-03-08T14:30:00Z'))).toBe(true); // Fri 09:30 EST
    expect(isMarketOpen(nyse, at('2024-03-11T13:30:00Z'))).toBe(true); // Mon 09:30 EDT
    expect(isMarketOpen(nyse, at('2024-03-11T13:29:00Z'))).toBe(false);
    expect(isMarketOpen(nyse, at('2024-03-11T20:00:00Z'))).toBe(false); // 16:00 EDT
  });

  it('honours the Tokyo lunch break', () => {
    expect(isMarketOpen(tokyo, at('2024-05-13T02:00:00Z'))).toBe(true); // 11:00 JST
    expect(isMarketOpen(tokyo, at('2024-05-13T03:00:00Z'))).toBe(false); // 12:00 JST
    expect(isMarketOpen(tokyo, at('2024-05-13T03:30:00Z'))).toBe(true); // 12:30 JST
  });

  it('treats always-open markets as open', () => {
    expect(isMarketOpen({ kind: 'always' }, at('2024-01-20T12:00:00Z'))).toBe(true);
  });
});

describe('the next opening (decision 147)', () => {
  it('finds Monday 09:30 New York from a weekend, across the DST change', () => {
    expect(nextOpening(nyse, at('2024-03-09T12:00:00Z'))).toBe(at('2024-03-11T13:30:00Z'));
    expect(nextOpening(nyse, at('2024-01-20T12:00:00Z'))).toBe(at('2024-01-22T14:30:00Z'));
  });

  it('finds the same day after the close and after the lunch break, never the instant given', () => {
    expect(nextOpening(tokyo, at('2024-05-13T03:00:00Z'))).toBe(at('2024-05-13T03:30:00Z'));
    expect(nextOpening(nyse, at('2024-03-11T13:30:00Z'))).toBe(at('2024-03-12T13:30:00Z'));
  });

  it("does not take forex's daily rollover for an opening", () => {
    expect(nextOpening(forex, at('2024-01-17T03:00:00Z'))).toBe(at('2024-01-21T22:00:00Z'));
  });

  it('says none for a market that never closes', () => {
    expect(nextOpening({ kind: 'always' }, at('2024-01-20T12:00:00Z'))).toBeUndefined();
  });
});

describe('the latest weekday at a time (issue 41)', () => {
  const wednesday15 = (now: string) => new Date(latestWeekdayAt(3, 15 * 60, at(now))).toISOString();

  it('goes back to the latest Wednesday 15:00 UTC at or before now', () => {
    expect(wednesday15('2026-11-28T05:00:00Z')).toBe('2026-11-25T15:00:00.000Z'); // Saturday
    expect(wednesday15('2026-11-25T16:00:00Z')).toBe('2026-11-25T15:00:00.000Z');
    expect(wednesday15('2026-11-25T15:00:00Z')).toBe('2026-11-25T15:00:00.000Z');
    expect(wednesday15('2026-11-25T14:59:59Z')).toBe('2026-11-18T15:00:00.000Z');
    expect(wednesday15('2026-11-26T01:00:00Z')).toBe('2026-11-25T15:00:00.000Z');
    expect(wednesday15('2026-03-01T00:00:00Z')).toBe('2026-02-25T15:00:00.000Z');
  });
});
