import { describe, expect, it } from 'vitest';
import { chartPoints } from './equity-points';

describe('equity points for lightweight-charts', () => {
  it('sorts by time, keeps the last value of each second, drops what is not finite', () => {
    expect(
      chartPoints([
        { time: 30, value: 103 },
        { time: 10, value: 100 },
        { time: 20, value: 101 },
        { time: 20, value: 102 },
        { time: 40, value: Number.NaN },
      ]),
    ).toEqual([
      { time: 10, value: 100 },
      { time: 20, value: 102 },
      { time: 30, value: 103 },
    ]);
  });
});
