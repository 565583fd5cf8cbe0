import { describe, expect, it } from 'vitest';
import { InstrumentCatalogue } from '../instruments/catalogue';
import { MarketSimulator } from '../market-data/market-simulator';
import type { CalibrationRow } from './forecast-metrics';
import { SignalModel } from './signal-model';

/**
 * Decision 093: the model's probabilities are measured frequencies. This runs the simulated
 * market on seed 11: two days to learn, then two days in which every forecast is scored before
 * its outcome is known. In four days the calibrator is still young and keeps to its steps, whose
 * settings were chosen on seeds 1 and 2 only (seed 11 was among those the later curve was
 * chosen on, over 100 days; the curve is tested in isotonic-calibrator.test.ts).
 */
const unseenSeed = 11;
const dayMs = 86_400_000;

function run() {
  const catalogue = new InstrumentCatalogue();
  const start = Date.parse('2024-06-03T00:00:00Z');
  const market = new MarketSimulator({
    instruments: catalogue.instruments,
    seed: unseenSeed,
    startTime: start,
    tickIntervalMs: 60_000,
  });
  const model = new SignalModel();
  market.subscribe((tick) => {
    model.onTick(tick, catalogue.require(tick.symbol));
  });
  market.advanceTo(start + 2 * dayMs);
  model.restartScorecard();
  market.advanceTo(start + 4 * dayMs);
  return model.report().overall;
}

function pooled(rows: readonly CalibrationRow[]) {
  const count = rows.reduce((sum, row) => sum + row.count, 0);
  return {
    count,
    claimed: rows.reduce((sum, row) => sum + row.claimed * row.count, 0) / count,
    hit: rows.reduce((sum, row) => sum + row.hit * row.count, 0) / count,
  };
}

const table = (rows: readonly CalibrationRow[]) =>
  rows
    .map(
      (r) =>
        `${String(r.decile)}: claimed ${r.claimed.toFixed(4)} hit ${r.hit.toFixed(4)} n ${String(r.count)}`,
    )
    .join('\n');

describe('calibration on a seed it was not tuned on', () => {
  const report = run();

  it('hits what it claims, within 1 point, in every decile of its forecasts', () => {
    expect(report.calibrationAll).toHaveLength(10);
    for (const row of report.calibrationAll) {
      expect(Math.abs(row.hit - row.claimed), table(report.calibrationAll)).toBeLessThanOrEqual(
        0.01,
      );
    }
    expect(report.brierScore).toBeLessThan(report.baseRateBrierScore);
  });

  // Two days of a few thousand correlated forecasts cannot settle each decile above break-even
  // to a point; the 100-day runs in decision 093 do. Taken together they can.
  it('hits, above break-even taken together, within 1 point of what it claims', () => {
    const above = pooled(report.calibration);
    expect(above.count).toBeGreaterThan(1000);
    expect(Math.abs(above.hit - above.claimed), table(report.calibration)).toBeLessThanOrEqual(
      0.01,
    );
  });
});
