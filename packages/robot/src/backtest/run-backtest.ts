import path from 'node:path';
import { InstrumentCatalogue } from '../instruments/catalogue';
import { RecordedQuoteFeed, type Cadence } from '../market-data/recorded-quote-feed';
import {
  readQuoteFolder,
  type QuoteFolderFormat,
  type QuoteSeries,
  type TimeRange,
} from '../market-data/recorded-quotes';
import type { Cents } from '../money/minor-units';
import { runRobot, type RobotRun } from '../simulation/run-robot';
import { formatReport, type SimulationSummary } from '../simulation/simulation-summary';

export interface BacktestOptions {
  /** A folder of SYMBOL.csv files or of Lean tick-quote folders (decision 125). */
  readonly quotes: string;
  readonly risk: number;
  readonly cadence: Cadence;
  readonly range?: TimeRange;
  /** Catalogue symbols to replay; all the folder holds when absent. */
  readonly instruments?: readonly string[];
  readonly accounts?: number;
  readonly depositCents?: Cents;
  /** Wall clock, only to report how long the run took. */
  readonly now?: () => number;
  /** Now and then during the replay: quotes published so far, of how many, at which time. */
  readonly onProgress?: (progress: { done: number; total: number; time: number }) => void;
}

export interface RecordedInstrument {
  readonly symbol: string;
  readonly quotes: number;
  readonly crossed: number;
  readonly first: number;
  readonly last: number;
}

export interface BacktestSource {
  readonly folder: string;
  readonly format: QuoteFolderFormat;
  readonly instruments: readonly RecordedInstrument[];
  readonly first: number;
  readonly last: number;
}

export interface BacktestResult extends RobotRun {
  readonly options: Required<
    Omit<BacktestOptions, 'now' | 'onProgress' | 'range' | 'instruments'>
  > & {
    readonly range: TimeRange;
  };
  readonly source: BacktestSource;
}

/**
 * The instruments the recording holds, as a catalogue of their own: the engine's market hours
 * ("market-open time") are theirs alone. An instrument quoted in another currency than USD needs
 * the quotes of its USD pair too: profits are never valued at a made-up rate.
 */
export function recordedCatalogue(series: readonly QuoteSeries[]): InstrumentCatalogue {
  const full = new InstrumentCatalogue();
  const recorded = new Set(series.map((s) => s.symbol));
  for (const symbol of recorded) {
    const instrument = full.require(symbol);
    const currency = instrument.quoteCurrency === 'GBX' ? 'GBP' : instrument.quoteCurrency;
    if (currency === 'USD') continue;
    const pairs = [`${currency}USD`, `USD${currency}`].filter((pair) => full.get(pair));
    if (!pairs.some((pair) => recorded.has(pair))) {
      throw new Error(
        `${symbol} is quoted in ${currency}: add the quotes of ${pairs.join(' or ') || `a ${currency}/USD pair`} to value its profits in USD`,
      );
    }
  }
  return new InstrumentCatalogue(full.instruments.filter((i) => recorded.has(i.symbol)));
}

/**
 * The robot, composed as the simulation composes it (runRobot), on recorded quotes: the whole
 * folder is read and checked first, then replayed in time order at the chosen cadence.
 */
export async function runBacktest(options: BacktestOptions): Promise<BacktestResult> {
  const now = options.now ?? (() => 0);
  const started = now();
  const range = options.range ?? {};
  const folder = path.resolve(options.quotes);
  const only = options.instruments && new Set(options.instruments.map((s) => s.toUpperCase()));
  const read = await readQuoteFolder(folder, new InstrumentCatalogue(), range, only);
  for (const symbol of only ?? []) {
    if (!read.series.some((s) => s.symbol === symbol)) {
      throw new Error(`${folder}: no quotes of ${symbol} in the dates asked for`);
    }
  }
  if (read.series.length === 0) throw new Error(`${folder}: no quotes in the dates asked for`);
  const catalogue = recordedCatalogue(read.series);
  const feed = new RecordedQuoteFeed(read.series, options.cadence);
  const instruments = read.series.map((s) => ({
    symbol: s.symbol,
    quotes: s.length,
    crossed: s.crossed,
    first: s.times[0] ?? Number.NaN,
    last: s.times[s.length - 1] ?? Number.NaN,
  }));
  const first = Math.min(...instruments.map((i) => i.first));
  const last = Math.max(...instruments.map((i) => i.last));
  const resolved = {
    quotes: folder,
    risk: options.risk,
    cadence: options.cadence,
    range,
    accounts: options.accounts ?? 1,
    depositCents: options.depositCents ?? 1_000_000,
  };
  const { onProgress } = options;
  const run = await runRobot({
    catalogue,
    feed,
    startTime: first,
    accounts: resolved.accounts,
    risk: resolved.risk,
    depositCents: resolved.depositCents,
    ...(onProgress
      ? {
          onProgress: (time: number) => {
            onProgress({ done: feed.count, total: feed.total, time });
          },
        }
      : {}),
  });
  return {
    ...run,
    // Reading the files counts: the run's time is from the first file opened.
    wallClockMs: now() - started,
    options: resolved,
    source: { folder, format: read.format, instruments, first, last },
  };
}

export function cadenceName(cadence: Cadence): string {
  if (cadence === 'quote') return 'every quote';
  return cadence % 60_000 === 0
    ? `the last quote of each ${String(cadence / 60_000)} min`
    : `the last quote of each ${String(cadence / 1000)} s`;
}

const iso = (time: number) => new Date(time).toISOString();

/** What `npm run backtest` prints: the simulation's report, headed and closed by its source. */
export function formatBacktest(s: SimulationSummary, result: BacktestResult): string {
  const { options, source } = result;
  const heading = [
    `Backtest: ${String(options.accounts)} account${options.accounts === 1 ? '' : 's'}, risk ${String(options.risk)}, ${cadenceName(options.cadence)}, on recorded quotes (${source.format === 'lean' ? 'Lean tick-quote zips' : 'CSV files'})`,
    ...source.instruments.map(
      (i) =>
        `  ${i.symbol}: ${String(i.quotes)} quotes from ${iso(i.first)} to ${iso(i.last)}${i.crossed > 0 ? `; ${String(i.crossed)} crossed quotes (ask below bid) skipped` : ''}`,
    ),
  ];
  const closing = `Source: ${source.folder}, ${source.instruments.map((i) => i.symbol).join(', ')}, first quote ${iso(source.first)}, last quote ${iso(source.last)}. These figures describe these recorded quotes only; they promise nothing about other markets or times.`;
  return formatReport(s, result, heading, closing);
}
