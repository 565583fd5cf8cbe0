import type { InstrumentCatalogue } from '../instruments/catalogue';
import type { SteppedFeed } from '../market-data/market-data-feed';
import { MarketSimulator, type RegimeOptions } from '../market-data/market-simulator';
import type { Tick } from '../market-data/tick';
import type { Strategy } from './strategy';

export interface WarmUpOptions {
  readonly seed: number;
  /** Simulated history to learn from: ticks at `from`, up to but not including `to`. */
  readonly from: number;
  readonly to: number;
  /** The live market's tick interval: the model learns the dynamics it will trade on. */
  readonly tickIntervalMs: number;
  readonly regimes?: RegimeOptions;
}

export interface WarmUpResult {
  /** Ticks the strategy learned from. */
  readonly ticks: number;
  /** The last quote per instrument: a live market started from them continues this history. */
  readonly lastQuotes: readonly Tick[];
}

/**
 * Teaches a strategy on simulated history before it goes live, so that a fresh start can trade
 * within a minute instead of after each instrument's warm-up outcomes (decision 041). A market
 * of its own feeds only the strategy: no broker, no engine, no account sees these ticks. Runs
 * synchronously; the default history of `startPaperTrading` takes a few seconds.
 */
export function warmUpStrategy(
  strategy: Strategy,
  catalogue: InstrumentCatalogue,
  options: WarmUpOptions,
): WarmUpResult {
  const market = new MarketSimulator({
    instruments: catalogue.instruments,
    seed: options.seed,
    startTime: options.from,
    tickIntervalMs: options.tickIntervalMs,
    ...(options.regimes ? { regimes: options.regimes } : {}),
  });
  const ticks = learnFromFeed(strategy, catalogue, market, options.to);
  return { ticks, lastQuotes: market.lastQuotes() };
}

/**
 * Teaches a strategy on a feed's quotes up to but not including `to`, synchronously, before it
 * trades (decision 149): simulated history, or recorded quotes before the first traded one. Only
 * the strategy sees them; what it signals on them is discarded. Quotes of instruments the
 * catalogue does not hold are skipped. Returns how many quotes it learned from.
 */
export function learnFromFeed(
  strategy: Strategy,
  catalogue: InstrumentCatalogue,
  feed: SteppedFeed,
  to: number,
): number {
  let ticks = 0;
  const unsubscribe = feed.subscribe((tick) => {
    const instrument = catalogue.get(tick.symbol);
    if (!instrument) return;
    strategy.onTick(tick, instrument);
    ticks++;
  });
  feed.advanceTo(to - 1);
  unsubscribe();
  return ticks;
}
