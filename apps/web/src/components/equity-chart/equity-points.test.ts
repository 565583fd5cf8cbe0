import { describe, expect, it } from 'vitest';
import { chartPoints } from './equity-points';

const utc = () => 0;

describe('equity points for lightweight-charts', () => {
  it('sorts by time, keeps the last value of each second, drops what is not finite', () => {
    expect(
      chartPoints(
        [
          { time: 30, value: 103 },
          { time: 10, value: 100 },
          { time: 20, value: 101 },
          { time: 20, value: 102 },
          { time: 40, value: Number.NaN },
        ],
        utc,
      ),
    ).toEqual([
      { time: 10, value: 100 },
      { time: 20, value: 102 },
      { time: 30, value: 103 },
    ]);
  });

  it('reads the local time on the axis: each point moves by its zone offset (issue 39 point 7)', () => {
    // São Paulo (UTC−3, offset +180 min): 12:00 UTC is 09:00 on the axis.
    const noonUtc = Date.UTC(2026, 10, 25, 12) / 1000;
    expect(chartPoints([{ time: noonUtc, value: 100 }], () => 180)).toEqual([
      { time: Date.UTC(2026, 10, 25, 9) / 1000, value: 100 },
    ]);
    // Madrid in summer (UTC+2, offset −120 min): 12:00 UTC is 14:00.
    expect(chartPoints([{ time: noonUtc, value: 100 }], () => -120)[0]?.time).toBe(
      Date.UTC(2026, 10, 25, 14) / 1000,
    );
  });

  it('stays ascending when the clocks go back and an hour repeats', () => {
    // 01:30 before the change (UTC+2), then 01:10 after it (UTC+1): later instant, earlier reading.
    const before = Date.UTC(2026, 9, 24, 23, 30) / 1000;
    const after = Date.UTC(2026, 9, 25, 0, 10) / 1000;
    const offset = (ms: number) => (ms < Date.UTC(2026, 9, 25) ? -120 : -60);
    const shown = chartPoints(
      [
        { time: before, value: 1 },
        { time: after, value: 2 },
      ],
      offset,
    );
    expect(shown.map((point) => point.time)).toEqual(
      [...shown.map((p) => p.time)].sort((a, b) => a - b),
    );
    expect(shown).toHaveLength(2);
  });

  it("uses the browser's own zone by default", () => {
    const time = Date.UTC(2026, 10, 25, 12) / 1000;
    const offset = new Date(time * 1000).getTimezoneOffset();
    expect(chartPoints([{ time, value: 1 }])[0]?.time).toBe(time - offset * 60);
  });
});
