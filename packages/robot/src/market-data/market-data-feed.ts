import type { Tick, TickListener, Unsubscribe } from './tick';

/**
 * Port: where prices come from. The embedded default is the market simulator; a broker's price
 * stream replaces it by implementing the same interface. Listeners run in subscription order,
 * which lets the paper broker settle TP/SL on a tick before the engine trades on it.
 */
export interface MarketDataFeed {
  subscribe(listener: TickListener): Unsubscribe;
  /** The latest tick of an instrument, if it has ticked since start-up. */
  lastTick(symbol: string): Tick | undefined;
}

/**
 * A feed whose time the caller drives, step by step: the market simulator and recorded quotes.
 * `nextTime` is when the next tick is due (undefined once a recording has no more);
 * `advanceTo` publishes every tick due up to and including a time.
 */
export interface SteppedFeed extends MarketDataFeed {
  nextTime(): number | undefined;
  advanceTo(time: number): void;
}

/** Keeps listeners and last ticks; a feed adapter only has to call `publish`. */
export class TickDispatcher implements MarketDataFeed {
  private listeners: TickListener[] = [];
  private readonly latest = new Map<string, Tick>();

  subscribe(listener: TickListener): Unsubscribe {
    this.listeners = [...this.listeners, listener];
    return () => {
      this.listeners = this.listeners.filter((l) => l !== listener);
    };
  }

  lastTick(symbol: string): Tick | undefined {
    return this.latest.get(symbol);
  }

  publish(tick: Tick): void {
    this.latest.set(tick.symbol, tick);
    for (const listener of this.listeners) listener(tick);
  }
}
