import { afterEach, describe, expect, it } from 'vitest';
import { InstrumentCatalogue } from '../../instruments/catalogue';
import type { Tick } from '../../market-data/tick';
import { CTraderRateLimitError } from './errors';
import { CTraderTickHistory, decodeTickData, mergeSides } from './tick-history';
import {
  FakeCTraderServer,
  type FakeQuote,
} from '../../../test-support/ctrader-fake/fake-ctrader-server';
import { DEMO_ACCOUNT, EURUSD, fakeOptions } from '../../../test-support/ctrader-fake/fixtures';
import { connectBroker } from '../../../test-support/ctrader-fake/harness';
import { CTraderProtocol } from './protocol';

/**
 * The broker's own tick history (ProtoOAGetTickDataReq/Res), read by the real adapter from the
 * fake: the delta encoding of the definitions, paging back while the server has more, both sides
 * merged into ticks, and the API's historical-request limit kept.
 */

const protocol = CTraderProtocol.load();
const catalogue = new InstrumentCatalogue();
const cleanups: (() => unknown)[] = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** `count` quotes a second apart from `start`, one side moving each time (bid, ask, bid...). */
function quotes(start: number, count: number): FakeQuote[] {
  const made: FakeQuote[] = [];
  let bid = EURUSD.bid;
  let ask = EURUSD.ask;
  for (let i = 0; i < count; i++) {
    const step = ((i % 7) - 3 || 1) * 0.00001;
    if (i % 2 === 0) bid = Number((bid + step).toFixed(5));
    else ask = Number((ask + step).toFixed(5));
    made.push({ time: start + i * 1000, bid, ask });
  }
  return made;
}

async function fakeWith(past: readonly FakeQuote[], chunk: number): Promise<FakeCTraderServer> {
  const server = new FakeCTraderServer({
    ...fakeOptions({ symbols: [EURUSD], tickDataChunkSize: chunk }),
    protocol,
  });
  await server.listen();
  cleanups.push(() => server.close());
  server.pastPrices(EURUSD.symbolId, past);
  return server;
}

describe('decodeTickData', () => {
  it('reads the first entry as absolute and each later one as a difference from the one before', () => {
    expect(
      decodeTickData([
        { timestamp: 1_700_000_003_000, tick: 108_125 },
        { timestamp: -1000, tick: -3 },
        { timestamp: -500, tick: 7 },
      ]),
    ).toEqual([
      { time: 1_700_000_003_000, price: 1.08125 },
      { time: 1_700_000_002_000, price: 1.08122 },
      { time: 1_700_000_001_500, price: 1.08129 },
    ]);
    expect(decodeTickData([])).toEqual([]);
  });
});

describe('mergeSides', () => {
  it('gives a tick at each move of either side once both are known, the last of a millisecond standing', () => {
    const bids = [
      { time: 1000, price: 1.1 },
      { time: 3000, price: 1.2 },
      { time: 3000, price: 1.25 },
      { time: 5000, price: 1.3 },
    ];
    const asks = [
      { time: 2000, price: 1.11 },
      { time: 3000, price: 1.26 },
      { time: 4000, price: 1.31 },
    ];
    expect(mergeSides('EURUSD', bids, asks)).toEqual([
      { symbol: 'EURUSD', time: 2000, bid: 1.1, ask: 1.11 },
      { symbol: 'EURUSD', time: 3000, bid: 1.25, ask: 1.26 },
      { symbol: 'EURUSD', time: 4000, bid: 1.25, ask: 1.31 },
      { symbol: 'EURUSD', time: 5000, bid: 1.3, ask: 1.31 },
    ]);
    // One side never quoted: nothing is invented.
    expect(mergeSides('EURUSD', bids, [])).toEqual([]);
  });
});

