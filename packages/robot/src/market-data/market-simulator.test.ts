import { describe, expect, it } from 'vitest';
import { InstrumentCatalogue } from '../instruments/catalogue';
import { isMarketOpen } from '../instruments/trading-hours';
import { MarketSimulator, spreadMultiplier } from './market-simulator';
import type { Tick } from './tick';

const catalogue = new InstrumentCatalogue();
const monday = Date.parse('2024-06-10T00:00:00Z');

function run(seed: number, symbols: string[], hours: number, intervalMs = 60_000): Tick[] {
  const simulator = new MarketSimulator({
    instruments: symbols.map((s) => catalogue.require(s)),
    seed,
    startTime: monday,
    tickIntervalMs: intervalMs,
  });
  const ticks: Tick[] = [];
  simulator.subscribe((tick) => ticks.push(tick));
  simulator.advanceTo(monday + hours * 3_600_000);
  return ticks;
}

describe('MarketSimulator', () => {
  it('is deterministic: same seed, same ticks; another seed, other ticks', () => {
    const a = run(1, ['EURUSD', 'BTCUSD'], 6);
    expect(run(1, ['EURUSD', 'BTCUSD'], 6)).toEqual(a);
    expect(run(2, ['EURUSD', 'BTCUSD'], 6)).not.toEqual(a);
  });

  it('quotes bid below ask at the instrument digits', () => {
    for (const tick of run(3, ['EURUSD', 'USDJPY', 'AAPL.US', 'XAUUSD', 'BTCUSD'], 30)) {
      const { digits } = catalogue.require(tick.symbol);
      expect(tick.ask).toBeGreaterThan(tick.bid);
      expect(Number(tick.bid.toFixed(digits))).toBe(tick.bid);
      expect(Number(tick.ask.toFixed(digits))).toBe(tick.ask);
    }
  });

  it('emits no tick while a market is closed', () => {
    const ticks = run(4, ['AAPL.US', 'EURUSD'], 24 * 7);
    for (const tick of ticks) {
      expect(isMarketOpen(catalogue.require(tick.symbol).schedule, tick.time)).toBe(true);
    }
    const apple = ticks.filter((t) => t.symbol === 'AAPL.US').length;
    expect(apple).toBe(5 * 390); // five sessions of 6.5 hours, one tick a minute
  });

  it('matches the annual volatility of the class within sampling error', () => {
    const measure = (symbol: string, target: number) => {
      const ticks = run(5, [symbol], 24 * 60, 300_000);
      let sum = 0;
      let previous: number | undefined;
      for (const tick of ticks) {
        const mid = (tick.bid + tick.ask) / 2;
        if (previous !== undefined) sum += Math.log(mid / previous) ** 2;
        previous = mid;
      }
      const { openHoursPerYear } = catalogue.require(symbol);
      const perTick = Math.sqrt(sum / (ticks.length - 1));
      const annual = perTick * Math.sqrt(openHoursPerYear * 12);
      expect(annual).toBeGreaterThan(target * 0.8);
      expect(annual).toBeLessThan(target * 1.45); // trends and jumps add a little
    };
    measure('EURUSD', 0.08);
    measure('BTCUSD', 0.55);
  });

  it('widens spreads at session opens and before closes', () => {
    expect(spreadMultiplier({ sinceOpen: 1, untilClose: 600 })).toBeGreaterThan(1);
    expect(spreadMultiplier({ sinceOpen: 300, untilClose: 2 })).toBeGreaterThan(1);
    expect(spreadMultiplier({ sinceOpen: 300, untilClose: 300 })).toBe(1);
  });
});
