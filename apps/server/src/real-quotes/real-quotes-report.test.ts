import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { BacktestFigures } from '@tradebot/robot';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RealQuotesReportService, type RealQuotesDependencies } from './real-quotes-report';
import type { RealQuotesRun, RealQuotesRunner } from './real-quotes-runner';

const figures: BacktestFigures = {
  instruments: ['EURUSD', 'XAUUSD'],
  quotes: 3_013_571,
  first: Date.parse('2014-05-01T00:00:00.043Z'),
  last: Date.parse('2014-05-15T23:59:56.324Z'),
  startingBalanceUsd: 10_000,
  operations: 3,
  wins: 3,
  resultUsd: 6.6,
  noEdgeShare: 0.972,
  marketOpenMinutes: 15_839,
  brierSkill: -0.0025,
  forecasts: 568_417,
};
const run: RealQuotesRun = { figures, cpuMs: 21_000, wallMs: 60_000 };

/** A runner the test finishes by hand, counting its calls. */
function heldRunner() {
  const calls: Parameters<RealQuotesRunner>[] = [];
  let finish: ((value: RealQuotesRun) => void) | undefined;
  let fail: ((error: Error) => void) | undefined;
  const runner: RealQuotesRunner = (...args) => {
    calls.push(args);
    return new Promise((resolve, reject) => {
      finish = resolve;
      fail = reject;
    });
  };
  return {
    runner,
    calls,
    finish: (value: RealQuotesRun) => finish?.(value),
    fail: (error: Error) => fail?.(error),
  };
}

/** Until the runner was asked to run (after the fingerprints and the look for kept figures). */
const called = (held: { calls: readonly unknown[] }) =>
  vi.waitFor(() => {
    expect(held.calls.length).toBeGreaterThan(0);
  });
/** Until the service has said what came of its work (computed, kept, failed). */
const reported = (events: readonly string[], count: number) =>
  vi.waitFor(() => {
    expect(events.length).toBeGreaterThanOrEqual(count);
  });

describe('RealQuotesReportService', () => {
  let cacheDir: string;
  let events: string[];
  let fingerprint: string;

  beforeEach(async () => {
    cacheDir = await mkdtemp(path.join(tmpdir(), 'real-quotes-'));
    events = [];
    fingerprint = 'data-1';
  });
  afterEach(async () => {
    await rm(cacheDir, { recursive: true, force: true });
  });

  function service(runner: RealQuotesRunner, folder: string | undefined) {
    const dependencies: RealQuotesDependencies = {
      runner,
      fingerprint: () => Promise.resolve(fingerprint),
      robotVersion: () => Promise.resolve('robot-1'),
      now: () => new Date('2026-11-28T10:00:00Z'),
      onComputed: ({ fromCache }) => events.push(fromCache ? 'cached' : 'computed'),
      onFailed: (error) => events.push(`failed: ${error instanceof Error ? error.message : ''}`),
    };
    return new RealQuotesReportService(
      { folder, source: 'OANDA', cadence: 'quote', risk: 1, nice: 19, cacheDir },
      dependencies,
    );
  }

  it('without recorded quotes: unavailable, and nothing runs', () => {
    const held = heldRunner();
    const report = service(held.runner, undefined);
    report.start();
    expect(report.current()).toEqual({ status: 'unavailable' });
    expect(held.calls).toHaveLength(0);
  });

  it('computing with its progress, then the figures with their source, dates and cadence', async () => {
    const held = heldRunner();
    const report = service(held.runner, '/quotes');
    report.start();
    expect(report.current()).toEqual({ status: 'computing', progress: 0 });
    await called(held);
    expect(held.calls[0]?.[0]).toEqual({ folder: '/quotes', cadence: 'quote', risk: 1, nice: 19 });
    held.calls[0]?.[1](0.25);
    expect(report.current()).toEqual({ status: 'computing', progress: 0.25 });
    held.finish(run);
    await reported(events, 1);
    expect(report.current()).toEqual({
      status: 'ready',
      source: 'OANDA',
      from: '2014-05-01T00:00:00.043Z',
      to: '2014-05-15T23:59:56.324Z',
      instruments: ['EURUSD', 'XAUUSD'],
      quotes: 3_013_571,
      cadence: 'quote',
      risk: 1,
      startingBalanceUsd: 10_000,
      operations: 3,
      wins: 3,
      resultUsd: 6.6,
      noEdgeShare: 0.972,
      brierSkill: -0.0025,
      forecasts: 568_417,
      computedAt: '2026-11-28T10:00:00.000Z',
    });
    expect(events).toEqual(['computed']);
  });

  it('a restart with the same data and robot reads the kept figures instead of computing again', async () => {
    const first = heldRunner();
    const before = service(first.runner, '/quotes');
    before.start();
    await called(first);
    first.finish(run);
    await reported(events, 1);
    expect(await readdir(cacheDir)).toHaveLength(1);

    const second = heldRunner();
    const after = service(second.runner, '/quotes');
    after.start();
    await reported(events, 2);
    expect(second.calls).toHaveLength(0);
    expect(after.current()).toEqual(before.current());
    expect(events).toEqual(['computed', 'cached']);
  });

  it('other data (another fingerprint) is computed again', async () => {
    const first = heldRunner();
    const before = service(first.runner, '/quotes');
    before.start();
    await called(first);
    first.finish(run);
    await reported(events, 1);

    fingerprint = 'data-2';
    const second = heldRunner();
    service(second.runner, '/quotes').start();
    await vi.waitFor(() => {
      expect(second.calls).toHaveLength(1);
    });
  });

  it('a kept file that does not parse is ignored and the figures computed again', async () => {
    const first = heldRunner();
    service(first.runner, '/quotes').start();
    await called(first);
    first.finish(run);
    await reported(events, 1);
    const [file = ''] = await readdir(cacheDir);
    await writeFile(path.join(cacheDir, file), '{"key":');

    const second = heldRunner();
    service(second.runner, '/quotes').start();
    await vi.waitFor(() => {
      expect(second.calls).toHaveLength(1);
    });
  });

  it('a failed run: unavailable, said in the log, nothing kept', async () => {
    const held = heldRunner();
    const report = service(held.runner, '/quotes');
    report.start();
    await called(held);
    held.fail(new Error('EURUSD.csv:3: bid "x" is not a positive number'));
    await reported(events, 1);
    expect(report.current()).toEqual({ status: 'unavailable' });
    expect(events).toEqual(['failed: EURUSD.csv:3: bid "x" is not a positive number']);
    expect(await readdir(cacheDir)).toEqual([]);
  });

  it('stop ends a run still going through its signal, without calling it a failure', async () => {
    const held = heldRunner();
    const report = service(held.runner, '/quotes');
    report.start();
    await called(held);
    const signal = held.calls[0]?.[2];
    const stopped = report.stop();
    expect(signal?.aborted).toBe(true);
    held.fail(new Error('stopped'));
    await stopped;
    expect(events).toEqual([]);
  });
});
