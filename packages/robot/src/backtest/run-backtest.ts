import path from 'node:path';
import { InstrumentCatalogue } from '../instruments/catalogue';
import type { Cadence } from '../market-data/recorded-quote-feed';
import {
  readQuoteFolder,
  type QuoteFolderFormat,
  type TimeRange,
} from '../market-data/recorded-quotes';
import type { Cents } from '../money/minor-units';
import type { RobotRun } from '../simulation/run-robot';
import { formatReport, type SimulationSummary } from '../simulation/simulation-summary';
import { backtestSeries, type RecordedInstrument } from './backtest-series';

export {
  backtestSeries,
  missingUsdPair,
  recordedCatalogue,
  type RecordedInstrument,
  type SeriesBacktestOptions,
} from './backtest-series';

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
  /**
   * History the model learns from before `range.from`, untraded (decision 149): the recorded
   * quotes of this many milliseconds before it, as far as the folder holds them. Needs `range.from`.
   */
  readonly warmUpMs?: number;
  /** Wall clock, only to report how long the run took. */
  readonly now?: () => number;
  /** Now and then during the replay: quotes published so far, of how many, at which time. */
  readonly onProgress?: (progress: { done: number; total: number; time: number }) => void;
}

export interface BacktestSource {
  readonly folder: string;
  readonly format: QuoteFolderFormat;
  readonly instruments: readonly RecordedInstrument[];
  readonly first: number;
  readonly last: number;
  /** The quotes the model learned from before trading, when it was warmed up. */
  readonly history?: { readonly from: number; readonly quotes: number };
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
 * The robot, composed as the simulation composes it (runRobot), on recorded quotes: the whole
 * folder is read and checked first, then replayed in time order at the chosen cadence.
 */
export async function runBacktest(options: BacktestOptions): Promise<BacktestResult> {
  const now = options.now ?? (() => 0);
  const started = now();
  const range = options.range ?? {};
  const warmUpMs = options.warmUpMs ?? 0;
  if (warmUpMs > 0 && range.from === undefined) {
    throw new Error('a warm-up needs a start (range.from): its history is the quotes before it');
  }
  const folder = path.resolve(options.quotes);
  const only = options.instruments && new Set(options.instruments.map((s) => s.toUpperCase()));
  const readRange =
    warmUpMs > 0 && range.from !== undefined ? { ...range, from: range.from - warmUpMs } : range;
  const read = await readQuoteFolder(folder, new InstrumentCatalogue(), readRange, only);
  for (const symbol of only ?? []) {
    if (!read.series.some((s) => s.symbol === symbol)) {
      throw new Error(`${folder}: no quotes of ${symbol} in the dates asked for`);
    }
  }
  if (read.series.length === 0) throw new Error(`${folder}: no quotes in the dates asked for`);
  const resolved = {
    quotes: folder,
    risk: options.risk,
    cadence: options.cadence,
    range,
    accounts: options.accounts ?? 1,
    depositCents: options.depositCents ?? 1_000_000,
    warmUpMs,
  };
  const tradeFrom = warmUpMs > 0 ? range.from : undefined;
  const { run, instruments, first, last } = await backtestSeries(read.series, {
    ...resolved,
    ...(tradeFrom === undefined ? {} : { tradeFrom }),
    ...(options.onProgress ? { onProgress: options.onProgress } : {}),
  });
  return {
    ...run,
    // Reading the files counts: the run's time is from the first file opened.
    wallClockMs: now() - started,
    options: resolved,
    source: {
      folder,
      format: read.format,
      instruments,
      first,
      last,
      ...(readRange.from !== undefined && tradeFrom !== undefined
        ? { history: { from: readRange.from, quotes: run.historyTicks } }
        : {}),
    },
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
    ...(source.history
      ? [
          `  The model first learned from ${String(source.history.quotes)} recorded quotes from ${iso(source.history.from)} to ${iso(options.range.from ?? source.first)} (not traded; the figures below are from the traded quotes only)`,
        ]
      : []),
  ];
  const closing = `Source: ${source.folder}, ${source.instruments.map((i) => i.symbol).join(', ')}, first quote ${iso(source.first)}, last quote ${iso(source.last)}. These figures describe these recorded quotes only; they promise nothing about other markets or times.`;
  return formatReport(s, result, heading, closing);
}
