import { latestWeekdayAt } from '@tradebot/robot';

/**
 * Where a test's simulated market starts (issue 41, decision 106): MARKET_START pins the robot's
 * clock, so no result depends on the day or the hour a suite runs. The latest Wednesday 15:00 UTC
 * at or before now: every category is in session (forex, European and US stocks and indices,
 * Globex commodities, crypto), within a week of the wall clock that the app's own dates follow.
 * The end-to-end servers start there too.
 */
export function latestWednesdayMidSession(now = Date.now()): string {
  return new Date(latestWeekdayAt(3, 15 * 60, now)).toISOString();
}

/**
 * The pin for a test whose robot runs on the wall clock: TEST_MARKET_START (ISO-8601 with its
 * zone) sweeps the suite over another instant, such as a Saturday noon or the Sunday reopening.
 */
export const testMarketStart: string = process.env.TEST_MARKET_START ?? latestWednesdayMidSession();
