import { TickDispatcher, type SteppedFeed } from './market-data-feed';
import type { QuoteSeries } from './recorded-quotes';
import type { Tick, TickListener, Unsubscribe } from './tick';

const weekMs = 7 * 86_400_000;

/**
 * Recorded quotes replayed on a live clock (decision 140): the recording, from its first quote,
 * is a loop of whole weeks (the fewest that hold it), and a time of the clock plays the quote
 * recorded a whole number of loops earlier. Weekdays and hours of the day therefore line up
 * (a Monday 09:00 UTC plays a recorded Monday 09:00 UTC), and the loop starts again once it ends;
 * the rest of its last week, after the last quote, has none. A quote is published at its
 * recorded time moved by that shift, with its recorded bid and ask. The first `advanceTo`
 * publishes, for each instrument, its latest quote of the loop at or before that time, so the
 * robot and the platform have prices at once.
 */
export class LoopedQuoteFeed implements SteppedFeed {
  private readonly dispatcher = new TickDispatcher();
  /** The loop's first instant (the recording's first quote) and its length, whole weeks. */
  readonly first: number;
  readonly loopMs: number;
  /** The latest time published up to, on the clock; undefined before the first advance. */
  private reached: number | undefined;
  /** Per series, the index of the next quote to publish in the current loop. */
  private readonly cursors: number[];
  /** Which loop the cursors are in: the clock's time is `recorded + loop * loopMs`. */
  private loop: number;

  constructor(
    private readonly series: readonly QuoteSeries[],
    startTime: number,
  ) {
    const firsts = series.flatMap((s) => (s.length > 0 ? [s.times[0] ?? Infinity] : []));
    const lasts = series.flatMap((s) => (s.length > 0 ? [s.times[s.length - 1] ?? -Infinity] : []));
    if (firsts.length === 0) throw new Error('a looped replay needs at least one quote');
    this.first = Math.min(...firsts);
    const span = Math.max(...lasts) - this.first;
    this.loopMs = Math.max(1, Math.ceil((span + 1) / weekMs)) * weekMs;
    this.loop = this.loopOf(startTime);
    const recorded = startTime - this.loop * this.loopMs;
    // Each instrument starts at its latest quote at or before the start, when it has one.
    this.cursors = series.map((s) => Math.max(0, upperBound(s.times, recorded) - 1));
  }

  /** Which loop a time of the clock falls in (negative before the recording's first quote). */
  private loopOf(time: number): number {
    return Math.floor((time - this.first) / this.loopMs);
  }

  subscribe(listener: TickListener): Unsubscribe {
    return this.dispatcher.subscribe(listener);
  }

  lastTick(symbol: string): Tick | undefined {
    return this.dispatcher.lastTick(symbol);
  }

  /** Every instrument's latest quote published (what a restart would save). */
  lastQuotes(): Tick[] {
    return this.series.flatMap((s) => this.dispatcher.lastTick(s.symbol) ?? []);
  }

  nextTime(): number | undefined {
    let best = Infinity;
    for (let i = 0; i < this.series.length; i++) {
      const time = this.series[i]?.times[this.cursors[i] ?? 0];
      if (time !== undefined && time < best) best = time;
    }
    // A loop's quotes are all published: the next loop's first quote comes next.
    return (best === Infinity ? this.first + this.loopMs : best) + this.loop * this.loopMs;
  }

  advanceTo(time: number): void {
    if (this.reached !== undefined && time <= this.reached) return;
    this.reached = time;
    for (;;) {
      const end = this.loopOf(time) > this.loop ? Infinity : time - this.loop * this.loopMs;
      this.publishUpTo(end);
      if (end !== Infinity) return;
      this.loop++;
      this.cursors.fill(0);
    }
  }

  /** Publishes this loop's quotes recorded at or before `recorded`, in time order. */
  private publishUpTo(recorded: number): void {
    const shift = this.loop * this.loopMs;
    for (;;) {
      let best = -1;
      let bestTime = Infinity;
      for (let i = 0; i < this.series.length; i++) {
        const time = this.series[i]?.times[this.cursors[i] ?? 0];
        if (time !== undefined && time < bestTime) {
          best = i;
          bestTime = time;
        }
      }
      if (best < 0 || bestTime > recorded) return;
      const s = this.series[best];
      const index = this.cursors[best] ?? 0;
      if (!s) return;
      this.cursors[best] = index + 1;
      this.dispatcher.publish({
        symbol: s.symbol,
        time: bestTime + shift,
        bid: s.bids[index] ?? Number.NaN,
        ask: s.asks[index] ?? Number.NaN,
      });
    }
  }
}

/** The first index whose time is after `time` (times non-decreasing). */
function upperBound(times: Float64Array, time: number): number {
  let low = 0;
  let high = times.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if ((times[mid] ?? Infinity) <= time) low = mid + 1;
    else high = mid;
  }
  return low;
}
