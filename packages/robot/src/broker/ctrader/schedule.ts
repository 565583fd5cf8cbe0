import { timeZoneOffsetMs } from '../../instruments/trading-hours';
import type { MessageBody } from './protocol';

/**
 * A broker's own trading hours for one symbol, as `ProtoOASymbolByIdRes` gives them (decision
 * 096, addendum on hours), read as Spotware's message definitions say (proto/OpenApiModelMessages):
 *
 * - `schedule`: ProtoOAInterval, `startSecond` (inclusive) and `endSecond` (exclusive) counted
 *   from Sunday 00:00 in the symbol's `scheduleTimeZone`;
 * - `holiday`: ProtoOAHoliday, on the day `holidayDate` (days since 1 January 1970) in its own
 *   `scheduleTimeZone`, from `startSecond` to `endSecond` after that day's 00:00 (the whole day
 *   when they are absent), every year on the same date when `isRecurring`.
 *
 * Local times come from Intl (the IANA database), so a session follows its zone's daylight saving.
 */
export interface BrokerInterval {
  readonly startSecond: number;
  readonly endSecond: number;
}

export interface BrokerHoliday {
  readonly name: string;
  readonly timeZone: string;
  /** Days since 1 January 1970: the holiday's date. */
  readonly holidayDate: number;
  readonly isRecurring: boolean;
  /** Seconds after the day's 00:00 in `timeZone`; 0 when the broker gives none. */
  readonly startSecond: number;
  /** Seconds after the day's 00:00 (may pass midnight); the day's end when the broker gives none. */
  readonly endSecond: number;
}

export interface BrokerHours {
  readonly timeZone: string;
  readonly intervals: readonly BrokerInterval[];
  readonly holidays: readonly BrokerHoliday[];
}

/** Whether the symbol trades now, and why not. */
export type BrokerSession = 'open' | 'closed' | 'holiday';

const daySeconds = 86_400;
const weekSeconds = 7 * daySeconds;
const dayMs = daySeconds * 1000;

/** The hours a ProtoOASymbol carries; a symbol with no interval listed trades at no time. */
export function brokerHours(symbol: MessageBody): BrokerHours {
  const timeZone = zoneOrUtc(symbol.scheduleTimeZone);
  const intervals = ((symbol.schedule as MessageBody[] | undefined) ?? []).map((interval) => ({
    startSecond: Number(interval.startSecond),
    endSecond: Number(interval.endSecond),
  }));
  const holidays = ((symbol.holiday as MessageBody[] | undefined) ?? []).map((holiday) => ({
    name: typeof holiday.name === 'string' ? holiday.name : '',
    timeZone: zoneOrUtc(holiday.scheduleTimeZone ?? symbol.scheduleTimeZone),
    holidayDate: Number(holiday.holidayDate),
    isRecurring: holiday.isRecurring === true,
    startSecond: holiday.startSecond === undefined ? 0 : Number(holiday.startSecond),
    endSecond: holiday.endSecond === undefined ? daySeconds : Number(holiday.endSecond),
  }));
  return { timeZone, intervals, holidays };
}

/** Where the instant falls in the broker's hours: in a session, outside, or in a holiday. */
export function brokerSession(hours: BrokerHours, epochMs: number): BrokerSession {
  if (hours.holidays.some((holiday) => inHoliday(holiday, epochMs))) return 'holiday';
  const second = secondOfWeek(hours.timeZone, epochMs);
  return hours.intervals.some((interval) => inInterval(interval, second)) ? 'open' : 'closed';
}

/** Seconds since the local Sunday 00:00 in `timeZone`. */
export function secondOfWeek(timeZone: string, epochMs: number): number {
  const local = epochMs + timeZoneOffsetMs(timeZone, epochMs);
  const date = new Date(local);
  return (
    date.getUTCDay() * daySeconds +
    date.getUTCHours() * 3600 +
    date.getUTCMinutes() * 60 +
    date.getUTCSeconds()
  );
}

/**
 * Start inclusive, end exclusive. An interval that runs past Saturday's end (an end beyond the
 * week, or an end before its start) wraps into the next week's Sunday.
 */
function inInterval({ startSecond, endSecond }: BrokerInterval, second: number): boolean {
  const end = endSecond < startSecond ? endSecond + weekSeconds : endSecond;
  return (
    (second >= startSecond && second < end) ||
    (second + weekSeconds >= startSecond && second + weekSeconds < end)
  );
}

function inHoliday(holiday: BrokerHoliday, epochMs: number): boolean {
  // Local wall time as if it were UTC, so whole local days are multiples of dayMs.
  const local = epochMs + timeZoneOffsetMs(holiday.timeZone, epochMs);
  const starts: number[] = [];
  if (holiday.isRecurring) {
    const date = new Date(holiday.holidayDate * dayMs);
    const year = new Date(local).getUTCFullYear();
    // This year's, and last year's for a holiday that runs past the new year.
    for (const y of [year - 1, year]) {
      const start = Date.UTC(y, date.getUTCMonth(), date.getUTCDate());
      // 29 February recurs only in leap years.
      if (new Date(start).getUTCDate() === date.getUTCDate()) starts.push(start);
    }
  } else {
    starts.push(holiday.holidayDate * dayMs);
  }
  return starts.some(
    (day) => local >= day + holiday.startSecond * 1000 && local < day + holiday.endSecond * 1000,
  );
}

/** The zone named, when this runtime knows it; UTC otherwise (said by `knownTimeZone`). */
function zoneOrUtc(value: unknown): string {
  return typeof value === 'string' && knownTimeZone(value) ? value : 'UTC';
}

export function knownTimeZone(timeZone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone });
    return true;
  } catch {
    return false;
  }
}
