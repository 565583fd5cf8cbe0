import { TickDispatcher, type SteppedFeed } from './market-data-feed';
import type { QuoteSeries } from './recorded-quotes';
import type { Tick, TickListener, Unsubscribe } from './tick';

/**
 * Every quote, or the last quote of each interval of this many milliseconds (per instrument,
 * at its own time): a robot that looks once a second or once a minute.
 */
export type Cadence = 'quote' | number;

interface Cursor {
  readonly series: QuoteSeries;
  /** Index of the next quote to publish, or series.length when done. */
  index: number;
}

/**
 * Recorded quotes replayed through the MarketDataFeed port (decision 125): the instruments'
 * series merged in time order (at equal times, in the order given), each quote published once.
 */
export class RecordedQuoteFeed implements SteppedFeed {
  private readonly dispatcher = new TickDispatcher();
  private readonly cursors: Cursor[];
  private readonly interval: number | undefined;
  private published = 0;
  /** Quotes this feed will publish in all, at its cadence. */
  readonly total: number;

  constructor(
    series: readonly QuoteSeries[],
    private readonly cadence: Cadence = 'quote',
  ) {
    this.interval = cadence === 'quote' ? undefined : cadence;
    this.cursors = series.map((s) => ({ series: s, index: this.sampled(s, 0) }));
    let total = 0;
    for (const s of series) {
      for (let i = this.sampled(s, 0); i < s.length; i = this.sampled(s, i + 1)) total++;
    }
    this.total = total;
  }

  /** Quotes published so far. */
  get count(): number {
    return this.published;
  }

  subscribe(listener: TickListener): Unsubscribe {
    return this.dispatcher.subscribe(listener);
  }

  lastTick(symbol: string): Tick | undefined {
    return this.dispatcher.lastTick(symbol);
  }

  nextTime(): number | undefined {
    const cursor = this.next();
    return cursor === undefined ? undefined : cursor.series.times[cursor.index];
  }

  advanceTo(time: number): void {
    for (;;) {
      const cursor = this.next();
      if (!cursor) return;
      const { series, index } = cursor;
      const tickTime = series.times[index] ?? Infinity;
      if (tickTime > time) return;
      cursor.index = this.sampled(series, index + 1);
      this.published++;
      this.dispatcher.publish({
        symbol: series.symbol,
        time: tickTime,
        bid: series.bids[index] ?? Number.NaN,
        ask: series.asks[index] ?? Number.NaN,
      });
    }
  }

  /** The cursor whose next quote comes first (the first such cursor at equal times). */
  private next(): Cursor | undefined {
    let best: Cursor | undefined;
    let bestTime = Infinity;
    for (const cursor of this.cursors) {
      const time = cursor.series.times[cursor.index];
      if (time !== undefined && time < bestTime) {
        best = cursor;
        bestTime = time;
      }
    }
    return best;
  }

  /** The first index from `from` on that this cadence publishes: the last of its interval. */
  private sampled(series: QuoteSeries, from: number): number {
    const interval = this.interval;
    if (interval === undefined) return from;
    let i = from;
    while (i + 1 < series.length) {
      const here = Math.floor((series.times[i] ?? 0) / interval);
      if (Math.floor((series.times[i + 1] ?? 0) / interval) !== here) break;
      i++;
    }
    return Math.min(i, series.length);
  }
}
