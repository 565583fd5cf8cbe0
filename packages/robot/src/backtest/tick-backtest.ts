import { InstrumentCatalogue } from '../instruments/catalogue';
import type { QuoteSeries } from '../market-data/recorded-quotes';
import type { Tick } from '../market-data/tick';
import { summarise } from '../simulation/simulation-summary';
import { backtestSeries, missingUsdPair, type SeriesBacktestOptions } from './backtest-series';

/**
 * Ticks (any order of symbols, each symbol's in time order) as one quote series per symbol, in
 * the catalogue's order. A crossed tick (ask below bid) is counted and skipped, as in a file.
 */
export function ticksToSeries(
  ticks: readonly Tick[],
  catalogue: InstrumentCatalogue = new InstrumentCatalogue(),
): QuoteSeries[] {
  const bySymbol = new Map<string, Tick[]>();
  for (const tick of ticks) {
    const list = bySymbol.get(tick.symbol);
    if (list) list.push(tick);
    else bySymbol.set(tick.symbol, [tick]);
  }
  const series: QuoteSeries[] = [];
  for (const [symbol, list] of bySymbol) {
    const times = new Float64Array(list.length);
    const bids = new Float64Array(list.length);
    const asks = new Float64Array(list.length);
    let length = 0;
    let crossed = 0;
    let last = -Infinity;
    for (const tick of list) {
      if (tick.time < last) throw new RangeError(`${symbol}: ticks go back in time`);
      last = tick.time;
      if (tick.ask < tick.bid) {
        crossed++;
        continue;
      }
      times[length] = tick.time;
      bids[length] = tick.bid;
      asks[length] = tick.ask;
      length++;
    }
    if (length === 0) continue;
    series.push({
      symbol,
      length,
      times: times.subarray(0, length),
      bids: bids.subarray(0, length),
      asks: asks.subarray(0, length),
      crossed,
      files: [],
    });
  }
  const order = new Map(catalogue.instruments.map((instrument, i) => [instrument.symbol, i]));
  return series.sort((a, b) => (order.get(a.symbol) ?? 0) - (order.get(b.symbol) ?? 0));
}

/** What a backtest on a broker's ticks found, in plain figures (decision 144). */
export interface TickBacktestSummary {
  /** The instruments replayed, with their quotes and first and last times. */
  readonly instruments: readonly {
    symbol: string;
    quotes: number;
    first: number;
    last: number;
  }[];
  /** Instruments left out: quoted in a currency whose USD pair was not recorded. */
  readonly leftOut: readonly string[];
  readonly operations: number;
  readonly closed: number;
  /** Realised profit plus what the positions still open were worth at the last quote, USD. */
  readonly resultUsd: number;
  readonly depositUsd: number;
  /** Market-open minutes in "no edge", over market-open minutes (0 when none). */
  readonly noEdgeShare: number;
  readonly marketOpenMinutes: number;
}

/**
 * The robot, composed as everywhere (runBacktest's runner), on a broker's ticks. Instruments
 * whose profits cannot be valued in USD from what was recorded are left out and named, never
 * valued at a made-up rate. Undefined when no instrument is left to replay.
 */
export async function backtestTicks(
  ticks: readonly Tick[],
  options: SeriesBacktestOptions,
): Promise<TickBacktestSummary | undefined> {
  return backtestQuoteSeries(ticksToSeries(ticks), options);
}

/** The same, on series already built (one instrument's ticks turned into a series at a time). */
export async function backtestQuoteSeries(
  all: readonly QuoteSeries[],
  options: SeriesBacktestOptions,
): Promise<TickBacktestSummary | undefined> {
  const recorded = new Set(all.map((s) => s.symbol));
  const leftOut = all.filter((s) => missingUsdPair(s.symbol, recorded) !== undefined);
  const kept = all.filter((s) => !leftOut.includes(s));
  if (kept.length === 0) return undefined;
  const { run, instruments } = await backtestSeries(kept, options);
  const summary = summarise(run);
  return {
    instruments: instruments.map(({ symbol, quotes, first, last }) => ({
      symbol,
      quotes,
      first,
      last,
    })),
    leftOut: leftOut.map((s) => s.symbol),
    operations: summary.operations,
    closed: summary.closed,
    resultUsd: Math.round((summary.realisedProfit + summary.unrealisedProfit) * 100) / 100,
    depositUsd: (options.depositCents ?? 1_000_000) / 100,
    noEdgeShare: summary.marketOpenMinutes > 0 ? summary.noEdgeShare : 0,
    marketOpenMinutes: summary.marketOpenMinutes,
  };
}
