import { latestWeekdayAt } from '@tradebot/robot';

/**
 * The instant every end-to-end server's simulated market starts at (issue 41, decision 106): the
 * robot's clock is pinned there (MARKET_START, tests only), so no result depends on the day or
 * the hour the suite runs. By default the latest Wednesday 15:00 UTC at or before now, when every
 * category is in session. E2E_MARKET_START (ISO-8601 with its zone) pins it elsewhere, to sweep
 * the suite over a Saturday or the Sunday reopening: tests that need trading keep a category
 * open at any instant (crypto trades every day).
 */
export const marketStart: string =
  process.env.E2E_MARKET_START ?? new Date(latestWeekdayAt(3, 15 * 60, Date.now())).toISOString();
