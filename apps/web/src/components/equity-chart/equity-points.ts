import type { EquityPoint } from '@tradebot/contract';

/**
 * Points as lightweight-charts demands them: ascending time, one value per second (the last
 * one of that second wins), finite values only.
 */
export function chartPoints(points: readonly EquityPoint[]): EquityPoint[] {
  const bySecond = new Map<number, number>();
  for (const point of [...points].sort((a, b) => a.time - b.time)) {
    if (Number.isFinite(point.time) && Number.isFinite(point.value)) {
      bySecond.set(Math.floor(point.time), point.value);
    }
  }
  return [...bySecond].map(([time, value]) => ({ time, value }));
}
