import { describe, expect, it } from 'vitest';
import { closedFor, FOREX_HOURS } from '../../../test-support/ctrader-fake/fixtures';
import { brokerHours, brokerSession, secondOfWeek, type BrokerHours } from './schedule';

const at = (iso: string) => Date.parse(iso);
const day = 86_400;

describe("a cTrader symbol's hours (ProtoOASymbol schedule and holiday)", () => {
  it('reads the schedule, its time zone and holidays as the message carries them', () => {
    const hours = brokerHours({
      symbolId: 1,
      scheduleTimeZone: 'Europe/London',
      schedule: [{ startSecond: 79_200, endSecond: 507_600 }],
      holiday: [
        {
          holidayId: 7,
          name: 'Boxing Day',
          scheduleTimeZone: 'Europe/London',
          holidayDate: 20_813,
          isRecurring: true,
        },
      ],
    });
    expect(hours).toEqual({
      timeZone: 'Europe/London',
      intervals: [{ startSecond: 79_200, endSecond: 507_600 }],
      // No start or end given: the whole day.
      holidays: [
        {
          name: 'Boxing Day',
          timeZone: 'Europe/London',
          holidayDate: 20_813,
          isRecurring: true,
          startSecond: 0,
          endSecond: day,
        },
      ],
    });
    // A symbol with no interval listed trades at no time.
    expect(brokerSession(brokerHours({ symbolId: 2 }), at('2026-07-15T12:00:00Z'))).toBe('closed');
  });

  it('counts seconds from Sunday 00:00 in the schedule time zone, daylight saving included', () => {
    // Monday 2026-07-13 00:00 in New York (EDT, UTC-4) and 2026-01-12 00:00 (EST, UTC-5).
    expect(secondOfWeek('America/New_York', at('2026-07-13T04:00:00Z'))).toBe(day);
    expect(secondOfWeek('America/New_York', at('2026-01-12T05:00:00Z'))).toBe(day);
    expect(secondOfWeek('UTC', at('2026-07-12T00:00:00Z'))).toBe(0);
    expect(secondOfWeek('UTC', at('2026-07-18T23:59:59Z'))).toBe(7 * day - 1);
  });

  it('opens at an interval start (inclusive) and closes at its end (exclusive), in New York time', () => {
    // Summer: the 17:00 New York rollover is 21:00 UTC; the 5-minute break ends at 21:05.
    expect(brokerSession(FOREX_HOURS, at('2026-07-14T20:59:59Z'))).toBe('open');
    expect(brokerSession(FOREX_HOURS, at('2026-07-14T21:00:00Z'))).toBe('closed');
    expect(brokerSession(FOREX_HOURS, at('2026-07-14T21:04:59Z'))).toBe('closed');
    expect(brokerSession(FOREX_HOURS, at('2026-07-14T21:05:00Z'))).toBe('open');
    // Winter: the same break an hour later in UTC.
    expect(brokerSession(FOREX_HOURS, at('2026-01-13T21:00:00Z'))).toBe('open');
    expect(brokerSession(FOREX_HOURS, at('2026-01-13T22:02:00Z'))).toBe('closed');
    expect(brokerSession(FOREX_HOURS, at('2026-01-13T22:05:00Z'))).toBe('open');
  });

  it('is closed from Friday 17:00 to Sunday 17:05 New York time', () => {
    expect(brokerSession(FOREX_HOURS, at('2026-07-17T20:59:00Z'))).toBe('open'); // Friday
    expect(brokerSession(FOREX_HOURS, at('2026-07-17T21:00:00Z'))).toBe('closed');
    expect(brokerSession(FOREX_HOURS, at('2026-07-18T12:00:00Z'))).toBe('closed'); // Saturday
    expect(brokerSession(FOREX_HOURS, at('2026-07-19T21:04:00Z'))).toBe('closed'); // Sunday
    expect(brokerSession(FOREX_HOURS, at('2026-07-19T21:05:00Z'))).toBe('open');
  });

  it('wraps an interval round the end of the week, written either way', () => {
    // Saturday 22:00 to Monday 02:00 UTC: past the week's end, or with an end before its start.
    const past: BrokerHours = {
      timeZone: 'UTC',
      intervals: [{ startSecond: 6 * day + 22 * 3600, endSecond: 8 * day + 2 * 3600 }],
      holidays: [],
    };
    const before: BrokerHours = {
      ...past,
      intervals: [{ startSecond: 6 * day + 22 * 3600, endSecond: day + 2 * 3600 }],
    };
    for (const hours of [past, before]) {
      expect(brokerSession(hours, at('2026-07-18T21:59:59Z'))).toBe('closed'); // Saturday
      expect(brokerSession(hours, at('2026-07-18T22:00:00Z'))).toBe('open');
      expect(brokerSession(hours, at('2026-07-19T12:00:00Z'))).toBe('open'); // Sunday
      expect(brokerSession(hours, at('2026-07-20T01:59:59Z'))).toBe('open'); // Monday
      expect(brokerSession(hours, at('2026-07-20T02:00:00Z'))).toBe('closed');
      expect(brokerSession(hours, at('2026-07-15T12:00:00Z'))).toBe('closed'); // Wednesday
    }
  });

  it('closes for a holiday on its date in its time zone, and from its start to its end second', () => {
    const hours: BrokerHours = {
      timeZone: 'UTC',
      intervals: [{ startSecond: 0, endSecond: 7 * day }],
      holidays: [
        {
          name: 'Exchange maintenance',
          timeZone: 'Asia/Tokyo',
          holidayDate: Date.UTC(2026, 6, 15) / 86_400_000, // Wednesday 15 July 2026
          isRecurring: false,
          startSecond: 10 * 3600, // 10:00 Tokyo, 01:00 UTC
          endSecond: day + 2 * 3600, // 02:00 Tokyo the next day, 17:00 UTC on the 15th
        },
      ],
    };
    expect(brokerSession(hours, at('2026-07-15T00:59:59Z'))).toBe('open');
    expect(brokerSession(hours, at('2026-07-15T01:00:00Z'))).toBe('holiday');
    expect(brokerSession(hours, at('2026-07-15T16:59:59Z'))).toBe('holiday');
    expect(brokerSession(hours, at('2026-07-15T17:00:00Z'))).toBe('open');
    // Not recurring: the same date a year later trades.
    expect(brokerSession(hours, at('2027-07-15T03:00:00Z'))).toBe('open');
  });

  it('repeats a recurring holiday every year on its date', () => {
    // Christmas Day in New York: from 05:00 UTC on the 25th (EST) to 05:00 UTC on the 26th.
    expect(brokerSession(FOREX_HOURS, at('2026-12-25T04:59:59Z'))).toBe('open'); // Thursday night
    expect(brokerSession(FOREX_HOURS, at('2026-12-25T05:00:00Z'))).toBe('holiday');
    expect(brokerSession(FOREX_HOURS, at('2030-12-25T15:00:00Z'))).toBe('holiday');
    expect(brokerSession(FOREX_HOURS, at('2030-12-26T05:00:00Z'))).toBe('open');
    expect(brokerSession(FOREX_HOURS, at('2030-12-24T15:00:00Z'))).toBe('open');
  });

  it('a recurring holiday that runs past the new year closes its first hours too', () => {
    const hours: BrokerHours = {
      timeZone: 'UTC',
      intervals: [{ startSecond: 0, endSecond: 7 * day }],
      holidays: [
        {
          name: 'New Year',
          timeZone: 'UTC',
          holidayDate: Date.UTC(2020, 11, 31) / 86_400_000,
          isRecurring: true,
          startSecond: 20 * 3600,
          endSecond: day + 6 * 3600,
        },
      ],
    };
    expect(brokerSession(hours, at('2026-12-31T19:59:00Z'))).toBe('open');
    expect(brokerSession(hours, at('2026-12-31T20:00:00Z'))).toBe('holiday');
    expect(brokerSession(hours, at('2027-01-01T05:59:59Z'))).toBe('holiday');
    expect(brokerSession(hours, at('2027-01-01T06:00:00Z'))).toBe('open');
  });

  it("the fake's closure from now: closed for the minutes asked, open after, on any day", () => {
    for (const now of [at('2026-07-18T23:59:30Z'), at('2026-07-15T10:00:00Z')]) {
      const hours = closedFor(10, now);
      expect(brokerSession(hours, now)).toBe('closed');
      expect(brokerSession(hours, now + 9 * 60_000)).toBe('closed');
      expect(brokerSession(hours, now + 11 * 60_000)).toBe('open');
      expect(brokerSession(hours, now - 2 * 60_000)).toBe('open');
    }
  });
});
