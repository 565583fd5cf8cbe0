import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import yauzl from 'yauzl';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBacktest, type BacktestResult } from './run-backtest';

/**
 * Issue 36's held-back check, as far as we can make it ours: a set of real quotes in the
 * documented CSV format must run cleanly and agree with an independent replay. Here the same
 * quotes as a slice of the shared OANDA sample (decision 125) are written in every CSV form the
 * README documents and must give exactly the operations of the zip run; then every operation is
 * replayed on the raw quotes by code that shares nothing with the engine or its readers.
 */
const repoRoot = fileURLToPath(new URL('../../../../', import.meta.url));
const oanda = path.resolve(repoRoot, '..', 'shared', 'market-data', 'oanda-2014-05');
const days = ['20140505', '20140506'];
const range = {
  from: Date.parse('2014-05-05T00:00:00Z'),
  until: Date.parse('2014-05-07T00:00:00Z'),
};

interface RawQuote {
  readonly time: number;
  readonly bid: number;
  readonly ask: number;
}

/** A Lean day zip's one CSV as text, read with yauzl directly (not the engine's reader). */
function zipText(file: string): Promise<string> {
  return new Promise((resolve, reject) => {
    yauzl.open(file, { lazyEntries: true }, (error, zip) => {
      if (error) {
        reject(error);
        return;
      }
      zip.on('entry', (entry: yauzl.Entry) => {
        zip.openReadStream(entry, (streamError, stream) => {
          if (streamError) {
            reject(streamError);
            return;
          }
          const chunks: Buffer[] = [];
          stream.on('data', (chunk: Buffer) => chunks.push(chunk));
          stream.on('end', () => {
            resolve(Buffer.concat(chunks).toString('utf8'));
          });
          stream.on('error', reject);
        });
      });
      zip.readEntry();
    });
  });
}

/** The raw EURUSD quotes of the slice: rows `ms since midnight UTC,bid,ask`, in file order. */
async function rawQuotes(): Promise<RawQuote[]> {
  const quotes: RawQuote[] = [];
  for (const day of days) {
    const midnight = Date.parse(`${day.slice(0, 4)}-${day.slice(4, 6)}-${day.slice(6)}T00:00:00Z`);
    const text = await zipText(path.join(oanda, 'eurusd', `${day}_quote.zip`));
    for (const line of text.split(/\r?\n/)) {
      if (line.trim() === '') continue;
      const [ms, bid, ask] = line.split(',').map(Number);
      quotes.push({ time: midnight + (ms ?? NaN), bid: bid ?? NaN, ask: ask ?? NaN });
    }
  }
  return quotes;
}

/** The CSV forms the README documents for one instrument's file. */
const csvForms: Record<string, (quotes: readonly RawQuote[]) => string> = {
  'a header and epoch milliseconds': (quotes) =>
    ['time,bid,ask', ...quotes.map((q) => `${String(q.time)},${String(q.bid)},${String(q.ask)}`)]
      .join('\n')
      .concat('\n'),
  'no header and ISO-8601 times in UTC (Z)': (quotes) =>
    quotes
      .map((q) => `${new Date(q.time).toISOString()},${String(q.bid)},${String(q.ask)}`)
      .join('\n'),
  'a header, ISO-8601 times with +00:00 and CRLF line ends': (quotes) =>
    [
      'time,bid,ask',
      ...quotes.map(
        (q) =>
          `${new Date(q.time).toISOString().replace('Z', '+00:00')},${String(q.bid)},${String(q.ask)}`,
      ),
    ].join('\r\n'),
};

