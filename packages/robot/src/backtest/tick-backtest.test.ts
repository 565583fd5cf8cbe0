import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { CTraderClient } from '../broker/ctrader/client';
import { FakeCTraderServer } from '../../test-support/ctrader-fake/fake-ctrader-server';
import {
  DEMO_ACCOUNT,
  EURUSD,
  FAKE_APP,
  NZDUSD,
  fakeOptions,
} from '../../test-support/ctrader-fake/fixtures';
import { serveRecordedTicks } from '../../test-support/ctrader-fake/recorded-ticks';
import { CTraderTickHistory } from '../broker/ctrader/tick-history';
import { backtestTicks, ticksToSeries } from './tick-backtest';

/** The shared sample sits beside the repository, in CI as here (decision 125). */
const repoRoot = fileURLToPath(new URL('../../../../', import.meta.url));
const oanda = path.resolve(repoRoot, '..', 'shared', 'market-data', 'oanda-2014-05');
const dayMs = 86_400_000;
const cleanups: (() => unknown)[] = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe('ticksToSeries', () => {
  it('splits ticks by symbol in the catalogue order, skipping and counting crossed quotes', () => {
    const series = ticksToSeries([
      { symbol: 'NZDUSD', time: 1, bid: 0.86, ask: 0.87 },
      { symbol: 'EURUSD', time: 2, bid: 1.38, ask: 1.39 },
      { symbol: 'NZDUSD', time: 3, bid: 0.87, ask: 0.86 },
      { symbol: 'NZDUSD', time: 4, bid: 0.85, ask: 0.86 },
    ]);
    expect(series.map((s) => [s.symbol, s.length, s.crossed])).toEqual([
      ['EURUSD', 1, 0],
      ['NZDUSD', 2, 1],
    ]);
    expect([...(series[1]?.times ?? [])]).toEqual([1, 4]);
    expect([...(series[1]?.bids ?? [])]).toEqual([0.86, 0.85]);
  });

  it('refuses ticks of a symbol that go back in time', () => {
    expect(() =>
      ticksToSeries([
        { symbol: 'EURUSD', time: 2, bid: 1.38, ask: 1.39 },
        { symbol: 'EURUSD', time: 1, bid: 1.38, ask: 1.39 },
      ]),
    ).toThrow(/back in time/);
  });
});

describe('backtestTicks', () => {
  it('leaves out an instrument it cannot value in USD, and gives nothing when none is left', async () => {
    const ticks = Array.from({ length: 3 }, (_, i) => ({
      symbol: 'EURJPY',
      time: Date.parse('2014-05-06T10:00:00Z') + i * 1000,
      bid: 141.1,
      ask: 141.12,
    }));
    expect(await backtestTicks(ticks, { risk: 1, cadence: 'quote' })).toBeUndefined();
    const withEuro = await backtestTicks(
      [...ticks, { symbol: 'EURUSD', time: ticks[0]?.time ?? 0, bid: 1.38, ask: 1.3801 }].sort(
        (a, b) => a.time - b.time,
      ),
      { risk: 1, cadence: 'quote' },
    );
    expect(withEuro?.leftOut).toEqual(['EURJPY']);
    expect(withEuro?.instruments.map((i) => i.symbol)).toEqual(['EURUSD']);
  });
});

describe('the fake broker serving the shared sample, read back and backtested', () => {
  it('shifts the sample by whole weeks into the last days and pages it back as it was', async () => {
    // A Wednesday noon: the sample (1-15 May 2014, Thursday to Thursday) lands on the weeks before.
    const now = Date.parse('2026-11-25T12:00:00Z');
    const server = new FakeCTraderServer({
      ...fakeOptions({
        symbols: [EURUSD, NZDUSD],
        tickDataChunkSize: 20_000,
        tickHistoryLimit: 1_000_000,
      }),
    });
    await server.listen();
    cleanups.push(() => server.close());
    const served = await serveRecordedTicks(server, oanda, [EURUSD, NZDUSD], { days: 2, now });
    expect(served.shiftMs % (7 * dayMs)).toBe(0);
    // 23-25 November 2026 (Monday noon to Wednesday noon) are 12-14 May 2014 shifted.
    expect(new Date(Date.parse('2014-05-12T12:00:00Z') + served.shiftMs).toISOString()).toBe(
      '2026-11-23T12:00:00.000Z',
    );
    expect(served.quotes.EURUSD).toBeGreaterThan(50_000);

    const client = new CTraderClient({
      host: '127.0.0.1',
      port: server.port,
      tls: false,
      ...FAKE_APP,
      protocol: server.protocol,
    });
    await client.connect();
    cleanups.push(() => {
      client.close();
    });
    await client.authorizeAccount(DEMO_ACCOUNT.ctidTraderAccountId, DEMO_ACCOUNT.accessToken);
    const ticks = await new CTraderTickHistory(client).ticks(
      DEMO_ACCOUNT.ctidTraderAccountId,
      [
        { symbolId: EURUSD.symbolId, symbol: 'EURUSD' },
        { symbolId: NZDUSD.symbolId, symbol: 'NZDUSD' },
      ],
      now - 2 * dayMs,
      now,
      { maxPagesPerSide: 1000 },
    );
    expect(server.requests('ProtoOAGetTickDataReq').length).toBeGreaterThan(4);
    expect(ticks.every((tick) => tick.time >= now - 2 * dayMs && tick.time <= now)).toBe(true);
    const euro = ticks.filter((tick) => tick.symbol === 'EURUSD');
    // Sides are served when they move: the merged ticks are at most the quotes served.
    expect(euro.length).toBeGreaterThan(0.5 * (served.quotes.EURUSD ?? 0));
    expect(euro.length).toBeLessThanOrEqual(served.quotes.EURUSD ?? 0);

    const summary = await backtestTicks(ticks, { risk: 1, cadence: 60_000 });
    expect(summary?.instruments.map((i) => i.symbol)).toEqual(['EURUSD', 'NZDUSD']);
    expect(summary?.marketOpenMinutes).toBeGreaterThan(2000);
    // Real quotes: the robot mostly finds no edge (decision 125's measure).
    expect(summary?.noEdgeShare).toBeGreaterThan(0.5);
    expect(summary?.depositUsd).toBe(10_000);
  }, 120_000);
});
