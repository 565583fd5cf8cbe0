import { getAllDataResponseSchema, type TradingData } from '@tradebot/contract';
import { describe, expect, it } from 'vitest';
import {
  getAllData,
  robotOf,
  runMarket,
  storedTrades,
  trader,
  useRobotApp,
} from './helpers/trading';

function dataOf(response: { json: () => unknown }): TradingData {
  return getAllDataResponseSchema.parse(response.json()).data;
}

describe('the cached newest page of the closed history', () => {
  const context = useRobotApp();

  it('is refreshed once an operation closes, and stays what the database holds', async () => {
    const { headers, userId } = await trader(context.app);
    const robot = robotOf(context.app);
    const closedInStore = async () =>
      (await storedTrades(context.app, userId)).filter((t) => t.closedAt !== null);

    // Read (and cached) while nothing has closed yet.
    const before = dataOf(await getAllData(context.app, headers));
    expect(before.closedPage.total).toBe(0);
    expect(before.closed).toEqual([]);
    expect(dataOf(await getAllData(context.app, headers)).closedPage.total).toBe(0);

    // Reads between ticks, as a dashboard polls: each may cache the page of its moment.
    expect(
      await runMarket(context, async () => {
        await getAllData(context.app, headers);
        return (await closedInStore()).length >= 2;
      }),
    ).toBe(true);
    await robot.settled();

    const stored = await closedInStore();
    const after = dataOf(await getAllData(context.app, headers));
    expect(after.closedPage.total).toBe(stored.length);
    expect(after.closed.map((row) => row.id).sort()).toEqual(
      stored.map((trade) => trade.positionId).sort(),
    );
    // Other periods and pages are read from the database: they agree.
    const week = dataOf(await getAllData(context.app, headers, '?period=week'));
    expect(week.closed.map((row) => row.id)).toEqual(after.closed.map((row) => row.id));
  });
});
