import type { EquityPoint } from '@tradebot/contract';

/** Minutes to add to local time to get UTC at an instant (Date's getTimezoneOffset). */
export type ZoneOffset = (epochMs: number) => number;

/** The browser's own time zone, the one every table and sentence of the app writes in. */
export const browserZoneOffset: ZoneOffset = (epochMs) => new Date(epochMs).getTimezoneOffset();

/**
 * Points as lightweight-charts demands them: ascending time, one value per second (the last
 * one of that second wins), finite values only. lightweight-charts writes its axis and
 * crosshair in UTC; each time is moved by its instant's offset, so they read the local time the
 * tables and texts use (the library's documented way; issue 39 point 7).
 */
export function chartPoints(
  points: readonly EquityPoint[],
  offsetAt: ZoneOffset = browserZoneOffset,
): EquityPoint[] {
  const bySecond = new Map<number, number>();
  const local = points
    .filter((point) => Number.isFinite(point.time) && Number.isFinite(point.value))
    .map((point) => ({
      time: Math.floor(point.time) - offsetAt(point.time * 1000) * 60,
      value: point.value,
    }))
    // After the shift: an hour repeated when the clocks go back still reads in order.
    .sort((a, b) => a.time - b.time);
  for (const point of local) bySecond.set(point.time, point.value);
  return [...bySecond].map(([time, value]) => ({ time, value }));
}
