import { once } from 'node:events';
import { createReadStream } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { finished, type Readable } from 'node:stream';
import yauzl from 'yauzl';
import type { InstrumentCatalogue } from '../instruments/catalogue';

/**
 * Recorded quotes (decision 125): per instrument, the series of (time, bid, ask) read from
 * files, held in typed arrays (24 bytes a quote) rather than one object per row.
 */
export interface QuoteSeries {
  readonly symbol: string;
  readonly length: number;
  /** Epoch milliseconds (UTC), non-decreasing. */
  readonly times: Float64Array;
  readonly bids: Float64Array;
  readonly asks: Float64Array;
  /** Rows skipped because their ask was below their bid. */
  readonly crossed: number;
  /** The files the series was read from, in reading order. */
  readonly files: readonly string[];
}

/** A file that cannot be read as quotes; the message names the file and, when known, the line. */
export class QuoteFileError extends Error {
  constructor(
    readonly file: string,
    readonly line: number | undefined,
    problem: string,
  ) {
    super(`${file}${line === undefined ? '' : `:${String(line)}`}: ${problem}`);
    this.name = 'QuoteFileError';
  }
}

/** Quotes kept: times from `from` on and before `until` (epoch ms); the rest are read and checked only. */
export interface TimeRange {
  readonly from?: number;
  readonly until?: number;
}

const dayMs = 86_400_000;
/** Digits with an optional fraction: no sign, no exponent (prices are positive, times after 1970). */
const plainNumber = /^(\d+\.?\d*|\.\d+)$/;
/** An ISO-8601 date and time with its offset: a time without one would be read as local time. */
const isoWithOffset = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/i;

/** Grows typed arrays as rows come, checking order and skipping crossed quotes. */
class SeriesBuilder {
  private times: Float64Array = new Float64Array(1024);
  private bids: Float64Array = new Float64Array(1024);
  private asks: Float64Array = new Float64Array(1024);
  private length = 0;
  private lastTime = -Infinity;
  private crossed = 0;
  private readonly files: string[] = [];
  private rowsInFile = 0;

  constructor(
    readonly symbol: string,
    private readonly range: TimeRange,
  ) {}

  startFile(file: string): void {
    this.files.push(file);
    this.rowsInFile = 0;
  }

  /** Ends a file: one that held no quote at all is refused. */
  endFile(file: string): void {
    if (this.rowsInFile === 0) throw new QuoteFileError(file, undefined, 'holds no quotes');
  }

  add(time: number, bid: number, ask: number, file: string, line: number): void {
    this.rowsInFile++;
    if (time < this.lastTime) {
      throw new QuoteFileError(
        file,
        line,
        `time ${new Date(time).toISOString()} comes before the previous quote's ${new Date(this.lastTime).toISOString()} (quotes must be in time order)`,
      );
    }
    this.lastTime = time;
    if (ask < bid) {
      this.crossed++;
      return;
    }
    if (this.range.from !== undefined && time < this.range.from) return;
    if (this.range.until !== undefined && time >= this.range.until) return;
    if (this.length === this.times.length) {
      this.times = grow(this.times);
      this.bids = grow(this.bids);
      this.asks = grow(this.asks);
    }
    this.times[this.length] = time;
    this.bids[this.length] = bid;
    this.asks[this.length] = ask;
    this.length++;
  }

  build(): QuoteSeries {
    return {
      symbol: this.symbol,
      length: this.length,
      times: this.times.slice(0, this.length),
      bids: this.bids.slice(0, this.length),
      asks: this.asks.slice(0, this.length),
      crossed: this.crossed,
      files: this.files,
    };
  }
}

function grow(array: Float64Array): Float64Array {
  const larger = new Float64Array(array.length * 2);
  larger.set(array);
  return larger;
}

function price(text: string, name: string, file: string, line: number): number {
  const value = plainNumber.test(text) ? Number(text) : Number.NaN;
  if (!(value > 0) || !Number.isFinite(value)) {
    throw new QuoteFileError(file, line, `${name} "${text}" is not a positive number`);
  }
  return value;
}

function columns(record: readonly string[], file: string, line: number): [string, string, string] {
  if (record.length !== 3) {
    throw new QuoteFileError(
      file,
      line,
      `expected 3 columns (time,bid,ask), found ${String(record.length)}`,
    );
  }
  return record as [string, string, string];
}

/**
 * Streams one CSV line by line (node:readline: CRLF or LF, the last line with or without its
 * end), handing each non-empty row's fields to `row`: no row becomes an object that outlives its
 * line. The format has no quoting, so splitting at commas is exact (decision 125).
 */
