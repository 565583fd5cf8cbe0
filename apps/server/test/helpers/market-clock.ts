/**
 * Where a test's simulated market starts when the robot runs on the wall clock (issue 41):
 * MARKET_START pins the robot's clock, so no result depends on the day or the hour a suite runs.
 * The latest Wednesday 15:00 UTC at or before now: every category is in session (forex, European
 * and US stocks and indices, Globex commodities, crypto), within a week of the wall clock that
 * the app's own dates follow. The end-to-end servers start there too.
 */
export function latestWednesdayMidSession(now = Date.now()): string {
  const dayMs = 86_400_000;
  const today = new Date(now);
  const wednesday = 3;
  const back = (today.getUTCDay() - wednesday + 7) % 7;
  let instant =
    Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate(), 15) - back * dayMs;
  if (instant > now) instant -= 7 * dayMs;
  return new Date(instant).toISOString();
}

/**
 * The pin for a test whose robot runs on the wall clock: TEST_MARKET_START (ISO-8601 with its
 * zone) sweeps the suite over another instant, such as a Saturday noon or the Sunday reopening.
 */
export const testMarketStart: string = process.env.TEST_MARKET_START ?? latestWednesdayMidSession();
