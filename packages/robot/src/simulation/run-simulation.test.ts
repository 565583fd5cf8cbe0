import { describe, expect, it } from 'vitest';
import { toOperationLine } from './operation-line';
import { runSimulation } from './run-simulation';
import { summarise } from './simulation-summary';

describe('runSimulation', () => {
  it('is reproducible from its seed and keeps the risk rules', async () => {
    // Two days: the calibrated model (decision 093) trades once it has measured enough.
    const options = { accounts: 2, days: 2, seed: 3, risk: 1 };
    const first = await runSimulation(options);
    const second = await runSimulation(options);
    const lines = (r: typeof first) =>
      r.trades.map((t) => JSON.stringify(toOperationLine(t, r.openMarks.get(t.positionId))));
    expect(first.trades.length).toBeGreaterThan(0);
    expect(lines(second)).toEqual(lines(first));
    const summary = summarise(first);
    expect(summary.ledgerHolds).toBe(true);
    expect(summary.largestExposureFraction).toBeLessThanOrEqual(0.5);
    expect(summary.averageMarginFraction).toBeGreaterThan(0.08);
    expect(summary.averageMarginFraction).toBeLessThan(0.12);
  }, 180_000);
});
