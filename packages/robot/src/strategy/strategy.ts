import type { Category } from '@tradebot/contract';
import type { Side } from '../broker/broker-adapter';
import type { Instrument } from '../instruments/instrument';
import type { Tick } from '../market-data/tick';
import type { TradeGeometry } from '../risk/trade-geometry';

/** A trade idea for one instrument at one tick, the same for every account. */
export interface Signal {
  readonly symbol: string;
  readonly side: Side;
  /** Calibrated probability that the take-profit is hit before the stop-loss. */
  readonly probability: number;
  readonly geometry: TradeGeometry;
  readonly time: number;
}

/** The best forecast the strategy made of one instrument at its latest tick (decision 147). */
export interface Forecast {
  readonly symbol: string;
  /** Calibrated probability that the take-profit is hit before the stop-loss. */
  readonly probability: number;
  /** The win rate at which the trade breaks even, spread and the broker's costs included. */
  readonly breakEvenProbability: number;
  /** What the strategy asks before it signals: break-even plus its margin for costs. */
  readonly requiredProbability: number;
  readonly time: number;
}

/**
 * What the strategy makes of a category now (decision 147): still learning (outcomes it has
 * against what it needs before its first decision), or the best forecast among the category's
 * instruments at their latest ticks; neither before it has seen one.
 */
export interface StrategyOutlook {
  readonly learning?: { readonly outcomes: number; readonly outcomesNeeded: number };
  readonly best?: Forecast;
}

/** Port: turns ticks into signals (nautilus' Strategy, minus order handling). */
export interface Strategy {
  onTick(tick: Tick, instrument: Instrument): Signal | undefined;
  /**
   * What it makes of a category now (decision 147). Optional: a strategy without it (a test
   * double) is described by its signals alone.
   */
  outlook?(category: Category): StrategyOutlook;
}