describe('CTraderTickHistory on the fake', () => {
  it('asks again after REQUEST_FREQUENCY_EXCEEDED and reports every page', async () => {
    const start = Date.now() - 3_600_000;
    const past = quotes(start, 100);
    const server = await fakeWith(past, 10);
    // A client that believes the limit is ten a second: the fake refuses past its five.
    const { client, close } = await connectBroker(server, 'acc-1', {
      catalogue,
      client: { historicalRequestsPerSecond: 10 },
    });
    cleanups.push(close);
    await client.authorizeAccount(DEMO_ACCOUNT.ctidTraderAccountId, DEMO_ACCOUNT.accessToken);
    const history = new CTraderTickHistory(client);
    const pages: number[] = [];
    const ticks = await history.ticks(
      DEMO_ACCOUNT.ctidTraderAccountId,
      [{ symbolId: EURUSD.symbolId, symbol: 'EURUSD' }],
      start,
      start + 99_000,
      {
        rateLimitWaitMs: 300,
        onProgress: (progress) => pages.push(progress.requests),
        maxPagesPerSide: 50,
      },
    );
    expect(ticks).toEqual(past.map((quote) => ({ symbol: 'EURUSD', ...quote })));
    // 50 bid moves and 51 ask moves in pages of 10: 11 pages, some refused and asked again.
    expect(pages).toEqual(Array.from({ length: 11 }, (_, i) => i + 1));
    const sent = server.requests('ProtoOAGetTickDataReq').length;
    expect(sent).toBeGreaterThan(11);
  });

  it('gives up after its retries when the server keeps refusing', async () => {
    const start = Date.now() - 3_600_000;
    const server = await fakeWith(quotes(start, 200), 10);
    const { client, close } = await connectBroker(server, 'acc-1', {
      catalogue,
      client: { historicalRequestsPerSecond: 50 },
    });
    cleanups.push(close);
    await client.authorizeAccount(DEMO_ACCOUNT.ctidTraderAccountId, DEMO_ACCOUNT.accessToken);
    const history = new CTraderTickHistory(client);
    const read = (symbolId: number) =>
      history.side(DEMO_ACCOUNT.ctidTraderAccountId, symbolId, 'BID', start, start + 199_000, {
        rateLimitWaitMs: 1,
        rateLimitRetries: 0,
        maxPagesPerSide: 50,
      });
    const results = await Promise.allSettled(
      Array.from({ length: 8 }, () => read(EURUSD.symbolId)),
    );
    const refused = results.filter((r) => r.status === 'rejected');
    expect(refused.length).toBeGreaterThan(0);
    for (const r of refused) expect(r.reason).toBeInstanceOf(CTraderRateLimitError);
  });
});

describe('CTraderBroker.recentTicks on the fake', () => {
  it('sends newest first and delta-encoded, as the definitions say', async () => {
    const start = Date.now() - 3_600_000;
    const server = await fakeWith(quotes(start, 6), 100);
    const { client, broker, close } = await connectBroker(server, 'acc-1', { catalogue });
    cleanups.push(close);
    await broker.start();
    const answer = await client.request('ProtoOAGetTickDataReq', {
      ctidTraderAccountId: DEMO_ACCOUNT.ctidTraderAccountId,
      symbolId: EURUSD.symbolId,
      type: 'BID',
      fromTimestamp: start,
      toTimestamp: start + 10_000,
    });
    const raw = answer.body.tickData as { timestamp: number; tick: number }[];
    // Bids moved at 0, 2 and 4 seconds: the newest absolute, then differences going back.
    expect(raw.map((entry) => entry.timestamp)).toEqual([start + 4000, -2000, -2000]);
    expect(raw[0]?.tick).toBeGreaterThan(100_000);
    expect(Math.abs(raw[1]?.tick ?? Infinity)).toBeLessThan(10);
    expect(answer.body.hasMore).toBe(false);
  });

  it('pages back through both sides, merges them into ticks and keeps the historical limit', async () => {
    const start = Date.now() - 3_600_000;
    const past = quotes(start, 300);
    // 150 bid moves and 151 ask moves (the first quote names both) in pages of 30: five pages
    // of bids and six of asks, more than the API's five historical requests a second.
    const server = await fakeWith(past, 30);
    const { broker, close } = await connectBroker(server, 'acc-1', { catalogue });
    cleanups.push(close);
    await broker.start();
    const began = performance.now();
    const ticks = await broker.recentTicks('acc-1', start, start + 299_000);
    const elapsed = performance.now() - began;

    const expected: Tick[] = past.map((quote) => ({ symbol: 'EURUSD', ...quote }));
    expect(ticks).toEqual(expected);
    const requests = server.requests('ProtoOAGetTickDataReq');
    expect(requests.map((request) => request.body.type)).toEqual([
      ...Array<string>(5).fill('BID'),
      ...Array<string>(6).fill('ASK'),
    ]);
    // Each page ends just before the oldest tick of the one before it.
    const ends = requests.slice(0, 5).map((request) => request.body.toTimestamp as number);
    expect(ends[0]).toBe(start + 299_000);
    for (let i = 1; i < ends.length; i++) {
      expect(ends[i]).toBe(start + (150 - 30 * i) * 2000 - 1);
    }
    // The fake refuses a sixth historical request within a second (REQUEST_FREQUENCY_EXCEEDED):
    // none was refused, because the client paced them, which took more than a second.
    expect(elapsed).toBeGreaterThan(1000);
  });

  it('stops at the page bound, and gives nothing for an empty window', async () => {
    const start = Date.now() - 3_600_000;
    const server = await fakeWith(quotes(start, 100), 10);
    const { broker, close } = await connectBroker(server, 'acc-1', { catalogue });
    cleanups.push(close);
    await broker.start();
    const ticks = await broker.recentTicks('acc-1', start, start + 99_000, 2);
    expect(server.requests('ProtoOAGetTickDataReq')).toHaveLength(4);
    // The newest 20 bids and 20 asks: ticks from the first time both sides are known.
    expect(ticks.length).toBeGreaterThan(30);
    expect(ticks.every((tick) => tick.time >= start + 60_000)).toBe(true);
    expect(await broker.recentTicks('acc-1', start - 7_200_000, start - 1)).toEqual([]);
  });
});
