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

/** Port: turns ticks into signals (nautilus' Strategy, minus order handling). */
export interface Strategy {
  onTick(tick: Tick, instrument: Instrument): Signal | undefined;
}