async function streamRows(
  source: Readable,
  file: string,
  row: (fields: string[], line: number) => void,
): Promise<void> {
  const lines = createInterface({ input: source, crlfDelay: Infinity });
  let lineNumber = 0;
  let failure: Error | undefined;
  lines.on('line', (text) => {
    if (failure !== undefined) return;
    lineNumber++;
    const content = lineNumber === 1 && text.startsWith('\uFEFF') ? text.slice(1) : text;
    if (content.trim() === '') return;
    const fields = content.split(',');
    for (let i = 0; i < fields.length; i++) fields[i] = (fields[i] ?? '').trim();
    try {
      row(fields, lineNumber);
    } catch (error) {
      // Nothing half-read: the first bad row ends the file's reading.
      failure =
        error instanceof Error ? error : new QuoteFileError(file, lineNumber, String(error));
      lines.close();
      source.destroy();
    }
  });
  try {
    await Promise.race([
      once(lines, 'close'),
      once(source, 'error').then(([error]: unknown[]) => {
        throw error instanceof Error ? error : new Error(String(error));
      }),
    ]);
  } catch (error) {
    throw new QuoteFileError(
      file,
      undefined,
      error instanceof Error ? error.message : String(error),
    );
  }
  if (failure instanceof Error) throw failure;
}

function csvTime(text: string, file: string, line: number): number {
  if (plainNumber.test(text)) return Number(text);
  const time = isoWithOffset.test(text) ? Date.parse(text) : Number.NaN;
  if (Number.isNaN(time)) {
    throw new QuoteFileError(
      file,
      line,
      `time "${text}" is neither epoch milliseconds nor an ISO-8601 time with its zone (2014-05-05T13:00:00.250Z)`,
    );
  }
  return time;
}

/**
 * Reads one plain CSV of quotes: rows `time,bid,ask`, time in epoch milliseconds or ISO-8601
 * with its zone, and an optional first line `time,bid,ask`.
 */
export async function readCsvQuotes(
  file: string,
  symbol: string,
  range: TimeRange = {},
): Promise<QuoteSeries> {
  const builder = new SeriesBuilder(symbol, range);
  await readCsvInto(builder, file);
  return builder.build();
}

async function readCsvInto(builder: SeriesBuilder, file: string): Promise<void> {
  builder.startFile(file);
  await streamRows(createReadStream(file), file, (record, line) => {
    const [timeText, bidText, askText] = columns(record, file, line);
    if (line === 1 && timeText.toLowerCase() === 'time') {
      if (bidText.toLowerCase() !== 'bid' || askText.toLowerCase() !== 'ask') {
        throw new QuoteFileError(file, line, 'the header must be time,bid,ask');
      }
      return;
    }
    const time = csvTime(timeText, file, line);
    builder.add(
      time,
      price(bidText, 'bid', file, line),
      price(askText, 'ask', file, line),
      file,
      line,
    );
  });
  builder.endFile(file);
}

const leanDayFile = /^(\d{4})(\d{2})(\d{2})_quote\.zip$/;

/** The days of a Lean tick-quote folder, `YYYYMMDD_quote.zip`, in date order. */
async function leanDays(folder: string): Promise<{ file: string; day: number }[]> {
  const days: { file: string; day: number }[] = [];
  for (const name of await readdir(folder)) {
    const match = leanDayFile.exec(name);
    if (!match) continue;
    const day = Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
    if (Number.isNaN(day) || new Date(day).getUTCDate() !== Number(match[3])) {
      throw new QuoteFileError(path.join(folder, name), undefined, 'is not a valid date');
    }
    days.push({ file: path.join(folder, name), day });
  }
  return days.sort((a, b) => a.day - b.day);
}

/** The one CSV inside a Lean day zip, as a stream. */
function openSingleCsv(zipFile: string): Promise<Readable> {
  return new Promise((resolve, reject) => {
    yauzl.open(zipFile, { lazyEntries: true, autoClose: false }, (openError, zip) => {
      if (openError) {
        reject(
          new QuoteFileError(zipFile, undefined, `is not a readable zip (${openError.message})`),
        );
        return;
      }
      const entries: yauzl.Entry[] = [];
      zip.on('entry', (entry: yauzl.Entry) => {
        if (!entry.fileName.endsWith('/')) entries.push(entry);
        zip.readEntry();
      });
      zip.on('error', (error: Error) => {
        reject(new QuoteFileError(zipFile, undefined, `is not a readable zip (${error.message})`));
      });
      zip.on('end', () => {
        const [entry] = entries;
        if (entries.length !== 1 || !entry?.fileName.toLowerCase().endsWith('.csv')) {
          zip.close();
          reject(
            new QuoteFileError(
              zipFile,
              undefined,
              `must hold exactly one CSV file, holds ${entries.map((e) => e.fileName).join(', ') || 'nothing'}`,
            ),
          );
          return;
        }
        zip.openReadStream(entry, (streamError, stream) => {
          if (streamError) {
            zip.close();
            reject(new QuoteFileError(zipFile, undefined, streamError.message));
            return;
          }
          finished(stream, () => {
            zip.close();
          });
          resolve(stream);
        });
      });
      zip.readEntry();
    });
  });
}

