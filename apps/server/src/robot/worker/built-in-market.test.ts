import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import {
  CountingEventSink,
  InMemoryAccountSettingsSource,
  InMemoryExecutionStore,
  ManualClock,
  SignalModel,
} from '@tradebot/robot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prepareBuiltInMarket, startOnBuiltInMarket, type PreparedMarket } from './built-in-market';

/** Wednesday 7 May 2014 13:00-15:00 UTC, a EURUSD quote every 10 s, 10 pips up and down. */
const recordedFrom = Date.parse('2014-05-07T13:00:00Z');
/** A Wednesday 15:00 UTC: the loop plays the recorded Wednesday 15:00, whole weeks later. */
const start = Date.parse('2026-11-25T15:00:00Z');

let dir: string;
let prepared: PreparedMarket;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'recorded-warm-'));
  const rows = Array.from({ length: 720 }, (_, i) => {
    const bid = i % 2 === 0 ? '1.39000' : '1.39100';
    const ask = i % 2 === 0 ? '1.39010' : '1.39110';
    return `${String(recordedFrom + i * 10_000)},${bid},${ask}`;
  });
  await writeFile(path.join(dir, 'EURUSD.csv'), `time,bid,ask\n${rows.join('\n')}\n`);
  prepared = await prepareBuiltInMarket({ kind: 'recorded', dir });
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** The model's labelled outcomes right after the start, before the live market moves. */
async function outcomesAtStart(warmUpMs: number): Promise<number> {
  const { engine, strategy } = await startOnBuiltInMarket(prepared, {
    seed: 1,
    clock: new ManualClock(start),
    store: new InMemoryExecutionStore(),
    settings: new InMemoryAccountSettingsSource(),
    events: new CountingEventSink(),
    tickIntervalMs: 1000,
    warmUpMs,
  });
  engine.stop();
  if (!(strategy instanceof SignalModel)) throw new Error('the built-in platform trades its model');
  return strategy.outcomeCounts().get('EURUSD') ?? 0;
}

describe('the built-in platform on recorded quotes (decision 149)', () => {
  it("warms the model on the recording's own quotes the loop played before the start, as long as asked", async () => {
    const cold = await outcomesAtStart(0);
    const halfHour = await outcomesAtStart(30 * 60_000);
    const hour = await outcomesAtStart(60 * 60_000);
    expect(cold).toBe(0);
    // Each quote decides the virtual trades of the one before: two outcomes a quote once the
    // model has its 60 quotes of volatility (180 quotes in half an hour, 360 in an hour).
    expect(halfHour).toBe(2 * (180 - 60));
    expect(hour).toBe(2 * (360 - 60));
  });
});
