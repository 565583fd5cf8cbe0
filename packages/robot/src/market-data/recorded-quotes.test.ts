import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import yazl from 'yazl';
import { InstrumentCatalogue } from '../instruments/catalogue';
import { RecordedQuoteFeed } from './recorded-quote-feed';
import {
  QuoteFileError,
  readCsvQuotes,
  readLeanQuotes,
  readQuoteFolder,
  type QuoteSeries,
} from './recorded-quotes';
import type { Tick } from './tick';

let dir: string;
const catalogue = new InstrumentCatalogue();
const may5 = Date.parse('2014-05-05T00:00:00Z');
const may6 = Date.parse('2014-05-06T00:00:00Z');

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'recorded-quotes-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function file(name: string, text: string): Promise<string> {
  const target = path.join(dir, name);
  await mkdir(path.dirname(target), { recursive: true });
  await writeFile(target, text);
  return target;
}

/** A Lean day file as QuantConnect publishes it: one CSV inside a zip. */
async function leanZip(target: string, entries: Record<string, string>): Promise<void> {
  await mkdir(path.dirname(target), { recursive: true });
  const zip = new yazl.ZipFile();
  for (const [name, text] of Object.entries(entries)) zip.addBuffer(Buffer.from(text), name);
  zip.end();
  const out = createWriteStream(target);
  zip.outputStream.pipe(out);
  await once(out, 'close');
}

const rows = (s: QuoteSeries) =>
  Array.from({ length: s.length }, (_, i) => [s.times[i], s.bids[i], s.asks[i]]);

async function failure(read: Promise<unknown>): Promise<string> {
  const error: unknown = await read.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(QuoteFileError);
  return (error as QuoteFileError).message;
}

describe('readCsvQuotes', () => {
  it('reads epoch milliseconds without a header', async () => {
    const f = await file('a/EURUSD.csv', `${may5},1.38710,1.38726\n${may5 + 250},1.3871,1.38727\n`);
    const s = await readCsvQuotes(f, 'EURUSD');
    expect(rows(s)).toEqual([
      [may5, 1.3871, 1.38726],
      [may5 + 250, 1.3871, 1.38727],
    ]);
    expect(s.crossed).toBe(0);
  });

  it('reads ISO-8601 UTC times under a time,bid,ask header, CRLF and a last line without its end', async () => {
    const f = await file(
      'b/EURUSD.csv',
      'time,bid,ask\r\n2014-05-05T00:00:00Z,1.38710,1.38726\r\n\r\n2014-05-05T00:00:00.250+00:00,1.3871,1.38727',
    );
    const s = await readCsvQuotes(f, 'EURUSD');
    expect(rows(s)).toEqual([
      [may5, 1.3871, 1.38726],
      [may5 + 250, 1.3871, 1.38727],
    ]);
  });

  it('keeps only the quotes in the range asked for, having checked them all', async () => {
    const f = await file('c/EURUSD.csv', `${may5},1.1,1.2\n${may6},1.1,1.2\n${may6 + 1},1.1,1.2\n`);
    const s = await readCsvQuotes(f, 'EURUSD', { from: may5 + 1, until: may6 + 1 });
    expect(rows(s)).toEqual([[may6, 1.1, 1.2]]);
  });
});

