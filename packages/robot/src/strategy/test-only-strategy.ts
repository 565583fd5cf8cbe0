import type { Instrument } from '../instruments/instrument';
import type { Tick } from '../market-data/tick';
import { FixedSignalStrategy } from './fixed-signal-strategy';
import type { Signal, Strategy } from './strategy';

/**
 * The names a test may choose (decision 093); the server refuses them outside NODE_ENV=test.
 * `always-signal` signals on every 120th quote of an instrument; `frequent-signal` on every
 * 10th, for tests whose server lives only seconds (the crash test kills it every 1-4 s).
 */
export const testOnlyStrategies = ['always-signal', 'frequent-signal'] as const;
export type TestOnlyStrategyName = (typeof testOnlyStrategies)[number];

/**
 * For end-to-end tests only, never a trading strategy (decision 093): the calibrated model may
 * honestly find no edge for hours, and a test that needs operations cannot wait for one. It
 * signals on every `every`-th quote of each instrument, alternating buy and sale, with the fixed
 * probability of FixedSignalStrategy; the market alone decides how each operation ends.
 */
export class TestOnlyStrategy implements Strategy {
  private readonly fixed = new FixedSignalStrategy();
  private readonly quotes = new Map<string, number>();

  constructor(private readonly every = 120) {}

  onTick(tick: Tick, instrument: Instrument): Signal | undefined {
    const count = (this.quotes.get(tick.symbol) ?? 0) + 1;
    this.quotes.set(tick.symbol, count);
    return count % this.every === 0 ? this.fixed.onTick(tick, instrument) : undefined;
  }
}

const makers: Readonly<Record<TestOnlyStrategyName, () => Strategy>> = {
  'always-signal': () => new TestOnlyStrategy(),
  'frequent-signal': () => new TestOnlyStrategy(10),
};

export function testOnlyStrategy(name: TestOnlyStrategyName): Strategy {
  return makers[name]();
}