/**
 * Reads a Lean tick-quote folder (QuantConnect's format for forex and CFDs): one zip a day,
 * `YYYYMMDD_quote.zip`, holding one CSV without a header, rows `ms since midnight UTC,bid,ask`.
 * Days wholly outside `range` are not opened.
 */
export async function readLeanQuotes(
  folder: string,
  symbol: string,
  range: TimeRange = {},
): Promise<QuoteSeries> {
  const builder = new SeriesBuilder(symbol, range);
  const days = await leanDays(folder);
  if (days.length === 0) {
    throw new QuoteFileError(folder, undefined, 'holds no YYYYMMDD_quote.zip files');
  }
  for (const { file, day } of days) {
    if (range.from !== undefined && day + dayMs <= range.from) continue;
    if (range.until !== undefined && day >= range.until) continue;
    builder.startFile(file);
    await streamRows(await openSingleCsv(file), file, (record, line) => {
      const [msText, bidText, askText] = columns(record, file, line);
      const ms = plainNumber.test(msText) ? Number(msText) : Number.NaN;
      if (!(ms >= 0 && ms < dayMs)) {
        throw new QuoteFileError(
          file,
          line,
          `time "${msText}" is not milliseconds since midnight (0 to 86399999)`,
        );
      }
      builder.add(
        day + ms,
        price(bidText, 'bid', file, line),
        price(askText, 'ask', file, line),
        file,
        line,
      );
    });
    builder.endFile(file);
  }
  return builder.build();
}

/** Which reader a folder needs, and the instruments it holds. */
export type QuoteFolderFormat = 'csv' | 'lean';

export interface QuoteFolder {
  readonly folder: string;
  readonly format: QuoteFolderFormat;
  /** In the catalogue's order. */
  readonly series: readonly QuoteSeries[];
}

/**
 * Reads a folder of recorded quotes, whole, before anything is replayed: either one CSV per
 * instrument named by its catalogue symbol (`EURUSD.csv`), or one Lean folder per instrument
 * named by its symbol in any case (`eurusd/`). Any bad file stops the read with its name and
 * line; an instrument whose quotes all fall outside `range` is left out, and so is one not in
 * `only` when it is given (its files are not read).
 */
export async function readQuoteFolder(
  folder: string,
  catalogue: InstrumentCatalogue,
  range: TimeRange = {},
  only?: ReadonlySet<string>,
): Promise<QuoteFolder> {
  const names = (await readdir(folder)).sort();
  const csvFiles = names.filter((name) => name.toLowerCase().endsWith('.csv'));
  const subfolders: string[] = [];
  for (const name of names) {
    if ((await stat(path.join(folder, name))).isDirectory()) subfolders.push(name);
  }
  const format: QuoteFolderFormat = csvFiles.length > 0 ? 'csv' : 'lean';
  const entries = format === 'csv' ? csvFiles : subfolders;
  if (entries.length === 0) {
    throw new QuoteFileError(
      folder,
      undefined,
      'holds neither SYMBOL.csv files nor Lean folders of YYYYMMDD_quote.zip files',
    );
  }
  // Every name is checked before any file is read.
  const sources = entries.map((name) => {
    const file = path.join(folder, name);
    const symbol = (format === 'csv' ? name.slice(0, -'.csv'.length) : name).toUpperCase();
    if (!catalogue.get(symbol)) {
      throw new QuoteFileError(
        file,
        undefined,
        `"${symbol}" is not an instrument of the catalogue (name files by its symbol, such as EURUSD.csv)`,
      );
    }
    return { file, symbol };
  });
  const series: QuoteSeries[] = [];
  for (const { file, symbol } of sources) {
    if (only && !only.has(symbol)) continue;
    const read =
      format === 'csv'
        ? await readCsvQuotes(file, symbol, range)
        : await readLeanQuotes(file, symbol, range);
    if (read.length > 0) series.push(read);
  }
  const order = new Map(catalogue.instruments.map((instrument, i) => [instrument.symbol, i]));
  series.sort((a, b) => (order.get(a.symbol) ?? 0) - (order.get(b.symbol) ?? 0));
  return { folder, format, series };
}