describe('a bad file is refused with its name and line', () => {
  it('a missing column', async () => {
    const f = await file('bad/missing.csv', `${may5},1.1,1.2\n${may5 + 1},1.1\n`);
    expect(await failure(readCsvQuotes(f, 'EURUSD'))).toBe(
      `${f}:2: expected 3 columns (time,bid,ask), found 2`,
    );
  });

  it('a price that is not a number', async () => {
    const f = await file('bad/price.csv', `time,bid,ask\n${may5},1.1,1.2\n${may5 + 1},1.1,abc\n`);
    expect(await failure(readCsvQuotes(f, 'EURUSD'))).toBe(
      `${f}:3: ask "abc" is not a positive number`,
    );
  });

  it('a time that is neither epoch milliseconds nor ISO-8601 with its zone', async () => {
    const f = await file('bad/time.csv', '2014-05-05T00:00:00,1.1,1.2\n');
    expect(await failure(readCsvQuotes(f, 'EURUSD'))).toMatch(
      new RegExp(`^${f}:1: time "2014-05-05T00:00:00" is neither epoch milliseconds`),
    );
    const negative = await file('bad/negative.csv', '-5,1.1,1.2\n');
    expect(await failure(readCsvQuotes(negative, 'EURUSD'))).toMatch(
      new RegExp(`^${negative}:1: time "-5" is neither epoch milliseconds`),
    );
  });

  it('times out of order', async () => {
    const f = await file(
      'bad/order.csv',
      `${may5 + 5},1.1,1.2\n${may5 + 5},1.1,1.2\n${may5},1.1,1.2\n`,
    );
    expect(await failure(readCsvQuotes(f, 'EURUSD'))).toBe(
      `${f}:3: time 2014-05-05T00:00:00.000Z comes before the previous quote's 2014-05-05T00:00:00.005Z (quotes must be in time order)`,
    );
  });

  it('an empty file, or one with only its header', async () => {
    const empty = await file('bad/empty.csv', '');
    const header = await file('bad/header.csv', 'time,bid,ask\n');
    expect(await failure(readCsvQuotes(empty, 'EURUSD'))).toBe(`${empty}: holds no quotes`);
    expect(await failure(readCsvQuotes(header, 'EURUSD'))).toBe(`${header}: holds no quotes`);
  });

  it('an instrument the catalogue does not hold, before any file is read', async () => {
    // Read first in name order, and bad: the unknown name is found before any file is read.
    await file('unknown/EURUSD.csv', `${may5},1.1\n`);
    await file('unknown/EURXYZ.csv', `${may5},1.1,1.2\n`);
    expect(await failure(readQuoteFolder(path.join(dir, 'unknown'), catalogue))).toBe(
      `${path.join(dir, 'unknown', 'EURXYZ.csv')}: "EURXYZ" is not an instrument of the catalogue (name files by its symbol, such as EURUSD.csv)`,
    );
  });

  it('a good file beside a bad one: the folder is refused whole', async () => {
    await file('half/EURUSD.csv', `${may5},1.1,1.2\n`);
    const bad = await file('half/NZDUSD.csv', `${may5},0.86,0.87\n${may5 + 1},-1,0.87\n`);
    expect(await failure(readQuoteFolder(path.join(dir, 'half'), catalogue))).toBe(
      `${bad}:2: bid "-1" is not a positive number`,
    );
  });

  it('a Lean zip holding two files, or a row outside its day', async () => {
    const two = path.join(dir, 'lean-bad', 'eurusd', '20140505_quote.zip');
    await leanZip(two, { 'a.csv': '1,1.1,1.2\n', 'b.csv': '2,1.1,1.2\n' });
    expect(await failure(readLeanQuotes(path.dirname(two), 'EURUSD'))).toBe(
      `${two}: must hold exactly one CSV file, holds a.csv, b.csv`,
    );
    const late = path.join(dir, 'lean-late', 'eurusd', '20140505_quote.zip');
    await leanZip(late, { 'x.csv': '1,1.1,1.2\n86400000,1.1,1.2\n' });
    expect(await failure(readLeanQuotes(path.dirname(late), 'EURUSD'))).toBe(
      `${late}:2: time "86400000" is not milliseconds since midnight (0 to 86399999)`,
    );
  });
});

