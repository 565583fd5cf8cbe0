import type { Side } from '../broker/broker-adapter';
import { roundToDigits, type Instrument } from '../instruments/instrument';
import type { Tick } from '../market-data/tick';

/** Stop-loss distance as a multiple of the take-profit distance (spec §1, §9). */
export const stopLossMultiple = 5;

export interface TradeGeometry {
  readonly side: Side;
  /** The ask for a buy, the bid for a sale. */
  readonly entryPrice: number;
  /** The price the position would close at right away: the bid for a buy, the ask for a sale. */
  readonly closingPrice: number;
  /** d = spread + 1 pip. */
  readonly distance: number;
  readonly takeProfit: number;
  readonly stopLoss: number;
  /** Win if the TP is hit, in price units from the entry: one pip, less the trading costs. */
  readonly gain: number;
  /** Loss if the SL is hit (before any gap): spread + 5d, plus the trading costs. */
  readonly loss: number;
  /**
   * loss / (gain + loss): the win rate at which the trade breaks even, spread and trading costs
   * included; 1 when the costs take the whole gain (no win rate makes it pay).
   */
  readonly breakEvenProbability: number;
}

/**
 * spec §1 and §9: take-profit one pip above the spread, stop-loss five times that, both measured
 * from the price the position closes at when it opens. `costPerUnit` is what opening and closing
 * one unit costs besides the spread (a broker's commission, both sides), in price units: it is
 * taken from the gain and added to the loss, so the break-even rate says what the trade needs.
 */
export function tradeGeometry(
  side: Side,
  tick: Tick,
  instrument: Instrument,
  costPerUnit = 0,
): TradeGeometry {
  const spread = tick.ask - tick.bid;
  const distance = spread + instrument.pipSize;
  const direction = side === 'buy' ? 1 : -1;
  const closingPrice = side === 'buy' ? tick.bid : tick.ask;
  const entryPrice = side === 'buy' ? tick.ask : tick.bid;
  const takeProfit = roundToDigits(closingPrice + direction * distance, instrument.digits);
  const stopLoss = roundToDigits(
    closingPrice - direction * stopLossMultiple * distance,
    instrument.digits,
  );
  const gain = Math.abs(takeProfit - entryPrice) - costPerUnit;
  const loss = Math.abs(entryPrice - stopLoss) + costPerUnit;
  return {
    side,
    entryPrice,
    closingPrice,
    distance,
    takeProfit,
    stopLoss,
    gain,
    loss,
    breakEvenProbability: gain > 0 ? loss / (gain + loss) : 1,
  };
}
