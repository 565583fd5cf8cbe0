import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InstrumentCatalogue } from '../instruments/catalogue';
import { tradeGeometry } from './trade-geometry';

const catalogue = new InstrumentCatalogue();
const eurusd = catalogue.require('EURUSD');
const tick = { symbol: 'EURUSD', time: 0, bid: 1.1, ask: 1.1001 };

describe('tradeGeometry', () => {
  it('puts a buy TP one pip above the spread from the bid, and the SL five times as far', () => {
    const g = tradeGeometry('buy', tick, eurusd);
    expect(g.takeProfit).toBe(1.1002); // d = 1 pip spread + 1 pip
    expect(g.stopLoss).toBe(1.099);
    expect(g.gain).toBeCloseTo(0.0001, 10);
    expect(g.loss).toBeCloseTo(0.0011, 10);
    expect(g.breakEvenProbability).toBeCloseTo(11 / 12, 10);
  });

  it("takes a broker's commission from the gain and adds it to the loss; a cost that takes the whole gain never breaks even", () => {
    const cost = 0.00004; // 0.4 pip a round turn
    const g = tradeGeometry('buy', tick, eurusd, cost);
    expect(g.takeProfit).toBe(1.1002); // the published levels do not move
    expect(g.stopLoss).toBe(1.099);
    expect(g.gain).toBeCloseTo(0.00006, 10);
    expect(g.loss).toBeCloseTo(0.00114, 10);
    expect(g.breakEvenProbability).toBeCloseTo(114 / 120, 10);
    expect(tradeGeometry('buy', tick, eurusd, 0.0001).breakEvenProbability).toBe(1);
  });

  it('mirrors it for a sale, measured from the ask', () => {
    const g = tradeGeometry('sale', tick, eurusd);
    expect(g.takeProfit).toBe(1.0999);
    expect(g.stopLoss).toBe(1.1011);
  });

  it('needs 5/6 before costs and more once the spread is paid', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...catalogue.instruments),
        fc.integer({ min: 1, max: 50 }),
        fc.constantFrom('buy' as const, 'sale' as const),
        (instrument, spreadPoints, side) => {
          const point = 1 / 10 ** instrument.digits;
          const bid = instrument.referencePrice;
          const t = { symbol: instrument.symbol, time: 0, bid, ask: bid + spreadPoints * point };
          const g = tradeGeometry(side, t, instrument);
          const d = g.distance;
          const tolerance = point / 2 + 1e-9 * bid;
          expect(Math.abs(Math.abs(g.takeProfit - g.closingPrice) - d)).toBeLessThanOrEqual(
            tolerance,
          );
          expect(Math.abs(Math.abs(g.stopLoss - g.closingPrice) - 5 * d)).toBeLessThanOrEqual(
            5 * tolerance,
          );
          expect(g.breakEvenProbability).toBeGreaterThan(5 / 6);
          expect(g.breakEvenProbability).toBeLessThan(1);
        },
      ),
      { numRuns: 300 },
    );
  });
});