describe('the held-back check: recorded quotes in the documented CSV format', () => {
  let raw: RawQuote[];
  let zipRun: BacktestResult;
  let dir: string;

  beforeAll(async () => {
    raw = await rawQuotes();
    dir = await mkdtemp(path.join(tmpdir(), 'held-back-'));
    zipRun = await runBacktest({
      quotes: oanda,
      risk: 1,
      cadence: 'quote',
      instruments: ['EURUSD'],
      range,
    });
  }, 120_000);
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('the zip run of the slice trades: enough operations to compare, both take-profits and stop-losses', () => {
    expect(raw).toHaveLength(70_041);
    expect(zipRun.source.instruments[0]?.quotes).toBe(raw.length);
    const reasons = new Set(zipRun.trades.map((t) => t.closeReason));
    expect(zipRun.trades.length).toBeGreaterThanOrEqual(10);
    expect(reasons).toContain('tp');
    expect(reasons).toContain('sl');
  });

  for (const [form, write] of Object.entries(csvForms)) {
    it(`as one EURUSD.csv with ${form}: the same operations and figures as the zip run`, async () => {
      const folder = path.join(dir, form.replace(/\W+/g, '-'));
      await mkdir(folder);
      await writeFile(path.join(folder, 'EURUSD.csv'), write(raw));
      const csvRun = await runBacktest({ quotes: folder, risk: 1, cadence: 'quote' });
      expect(csvRun.source.format).toBe('csv');
      expect(csvRun.source.instruments).toEqual(zipRun.source.instruments);
      expect(csvRun.trades).toEqual(zipRun.trades);
      expect(csvRun.accounts).toEqual(zipRun.accounts);
      expect(csvRun.model).toEqual(zipRun.model);
      expect(csvRun.time).toEqual(zipRun.time);
      expect(csvRun.ticks).toBe(zipRun.ticks);
    }, 120_000);
  }

  it('every operation agrees with an independent replay of the raw quotes: which of take-profit or stop-loss came first, when, at what price, and its P&L', () => {
    const pip = 0.0001;
    let replayed = 0;
    for (const trade of zipRun.trades) {
      const where = `${trade.positionId} opened ${new Date(trade.openedAt).toISOString()}`;
      // It opened on a real quote: the first raw quote of that time with its bid and ask.
      const opening = raw.findIndex(
        (q) => q.time === trade.openedAt && q.bid === trade.entryBid && q.ask === trade.entryAsk,
      );
      expect(opening, where).toBeGreaterThanOrEqual(0);
      const buy = trade.side === 'buy';
      expect(trade.entryPrice, where).toBe(buy ? trade.entryAsk : trade.entryBid);
      // The published geometry: take-profit one pip beyond the spread from the closing price,
      // stop-loss five times that distance (to the price's last digit).
      const spread = trade.entryAsk - trade.entryBid;
      const exitAtEntry = buy ? trade.entryBid : trade.entryAsk;
      const direction = buy ? 1 : -1;
      expect((trade.takeProfit - exitAtEntry) * direction, where).toBeCloseTo(spread + pip, 5);
      expect((exitAtEntry - trade.stopLoss) * direction, where).toBeCloseTo(5 * (spread + pip), 4);

      // Replay: a buy closes at the bid, a sale at the ask; the first quote after the opening
      // that reaches either level decides. A take-profit fills at its level, a stop at the quote.
      let outcome: { reason: 'tp' | 'sl'; time: number; price: number } | undefined;
      for (const q of raw.slice(opening + 1)) {
        if (outcome) break;
        if (q.ask < q.bid) continue;
        const exit = buy ? q.bid : q.ask;
        if ((exit - trade.takeProfit) * direction >= 0) {
          outcome = { reason: 'tp', time: q.time, price: trade.takeProfit };
        } else if ((trade.stopLoss - exit) * direction >= 0) {
          outcome = { reason: 'sl', time: q.time, price: exit };
        }
      }
      if (!outcome) {
        expect(trade.closeReason, where).toBe('open');
        continue;
      }
      replayed++;
      expect(trade.closeReason, where).toBe(outcome.reason);
      expect(trade.closedAt, where).toBe(outcome.time);
      expect(trade.closePrice, where).toBe(outcome.price);
      // EURUSD is quoted in dollars: profit = price moved × units, to the cent.
      const dollars = (outcome.price - trade.entryPrice) * trade.units * direction;
      expect(Math.abs((trade.profitCents ?? NaN) - dollars * 100), where).toBeLessThanOrEqual(
        0.5 + 1e-6,
      );
    }
    expect(replayed).toBeGreaterThanOrEqual(10);
  });
});
