import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { summarise } from '../simulation/simulation-summary';
import { backtestFigures } from './backtest-figures';
import { formatBacktest, recordedCatalogue, runBacktest } from './run-backtest';

/** The shared sample sits beside the repository, in CI as here (decision 125). */
const repoRoot = fileURLToPath(new URL('../../../../', import.meta.url));
const oanda = path.resolve(repoRoot, '..', 'shared', 'market-data', 'oanda-2014-05');

describe('runBacktest on the shared OANDA sample', () => {
  it('EURUSD, 5 and 6 May 2014, at a 1-minute cadence: the measured figures and their source', async () => {
    const result = await runBacktest({
      quotes: oanda,
      risk: 1,
      cadence: 60_000,
      instruments: ['EURUSD'],
      range: {
        from: Date.parse('2014-05-05T00:00:00Z'),
        until: Date.parse('2014-05-07T00:00:00Z'),
      },
    });
    const summary = summarise(result);
    const report = formatBacktest(summary, result);
    expect(result.source.instruments).toEqual([
      {
        symbol: 'EURUSD',
        quotes: 70_041,
        crossed: 0,
        first: Date.parse('2014-05-05T00:00:23.668Z'),
        last: Date.parse('2014-05-06T23:59:56.706Z'),
      },
    ]);
    // One quote a minute while the market quoted.
    expect(result.ticks).toBe(2739);
    // Measured on real quotes: no operation; the model no better than the base rate; and after
    // its first three hours of looking, the robot says "no edge" nearly all the time.
    expect(summary.operations).toBe(0);
    expect(summary.model.forecasts).toBe(1608);
    expect(1 - summary.model.brierScore / summary.model.baseRateBrierScore).toBeCloseTo(-0.0041, 4);
    expect(summary.marketOpenMinutes).toBe(2879);
    expect(summary.noEdgeShare).toBeCloseTo(0.9375, 4);
    expect(report.split('\n').at(-1)).toBe(
      `Source: ${oanda}, EURUSD, first quote 2014-05-05T00:00:23.668Z, last quote 2014-05-06T23:59:56.706Z. These figures describe these recorded quotes only; they promise nothing about other markets or times.`,
    );
    expect(report).toContain('No edge: 93.75% of market-open time (2879 market-open minutes;');
    // What the track record shows of it (decision 142).
    expect(backtestFigures(result)).toEqual({
      instruments: ['EURUSD'],
      quotes: 70_041,
      first: Date.parse('2014-05-05T00:00:23.668Z'),
      last: Date.parse('2014-05-06T23:59:56.706Z'),
      startingBalanceUsd: 10_000,
      operations: 0,
      wins: 0,
      resultUsd: 0,
      noEdgeShare: expect.closeTo(0.9375, 4) as number,
      marketOpenMinutes: 2879,
      brierSkill: expect.closeTo(-0.0041, 4) as number,
      forecasts: 1608,
    });
  }, 120_000);
});

describe('recordedCatalogue', () => {
  const series = (symbol: string) => ({
    symbol,
    length: 0,
    times: new Float64Array(),
    bids: new Float64Array(),
    asks: new Float64Array(),
    crossed: 0,
    files: [],
  });

  it('holds only the recorded instruments', () => {
    const catalogue = recordedCatalogue([series('XAUUSD'), series('EURUSD')]);
    expect(catalogue.instruments.map((i) => i.symbol)).toEqual(['EURUSD', 'XAUUSD']);
  });

  it('refuses an instrument quoted in another currency without the quotes that value it in USD', () => {
    expect(() => recordedCatalogue([series('EURJPY')])).toThrow(
      'EURJPY is quoted in JPY: add the quotes of USDJPY to value its profits in USD',
    );
    expect(() => recordedCatalogue([series('EURJPY'), series('USDJPY')])).not.toThrow();
  });
  it('warmed up (decision 149): the model learns the quotes before --from first, untraded, and the figures are the traded quotes only', async () => {
    const options = {
      quotes: oanda,
      risk: 1,
      cadence: 60_000,
      instruments: ['EURUSD'],
      range: {
        from: Date.parse('2014-05-06T00:00:00Z'),
        until: Date.parse('2014-05-07T00:00:00Z'),
      },
    } as const;
    const cold = await runBacktest(options);
    const warm = await runBacktest({ ...options, warmUpMs: 86_400_000 });
    // The same traded quotes, a model that had learned a day of them before.
    expect(warm.source.instruments).toEqual(cold.source.instruments);
    expect(warm.ticks).toBe(cold.ticks);
    expect(cold.historyTicks).toBe(0);
    expect(cold.source.history).toBeUndefined();
    // Monday 5 May at one quote a minute (the cold run of both days above quotes 2739 minutes).
    expect(warm.historyTicks).toBe(2739 - cold.ticks);
    expect(warm.source.history).toEqual({
      from: Date.parse('2014-05-05T00:00:00Z'),
      quotes: warm.historyTicks,
    });
    // Its scorecard counts the traded day only, yet more of it: no warm-up outcomes to wait for.
    expect(warm.model.overall.forecasts).toBeGreaterThan(cold.model.overall.forecasts);
    expect(warm.trades.every((t) => t.openedAt >= options.range.from)).toBe(true);
    expect(formatBacktest(summarise(warm), warm)).toContain(
      `The model first learned from ${String(warm.historyTicks)} recorded quotes from 2014-05-05T00:00:00.000Z to 2014-05-06T00:00:00.000Z (not traded;`,
    );
    await expect(runBacktest({ ...options, range: {}, warmUpMs: 60_000 })).rejects.toThrow(
      'a warm-up needs a start',
    );
  });
});
