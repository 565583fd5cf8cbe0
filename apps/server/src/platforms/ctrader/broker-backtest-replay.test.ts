import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import {
  backtestQuoteSeries,
  InstrumentCatalogue,
  readQuoteFolder,
  type QuoteSeries,
} from '@tradebot/robot';
import { beforeAll, describe, expect, it } from 'vitest';
import { replayInWorker } from './broker-backtest-replay';

/** The shared OANDA sample beside the repository (test data only: decision 125). */
const oanda = fileURLToPath(
  new URL('../../../../../../shared/market-data/oanda-2014-05', import.meta.url),
);

/** A copy of the series, whose arrays the worker may take. */
function copy(series: readonly QuoteSeries[]): QuoteSeries[] {
  return series.map((s) => ({
    ...s,
    times: s.times.slice(),
    bids: s.bids.slice(),
    asks: s.asks.slice(),
  }));
}

describe('the broker backtest replayed in a worker thread (decision 161)', () => {
  let series: readonly QuoteSeries[];

  beforeAll(async () => {
    // EURUSD, a whole trading day (about 50,000 quotes): a second or more of the robot's CPU.
    const read = await readQuoteFolder(
      path.resolve(oanda),
      new InstrumentCatalogue(),
      {
        from: Date.parse('2014-05-06T00:00:00Z'),
        until: Date.parse('2014-05-07T00:00:00Z'),
      },
      new Set(['EURUSD']),
    );
    series = read.series;
  }, 30_000);

  it('gives the same summary as the replay in this thread, reports its progress, and leaves the event loop idle', async () => {
    const shares: number[] = [];
    const before = performance.eventLoopUtilization();
    const inWorker = await replayInWorker(
      copy(series),
      1,
      (share) => shares.push(share),
      new AbortController().signal,
      { progressEvery: 2048 },
    );
    const busy = performance.eventLoopUtilization(before);

    // The robot ran elsewhere: this thread's loop mostly waited (the worker's start from source,
    // tsx compiling its modules, is the worker's own CPU too).
    expect(busy.utilization).toBeLessThan(0.25);
    expect(shares.length).toBeGreaterThan(3);
    expect(shares).toEqual([...shares].sort((a, b) => a - b));
    expect(shares.at(-1)).toBeGreaterThan(0.9);

    const inThread = await backtestQuoteSeries(copy(series), { risk: 1, cadence: 'quote' });
    expect(inWorker).toEqual(inThread);
    expect(inWorker?.instruments[0]).toMatchObject({ symbol: 'EURUSD' });
    expect(inWorker?.marketOpenMinutes).toBeGreaterThan(1000);
  }, 120_000);

  it('an abort ends the thread at once and rejects with its reason; a signal already aborted starts none', async () => {
    const abort = new AbortController();
    const run = replayInWorker(
      copy(series),
      1,
      (share) => {
        if (share > 0.1) abort.abort(new Error('server closing'));
      },
      abort.signal,
      { progressEvery: 1024 },
    );
    const started = performance.now();
    await expect(run).rejects.toThrow('server closing');
    expect(performance.now() - started).toBeLessThan(60_000);

    await expect(
      replayInWorker(copy(series), 1, () => undefined, AbortSignal.abort(new Error('gone'))),
    ).rejects.toThrow('gone');
  }, 120_000);

  it('a failure in the thread rejects with its message', async () => {
    const [eurusd] = copy(series);
    if (!eurusd) throw new Error('no EURUSD quotes read');
    await expect(
      replayInWorker(
        [{ ...eurusd, symbol: 'NOSUCH' }],
        1,
        () => undefined,
        new AbortController().signal,
      ),
    ).rejects.toThrow(/NOSUCH/);
  }, 60_000);
});
