/**
 * Trading hours as weekly sessions in the exchange's own time zone. Local wall time comes from
 * Intl.DateTimeFormat, so daylight-saving changes follow the IANA database with no extra
 * library; the offset is cached per UTC hour because every DST change in the zones we use
 * happens on a whole UTC hour.
 */
export type Weekday = 0 | 1 | 2 | 3 | 4 | 5 | 6; // 0 = Sunday, as Date#getUTCDay

export interface WeeklySession {
  /** Local weekdays on which the session opens. */
  readonly opensOn: readonly Weekday[];
  /** Minutes after local midnight. */
  readonly open: number;
  /** Minutes after local midnight; at or before `open` means the session ends the next day. */
  readonly close: number;
}

export type TradingSchedule =
  | { readonly kind: 'always' }
  | {
      readonly kind: 'weekly';
      readonly timeZone: string;
      readonly sessions: readonly WeeklySession[];
    };

export const mondayToFriday: readonly Weekday[] = [1, 2, 3, 4, 5];
export const sundayToThursday: readonly Weekday[] = [0, 1, 2, 3, 4];

export function hoursMinutes(text: string): number {
  const [hours = '0', minutes = '0'] = text.split(':');
  return Number(hours) * 60 + Number(minutes);
}

export function session(opensOn: readonly Weekday[], open: string, close: string): WeeklySession {
  return { opensOn, open: hoursMinutes(open), close: hoursMinutes(close) };
}

const hourMs = 3_600_000;
const formatters = new Map<string, Intl.DateTimeFormat>();
const offsetCache = new Map<string, Map<number, number>>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** Offset of local wall time from UTC, in ms, at the given instant. */
export function timeZoneOffsetMs(timeZone: string, epochMs: number): number {
  let byHour = offsetCache.get(timeZone);
  if (!byHour) {
    byHour = new Map();
    offsetCache.set(timeZone, byHour);
  }
  const hour = Math.floor(epochMs / hourMs);
  const cached = byHour.get(hour);
  if (cached !== undefined) return cached;
  const parts: Record<string, number> = {};
  for (const part of formatterFor(timeZone).formatToParts(hour * hourMs)) {
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  }
  const localAsUtc = Date.UTC(
    parts.year ?? 1970,
    (parts.month ?? 1) - 1,
    parts.day ?? 1,
    parts.hour ?? 0,
    parts.minute ?? 0,
    parts.second ?? 0,
  );
  const offset = localAsUtc - hour * hourMs;
  if (byHour.size > 50_000) byHour.clear(); // a long-running process must not grow forever
  byHour.set(hour, offset);
  return offset;
}

export interface LocalTime {
  readonly weekday: Weekday;
  readonly minuteOfDay: number;
}

export function localTime(timeZone: string, epochMs: number): LocalTime {
  const local = new Date(epochMs + timeZoneOffsetMs(timeZone, epochMs));
  return {
    weekday: local.getUTCDay() as Weekday,
    minuteOfDay: local.getUTCHours() * 60 + local.getUTCMinutes() + local.getUTCSeconds() / 60,
  };
}

export interface SessionPosition {
  /** Minutes since the current session opened. */
  readonly sinceOpen: number;
  /** Minutes until the current session closes. */
  readonly untilClose: number;
}

const day = 1440;

/** Where the instant falls in its session, or undefined when the market is closed. */
export function sessionPosition(
  schedule: TradingSchedule,
  epochMs: number,
): SessionPosition | undefined {
  if (schedule.kind === 'always') return { sinceOpen: Infinity, untilClose: Infinity };
  const { weekday, minuteOfDay } = localTime(schedule.timeZone, epochMs);
  const yesterday = ((weekday + 6) % 7) as Weekday;
  for (const s of schedule.sessions) {
    const overnight = s.close <= s.open;
    const length = overnight ? day - s.open + s.close : s.close - s.open;
    if (
      s.opensOn.includes(weekday) &&
      minuteOfDay >= s.open &&
      (overnight || minuteOfDay < s.close)
    ) {
      const sinceOpen = minuteOfDay - s.open;
      return { sinceOpen, untilClose: length - sinceOpen };
    }
    if (overnight && s.opensOn.includes(yesterday) && minuteOfDay < s.close) {
      const sinceOpen = day - s.open + minuteOfDay;
      return { sinceOpen, untilClose: length - sinceOpen };
    }
  }
  return undefined;
}

export function isMarketOpen(schedule: TradingSchedule, epochMs: number): boolean {
  return sessionPosition(schedule, epochMs) !== undefined;
}

/**
 * The latest instant at or before `now` that falls on `weekday` at `minutes` after UTC midnight:
 * where tests pin a market so that what is open does not depend on the day they run (issue 41).
 */
export function latestWeekdayAt(weekday: Weekday, minutes: number, now: number): number {
  const dayMs = 86_400_000;
  const midnight = now - (((now % dayMs) + dayMs) % dayMs);
  const back = (new Date(now).getUTCDay() - weekday + 7) % 7;
  const instant = midnight - back * dayMs + minutes * 60_000;
  return instant > now ? instant - 7 * dayMs : instant;
}

/**
 * The first instant after `from` at which the market opens, or undefined when it never closes
 * (`always`) or opens in none of the next eight days (decision 147: "opens Mon 10:30"). Each
 * session's opening on each of the next eight local days is turned back into UTC with the zone's
 * offset there, and kept only if the market is open at it and closed just before (a session
 * that only continues the one before is not an opening).
 */
export function nextOpening(schedule: TradingSchedule, from: number): number | undefined {
  if (schedule.kind === 'always') return undefined;
  const minuteMs = 60_000;
  const dayMs = 86_400_000;
  const localNow = from + timeZoneOffsetMs(schedule.timeZone, from);
  const localMidnight = localNow - (((localNow % dayMs) + dayMs) % dayMs);
  let first: number | undefined;
  for (let days = 0; days <= 8; days++) {
    const midnight = localMidnight + days * dayMs;
    const weekday = new Date(midnight).getUTCDay() as Weekday;
    for (const s of schedule.sessions) {
      if (!s.opensOn.includes(weekday)) continue;
      const localOpen = midnight + s.open * minuteMs;
      // Local wall time back to UTC: the offset at the guess, then at the corrected instant.
      let instant = localOpen - timeZoneOffsetMs(schedule.timeZone, localOpen);
      instant = localOpen - timeZoneOffsetMs(schedule.timeZone, instant);
      if (instant <= from || (first !== undefined && instant >= first)) continue;
      if (!isMarketOpen(schedule, instant) || isMarketOpen(schedule, instant - minuteMs)) continue;
      first = instant;
    }
    if (first !== undefined) return first;
  }
  return first;
}
