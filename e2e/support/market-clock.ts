/**
 * The instant every end-to-end server's simulated market starts at (issue 41): the robot's clock
 * is pinned there (MARKET_START, tests only), so no result depends on the day or the hour the
 * suite runs. By default the latest Wednesday 15:00 UTC at or before now: every category is in
 * session (forex, European and US stocks and indices, Globex commodities, crypto), and the
 * instant is within a week of the wall clock, as the app's own dates are. E2E_MARKET_START
 * (ISO-8601 with its zone) pins it elsewhere, to sweep the suite over a Saturday or the Sunday
 * reopening: tests that need trading keep a category open at any instant (crypto trades every
 * day).
 */
export const marketStart: string = process.env.E2E_MARKET_START ?? latestWednesdayMidSession();

function latestWednesdayMidSession(now = Date.now()): string {
  const dayMs = 86_400_000;
  const today = new Date(now);
  const wednesday = 3;
  const back = (today.getUTCDay() - wednesday + 7) % 7;
  let instant =
    Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate(), 15) - back * dayMs;
  if (instant > now) instant -= 7 * dayMs;
  return new Date(instant).toISOString();
}
