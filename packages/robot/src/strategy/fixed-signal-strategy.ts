import type { Side } from '../broker/broker-adapter';
import type { Instrument } from '../instruments/instrument';
import type { Tick } from '../market-data/tick';
import { tradeGeometry } from '../risk/trade-geometry';
import type { Signal, Strategy } from './strategy';

/**
 * A strategy that signals on every tick with a fixed probability. Not a trading strategy: it
 * drives tests and the benchmark through every account's full risk and order path.
 */
export class FixedSignalStrategy implements Strategy {
  private count = 0;

  constructor(
    private readonly probability = 0.999,
    private readonly sides: readonly Side[] = ['buy', 'sale'],
  ) {}

  onTick(tick: Tick, instrument: Instrument): Signal | undefined {
    const side = this.sides[this.count++ % this.sides.length] ?? 'buy';
    return {
      symbol: tick.symbol,
      side,
      probability: this.probability,
      geometry: tradeGeometry(side, tick, instrument),
      time: tick.time,
    };
  }
}