describe('crossed quotes', () => {
  it('are counted and skipped, not refused', async () => {
    const f = await file(
      'crossed/EURUSD.csv',
      `${may5},1.1,1.2\n${may5 + 1},1.2,1.1\n${may5 + 2},1.15,1.15\n`,
    );
    const s = await readCsvQuotes(f, 'EURUSD');
    expect(s.crossed).toBe(1);
    expect(rows(s)).toEqual([
      [may5, 1.1, 1.2],
      [may5 + 2, 1.15, 1.15],
    ]);
  });
});

describe('readLeanQuotes', () => {
  it('reads each day zip (ms since midnight UTC, fractions kept) and opens no day outside the range', async () => {
    const folder = path.join(dir, 'lean', 'xauusd');
    await leanZip(path.join(folder, '20140505_quote.zip'), {
      '20140505_xauusd_tick_quote.csv': '40.1868,1300.335,1300.799\n42.666,1300.335,1300.814\n',
    });
    await leanZip(path.join(folder, '20140506_quote.zip'), {
      '20140506_xauusd_tick_quote.csv': '1000,1301.1,1301.5\n',
    });
    // Unreadable, and outside the range: never opened.
    await file('lean/xauusd/20140507_quote.zip', 'not a zip');
    const s = await readLeanQuotes(folder, 'XAUUSD', { until: may6 + 86_400_000 });
    expect(rows(s)).toEqual([
      [may5 + 40.1868, 1300.335, 1300.799],
      [may5 + 42.666, 1300.335, 1300.814],
      [may6 + 1000, 1301.1, 1301.5],
    ]);
    expect(await failure(readLeanQuotes(folder, 'XAUUSD'))).toMatch(
      /20140507_quote\.zip: is not a readable zip/,
    );
    const folderRead = await readQuoteFolder(path.join(dir, 'lean'), catalogue, {
      until: may6 + 86_400_000,
    });
    expect(folderRead.format).toBe('lean');
    expect(folderRead.series.map((x) => x.symbol)).toEqual(['XAUUSD']);
  });
});

function series(symbol: string, times: number[]): QuoteSeries {
  return {
    symbol,
    length: times.length,
    times: Float64Array.from(times),
    bids: Float64Array.from(times, (t) => 1 + t / 1e9),
    asks: Float64Array.from(times, (t) => 1.0001 + t / 1e9),
    crossed: 0,
    files: [],
  };
}

describe('RecordedQuoteFeed', () => {
  it('merges the instruments in time order, in the order given at equal times', () => {
    const feed = new RecordedQuoteFeed([
      series('EURUSD', [may5, may5 + 10, may5 + 30]),
      series('NZDUSD', [may5 + 5, may5 + 10, may5 + 40]),
    ]);
    const seen: Tick[] = [];
    feed.subscribe((tick) => seen.push(tick));
    expect(feed.total).toBe(6);
    expect(feed.nextTime()).toBe(may5);
    feed.advanceTo(may5 + 10);
    expect(feed.nextTime()).toBe(may5 + 30);
    feed.advanceTo(Infinity);
    expect(feed.nextTime()).toBeUndefined();
    expect(seen.map((t) => `${t.symbol}@${String(t.time - may5)}`)).toEqual([
      'EURUSD@0',
      'NZDUSD@5',
      'EURUSD@10',
      'NZDUSD@10',
      'EURUSD@30',
      'NZDUSD@40',
    ]);
    expect(feed.lastTick('EURUSD')?.time).toBe(may5 + 30);
    expect(feed.count).toBe(6);
  });

  it('at a 1-minute cadence publishes the last quote of each minute, at its own time', () => {
    const m = 60_000;
    const feed = new RecordedQuoteFeed(
      [series('EURUSD', [may5, may5 + 59_999, may5 + m, may5 + 3 * m + 1, may5 + 3 * m + 2])],
      m,
    );
    const seen: number[] = [];
    feed.subscribe((tick) => seen.push(tick.time - may5));
    feed.advanceTo(Infinity);
    expect(seen).toEqual([59_999, m, 3 * m + 2]);
    expect(feed.total).toBe(3);
  });
});
