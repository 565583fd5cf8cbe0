import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { trackRecordResponseSchema, type RealQuotesReport } from '@tradebot/contract';
import { backtestFigures, runBacktest } from '@tradebot/robot/backtest';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { v1 } from './helpers/accounts';
import { useTestApp } from './helpers/app';

// The first app of a file migrates PGlite: on a loaded machine that alone can pass 30 s.
vi.setConfig({ hookTimeout: 120_000 });

/** The shared OANDA sample beside the repository (test data only: decisions 125 and 142). */
const oanda = fileURLToPath(
  new URL('../../../../shared/market-data/oanda-2014-05/', import.meta.url),
);

async function realQuotes(app: FastifyInstance): Promise<RealQuotesReport> {
  const response = await app.inject({ url: `${v1}/track-record` });
  expect(response.statusCode).toBe(200);
  return trackRecordResponseSchema.parse(response.json()).data.realQuotes;
}

/** Polls the public track record until the recorded-quote figures are no longer computing. */
async function settled(app: FastifyInstance): Promise<RealQuotesReport> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    const report = await realQuotes(app);
    if (report.status !== 'computing') return report;
    if (Date.now() > deadline) throw new Error('still computing after 120 s');
    // Answers are kept 5 s (trackRecordCacheMs).
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}

describe('the track record on recorded real quotes (decision 142)', () => {
  // One day of EURUSD, copied from the shared sample for the test's life (never into the repo).
  let folder: string;
  beforeAll(async () => {
    folder = await fs.mkdtemp(path.join(os.tmpdir(), 'real-quotes-'));
    await fs.mkdir(path.join(folder, 'eurusd'));
    await fs.copyFile(
      path.join(oanda, 'eurusd', '20140505_quote.zip'),
      path.join(folder, 'eurusd', '20140505_quote.zip'),
    );
  });
  afterAll(async () => {
    await fs.rm(folder, { recursive: true, force: true });
  });

  describe('with RECORDED_QUOTES_DIR', () => {
    const context = useTestApp(() => ({
      RECORDED_QUOTES_DIR: folder,
      RECORDED_QUOTES_SOURCE: 'OANDA, one day',
      // At nice 19 a busy machine (other tests) leaves it almost no CPU: the figures, not the
      // priority, are what this test checks.
      RECORDED_QUOTES_NICE: '0',
    }));

    it('computes in a child process the figures the robot gives in process, and keeps them', async () => {
      const report = await settled(context.app);
      const direct = backtestFigures(
        await runBacktest({ quotes: folder, risk: 1, cadence: 'quote' }),
      );
      expect(report).toEqual({
        status: 'ready',
        source: 'OANDA, one day',
        from: new Date(direct.first).toISOString(),
        to: new Date(direct.last).toISOString(),
        instruments: ['EURUSD'],
        quotes: direct.quotes,
        cadence: 'quote',
        risk: 1,
        startingBalanceUsd: 10_000,
        operations: direct.operations,
        wins: direct.wins,
        resultUsd: direct.resultUsd,
        noEdgeShare: direct.noEdgeShare,
        brierSkill: direct.brierSkill,
        forecasts: direct.forecasts,
        computedAt: expect.any(String) as string,
      });
      expect(report.status === 'ready' && report.from).toBe('2014-05-05T00:00:23.668Z');
      const kept = await fs.readdir(path.join(context.app.config.dataDir, 'real-quotes'));
      expect(kept).toHaveLength(1);
    }, 150_000);
  });

  describe('with RECORDED_QUOTES_DIR naming a folder that is not there', () => {
    const context = useTestApp(() => ({ RECORDED_QUOTES_DIR: path.join(folder, 'missing') }));

    it('says the figures are not available', async () => {
      expect(await settled(context.app)).toEqual({ status: 'unavailable' });
    });
  });
});
