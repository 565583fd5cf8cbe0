import { describe, expect, it } from 'vitest';
import { InstrumentCatalogue } from '../instruments/catalogue';
import type { Instrument } from '../instruments/instrument';
import type { Tick } from '../market-data/tick';
import type { Signal, Strategy } from './strategy';
import { WarmingStrategy } from './warming-strategy';

/** Records every tick it is given, and says "buy" on each, so a leaked signal would show. */
class Recorder implements Strategy {
  readonly times: number[] = [];
  onTick(tick: Tick, _instrument: Instrument): Signal | undefined {
    this.times.push(tick.time);
    return { side: 'buy' } as unknown as Signal;
  }
}

const catalogue = new InstrumentCatalogue();
const btc = catalogue.require('BTCUSD');
const tick = (time: number): Tick => ({ symbol: 'BTCUSD', time, bid: 100, ask: 101 });

describe('WarmingStrategy (decision 096): the broker history first, a slice at a time', () => {
  it('signals nothing while warming, then learns the history, the held live ticks and later ones in time order', async () => {
    const recorder = new Recorder();
    const warming = new WarmingStrategy(recorder, catalogue);
    expect(warming.warming).toBe(true);
    expect(warming.onTick(tick(1_000), btc)).toBeUndefined();
    expect(warming.onTick(tick(1_001), btc)).toBeUndefined();
    // History in any order, one tick after the first live one (dropped: the live one says it).
    await warming.learn([tick(3), tick(1), tick(1_000), tick(2)]);
    expect(warming.warming).toBe(false);
    expect(warming.historyTicks).toBe(3);
    expect(recorder.times).toEqual([1, 2, 3, 1_000, 1_001]);
    expect(warming.onTick(tick(1_002), btc)).toBeDefined();
    // A second call learns nothing more.
    await warming.learn([tick(4)]);
    expect(recorder.times).toEqual([1, 2, 3, 1_000, 1_001, 1_002]);
  });

  it('yields to the event loop while it learns a long history, and live ticks arriving meanwhile are learned after it, in order, before it goes live', async () => {
    const recorder = new Recorder();
    const warming = new WarmingStrategy(recorder, catalogue);
    warming.onTick(tick(1_000_000), btc);
    const history = Array.from({ length: 100_000 }, (_, index) => tick(index));
    let turns = 0;
    let live = 1_000_001;
    const other = setInterval(() => {
      turns++;
      // Another account's tick, or this symbol's next one, while the history is learned.
      if (warming.warming) expect(warming.onTick(tick(live++), btc)).toBeUndefined();
    }, 0);
    const started = performance.now();
    const learning = warming.learn(history);
    expect(warming.warming).toBe(true);
    await learning;
    clearInterval(other);
    const took = performance.now() - started;
    expect(warming.warming).toBe(false);
    // Other work ran while it learned: the thread was never held for the whole history.
    expect(turns).toBeGreaterThan(3);
    expect(took).toBeGreaterThan(0);
    expect(recorder.times).toHaveLength(100_000 + (live - 1_000_000));
    expect(recorder.times.slice(0, 100_000)).toEqual(history.map((past) => past.time));
    expect(recorder.times.slice(100_000)).toEqual(
      Array.from({ length: live - 1_000_000 }, (_, index) => 1_000_000 + index),
    );
  });
});
