import type { Category } from '@tradebot/contract';
import type { InstrumentCatalogue } from '../instruments/catalogue';
import type { Instrument } from '../instruments/instrument';
import type { Tick } from '../market-data/tick';
import type { Signal, Strategy, StrategyOutlook } from './strategy';

/** Live ticks held while the history is read; beyond this the oldest are dropped. */
const maxHeldTicks = 50_000;
/**
 * Ticks learned between two yields to the event loop: a slice takes a few milliseconds, so the
 * robot's other accounts, its leases and its answers to the server wait no longer than that.
 */
const ticksPerSlice = 2_000;

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * A strategy that first learns from a real broker's own history (decision 096, amended): until
 * `learn` has finished it signals nothing and holds the live ticks it is given; `learn` feeds the
 * history (ticks older than the first live one, oldest first), then the held live ticks, a slice
 * at a time, and from then on every tick goes straight to the strategy. No simulated tick ever
 * reaches it.
 */
export class WarmingStrategy implements Strategy {
  /** Live ticks held, from `next` on; undefined once live. */
  private held: { tick: Tick; instrument: Instrument }[] | undefined = [];
  private next = 0;
  private learned = 0;
  private learning = false;

  constructor(
    readonly inner: Strategy,
    private readonly catalogue: InstrumentCatalogue,
  ) {}

  /** True until `learn` has finished: the robot is still learning and opens nothing. */
  get warming(): boolean {
    return this.held !== undefined;
  }

  /** Ticks of history the strategy learned from. */
  get historyTicks(): number {
    return this.learned;
  }

  /**
   * The inner strategy's (decision 147), but learning while the history is read: the inner
   * one's own count while it has one; once that is met, a count met (1 of 1), as what is left
   * is the live ticks held meanwhile.
   */
  outlook(category: Category): StrategyOutlook {
    const inner = this.inner.outlook?.(category) ?? {};
    if (!this.warming || inner.learning) return inner;
    return { learning: { outcomes: 1, outcomesNeeded: 1 } };
  }

  onTick(tick: Tick, instrument: Instrument): Signal | undefined {
    const held = this.held;
    if (held === undefined) return this.inner.onTick(tick, instrument);
    held.push({ tick, instrument });
    if (held.length - this.next > maxHeldTicks) this.next++;
    // Keeps the array from growing with ticks already dropped or learned.
    if (this.next >= maxHeldTicks) {
      held.splice(0, this.next);
      this.next = 0;
    }
    return undefined;
  }

  /**
   * Feeds `history` (any order; sorted here) and the live ticks held meanwhile, in time order,
   * then goes live; it yields to the event loop between slices, and live ticks that arrive
   * meanwhile are held and learned after the ones before them. Signals of these past ticks are
   * discarded: nothing is traded on them. Resolves once live. Called once; an empty history (the
   * broker had none, or could not be read) just goes live; a second call resolves at once.
   */
  async learn(history: readonly Tick[]): Promise<void> {
    // The same array all along: `onTick` pushes to it and trims it in place.
    const held = this.held;
    if (held === undefined || this.learning) return;
    this.learning = true;
    const firstLive = held[this.next]?.tick.time ?? Infinity;
    const past = history.filter((tick) => tick.time < firstLive).sort((a, b) => a.time - b.time);
    for (let start = 0; start < past.length; start += ticksPerSlice) {
      if (start > 0) await nextTurn();
      for (const tick of past.slice(start, start + ticksPerSlice)) {
        const instrument = this.catalogue.get(tick.symbol);
        if (!instrument) continue;
        this.inner.onTick(tick, instrument);
        this.learned++;
      }
    }
    // The held ticks, including those arriving while this runs: live once none is left.
    for (;;) {
      const end = Math.min(held.length, this.next + ticksPerSlice);
      for (; this.next < end; this.next++) {
        const entry = held[this.next];
        if (entry) this.inner.onTick(entry.tick, entry.instrument);
      }
      if (this.next >= held.length) break;
      await nextTurn();
    }
    this.held = undefined;
    this.next = 0;
  }
}
