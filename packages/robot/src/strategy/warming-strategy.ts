import type { InstrumentCatalogue } from '../instruments/catalogue';
import type { Instrument } from '../instruments/instrument';
import type { Tick } from '../market-data/tick';
import type { Signal, Strategy } from './strategy';

/** Live ticks held while the history is read; beyond this the oldest are dropped. */
const maxHeldTicks = 50_000;

/**
 * A strategy that first learns from a real broker's own history (decision 096, amended): until
 * `learn` is called it signals nothing and holds the live ticks it is given; `learn` feeds the
 * history (ticks older than the first live one, oldest first), then the held live ticks, and
 * from then on every tick goes straight to the strategy. No simulated tick ever reaches it.
 */
export class WarmingStrategy implements Strategy {
  private held: { tick: Tick; instrument: Instrument }[] | undefined = [];
  private learned = 0;

  constructor(
    readonly inner: Strategy,
    private readonly catalogue: InstrumentCatalogue,
  ) {}

  /** True until `learn` has run: the robot is still learning and opens nothing. */
  get warming(): boolean {
    return this.held !== undefined;
  }

  /** Ticks of history the strategy learned from. */
  get historyTicks(): number {
    return this.learned;
  }

  onTick(tick: Tick, instrument: Instrument): Signal | undefined {
    if (this.held === undefined) return this.inner.onTick(tick, instrument);
    this.held.push({ tick, instrument });
    if (this.held.length > maxHeldTicks) this.held.shift();
    return undefined;
  }

  /**
   * Feeds `history` (any order; sorted here) and the live ticks held meanwhile, in time order,
   * then goes live. Signals of these past ticks are discarded: nothing is traded on them. Called
   * once; an empty history (the broker had none, or could not be read) just goes live.
   */
  learn(history: readonly Tick[]): void {
    const held = this.held;
    if (held === undefined) return;
    const firstLive = held[0]?.tick.time ?? Infinity;
    const past = history.filter((tick) => tick.time < firstLive).sort((a, b) => a.time - b.time);
    for (const tick of past) {
      const instrument = this.catalogue.get(tick.symbol);
      if (!instrument) continue;
      this.inner.onTick(tick, instrument);
      this.learned++;
    }
    for (const { tick, instrument } of held) this.inner.onTick(tick, instrument);
    this.held = undefined;
  }
}
