import { InstrumentCatalogue } from '../instruments/catalogue';
import { RecordedQuoteFeed, type Cadence } from '../market-data/recorded-quote-feed';
import type { QuoteSeries } from '../market-data/recorded-quotes';
import type { Cents } from '../money/minor-units';
import { runRobot, type RobotRun } from '../simulation/run-robot';

/** One instrument's recorded quotes, as a backtest reports them. */
export interface RecordedInstrument {
  readonly symbol: string;
  readonly quotes: number;
  readonly crossed: number;
  readonly first: number;
  readonly last: number;
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
    const missing = missingUsdPair(symbol, recorded, full);
    if (missing !== undefined) throw new Error(missing);
  }
  return new InstrumentCatalogue(full.instruments.filter((i) => recorded.has(i.symbol)));
}

/**
 * Why `symbol`'s profits cannot be valued in USD from the `recorded` instruments (its quote
 * currency is not USD and neither USD pair of that currency was recorded), or undefined.
 */
export function missingUsdPair(
  symbol: string,
  recorded: ReadonlySet<string>,
  full: InstrumentCatalogue = new InstrumentCatalogue(),
): string | undefined {
  const instrument = full.require(symbol);
  const currency = instrument.quoteCurrency === 'GBX' ? 'GBP' : instrument.quoteCurrency;
  if (currency === 'USD') return undefined;
  const pairs = [`${currency}USD`, `USD${currency}`].filter((pair) => full.get(pair));
  if (pairs.some((pair) => recorded.has(pair))) return undefined;
  return `${symbol} is quoted in ${currency}: add the quotes of ${pairs.join(' or ') || `a ${currency}/USD pair`} to value its profits in USD`;
}

export interface SeriesBacktestOptions {
  readonly risk: number;
  readonly cadence: Cadence;
  readonly accounts?: number;
  readonly depositCents?: Cents;
  /** Now and then during the replay: quotes published so far, of how many, at which time. */
  readonly onProgress?: (progress: { done: number; total: number; time: number }) => void;
  /** Steps between progress calls (runRobot's default when absent). */
  readonly progressEvery?: number;
  /** Steps between turns given to the event loop (none when absent): see runRobot. */
  readonly yieldEvery?: number;
  /** Stops the run at its next turn (with yieldEvery). */
  readonly signal?: AbortSignal;
  /**
   * Where trading starts (decision 149): quotes before it are the model's history, learned from
   * first and never traded. Absent: every quote is traded, from a cold model.
   */
  readonly tradeFrom?: number;
}

/** The part of a series from `from` (inclusive) to `to` (exclusive). */
function sliceSeries(series: QuoteSeries, from: number, to: number): QuoteSeries {
  const start = firstAtOrAfter(series.times, from);
  const end = firstAtOrAfter(series.times, to);
  return {
    ...series,
    length: end - start,
    times: series.times.subarray(start, end),
    bids: series.bids.subarray(start, end),
    asks: series.asks.subarray(start, end),
  };
}

/** The first index whose time is at or after `time` (times non-decreasing). */
function firstAtOrAfter(times: Float64Array, time: number): number {
  let low = 0;
  let high = times.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if ((times[mid] ?? Infinity) < time) low = mid + 1;
    else high = mid;
  }
  return low;
}

/**
 * The robot (runRobot) on quote series already read and checked, whatever their source (files,
 * a broker's tick history), replayed in time order at the cadence, on a catalogue of the
 * recorded instruments.
 */
export async function backtestSeries(
  read: readonly QuoteSeries[],
  options: SeriesBacktestOptions,
): Promise<{
  run: RobotRun;
  instruments: RecordedInstrument[];
  first: number;
  last: number;
}> {
  const catalogue = recordedCatalogue(read);
  const { tradeFrom } = options;
  const series =
    tradeFrom === undefined ? read : read.map((s) => sliceSeries(s, tradeFrom, Infinity));
  const history =
    tradeFrom === undefined
      ? undefined
      : new RecordedQuoteFeed(
          read.map((s) => sliceSeries(s, -Infinity, tradeFrom)),
          options.cadence,
        );
  const feed = new RecordedQuoteFeed(series, options.cadence);
  const instruments = series.map((s) => ({
    symbol: s.symbol,
    quotes: s.length,
    crossed: s.crossed,
    first: s.times[0] ?? Number.NaN,
    last: s.times[s.length - 1] ?? Number.NaN,
  }));
  const first = Math.min(...instruments.map((i) => i.first));
  const last = Math.max(...instruments.map((i) => i.last));
  const { onProgress, progressEvery, yieldEvery } = options;
  const run = await runRobot({
    catalogue,
    feed,
    startTime: tradeFrom ?? first,
    ...(history ? { history } : {}),
    accounts: options.accounts ?? 1,
    risk: options.risk,
    depositCents: options.depositCents ?? 1_000_000,
    ...(progressEvery === undefined ? {} : { progressEvery }),
    ...(yieldEvery === undefined ? {} : { yieldEvery }),
    ...(options.signal === undefined ? {} : { signal: options.signal }),
    ...(onProgress
      ? {
          onProgress: (time: number) => {
            onProgress({ done: feed.count, total: feed.total, time });
          },
        }
      : {}),
  });
  return { run, instruments, first, last };
}
