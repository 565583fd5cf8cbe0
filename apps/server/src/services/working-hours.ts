import { timeZoneOffsetMs } from '@tradebot/robot';

/**
 * Working time in the operator's time zone (docs/decisions/056-contact-and-working-hours.md):
 * every hour of a working day counts, a working day being any local calendar day that is not
 * a Saturday, a Sunday or a listed holiday. Time is walked in quarter hours, the finest step of
 * any time zone's offset, so a day's start is exact whatever the zone and its daylight saving.
 */
export interface WorkingCalendar {
  /** IANA time zone, e.g. America/Argentina/Buenos_Aires. */
  timeZone: string;
  /** Local dates (YYYY-MM-DD) that are days off besides weekends. */
  holidays: ReadonlySet<string>;
}

const quarterHourMs = 15 * 60_000;
const hourMs = 60 * 60_000;
/**
 * No calendar keeps a reply waiting a year: a guard against a holiday list that does (a year of
 * quarter hours walks in a fraction of a second; ten years took seconds).
 */
const maxQuarters = 366 * 24 * 4;

/** The local calendar date (YYYY-MM-DD) of an instant, and whether it falls on a weekend. */
export function localDay(instant: number, timeZone: string): { date: string; weekend: boolean } {
  const wallClock = new Date(instant + timeZoneOffsetMs(timeZone, instant));
  const weekday = wallClock.getUTCDay();
  return { date: wallClock.toISOString().slice(0, 10), weekend: weekday === 0 || weekday === 6 };
}

function isWorkingDay(instant: number, calendar: WorkingCalendar): boolean {
  const day = localDay(instant, calendar.timeZone);
  return !day.weekend && !calendar.holidays.has(day.date);
}

/** The instant `hours` working hours after `start`. */
export function addWorkingHours(start: Date, hours: number, calendar: WorkingCalendar): Date {
  let remaining = hours * hourMs;
  let at = start.getTime();
  for (let steps = 0; remaining > 0; steps++) {
    if (steps > maxQuarters) throw new Error('no working time within a year');
    const boundary = Math.floor(at / quarterHourMs) * quarterHourMs + quarterHourMs;
    if (isWorkingDay(at, calendar)) {
      const step = Math.min(boundary - at, remaining);
      remaining -= step;
      at += step;
    } else {
      at = boundary;
    }
  }
  return new Date(at);
}

/** The first instant of a local calendar date (YYYY-MM-DD) in a time zone. */
export function startOfLocalDay(date: string, timeZone: string): Date {
  // Every zone's offset lies within UTC-12 and UTC+14: start before the earliest midnight.
  let at = Date.parse(`${date}T00:00:00Z`) - 14 * hourMs;
  for (let steps = 0; steps < 4 * 30; steps++) {
    if (localDay(at, timeZone).date >= date) return new Date(at);
    at += quarterHourMs;
  }
  throw new Error(`no start of ${date} in ${timeZone}`);
}

/** The local date after a YYYY-MM-DD date. */
export function nextDate(date: string): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + 24 * hourMs).toISOString().slice(0, 10);
}
