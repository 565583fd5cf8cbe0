import type { Category } from '@tradebot/contract';
import type { TradingSchedule } from './trading-hours';

/**
 * Leverage classes at the ESMA retail limits (ESMA product intervention, 2018, kept by national
 * regulators since): majors are pairs of two of USD, EUR, JPY, GBP, CAD and CHF.
 */
export type LeverageClass =
  | 'fx-major'
  | 'fx-minor'
  | 'gold'
  | 'index-major'
  | 'index-minor'
  | 'commodity'
  | 'stock'
  | 'crypto';

export const esmaRetailLeverage: Readonly<Record<LeverageClass, number>> = {
  'fx-major': 30,
  'fx-minor': 20,
  gold: 20,
  'index-major': 20,
  'index-minor': 10,
  commodity: 10,
  stock: 5,
  crypto: 2,
};

export interface Instrument {
  /** Broker-style symbol, unique in the catalogue: EURUSD, AAPL.US, US500, BTCUSD. */
  readonly symbol: string;
  /** Display name; becomes `OutputName` at the contract edge. */
  readonly outputName: string;
  readonly category: Category;
  readonly leverageClass: LeverageClass;
  readonly leverage: number;
  /** Flag or logo codes: ISO currency or country codes, tickers. `Icon1`/`Icon2` at the edge. */
  readonly icon1: string;
  readonly icon2: string;
  /** Currency of the price; profit is made in it and converted to USD at the edge. */
  readonly quoteCurrency: string;
  readonly digits: number;
  readonly pipSize: number;
  /** Units per lot (100,000 for FX, 1 share for stocks, 100 oz for gold). */
  readonly contractSize: number;
  /** Smallest tradable quantity increment, in units. */
  readonly unitStep: number;
  readonly typicalSpreadPips: number;
  /** Annualised volatility the simulator uses. */
  readonly annualVolatility: number;
  /** Starting mid price of the simulator; roughly the market level in 2024. */
  readonly referencePrice: number;
  readonly schedule: TradingSchedule;
  /** Hours a year this market is open, to turn annual volatility into per-tick volatility. */
  readonly openHoursPerYear: number;
}

export function roundToDigits(price: number, digits: number): number {
  const factor = 10 ** digits;
  return Math.round(price * factor) / factor;
}
