import { createHash } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { recordedCatalogue } from '../backtest/backtest-series';
import { InstrumentCatalogue } from '../instruments/catalogue';
import { roundToDigits } from '../instruments/instrument';
import { RecordedQuoteFeed } from '../market-data/recorded-quote-feed';
import { readQuoteFolder } from '../market-data/recorded-quotes';
import type { Tick } from '../market-data/tick';
import { createSeededRandom } from '../random/random-source';
import { SignalModel, type SignalModelOptions } from './signal-model';

/**
 * The model's outputs pinned bit for bit (decision 149): a fixed window of recorded quotes, and
 * a made-up path, through the signal model; a digest of every signal it gave, its scorecard
 * (every scored probability counts in its Brier scores and calibration tables) and its outcome
 * counts. The expected digests were computed on the model as it was before its undecided virtual
 * trades were kept by price level; a change that moves any forecast by one bit changes them.
 */
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const oanda = path.resolve(repoRoot, '..', 'shared', 'market-data', 'oanda-2014-05');

function digestOf(model: SignalModel, signals: readonly unknown[]): string {
  const hash = createHash('sha256');
  for (const signal of signals) hash.update(JSON.stringify(signal));
  hash.update(JSON.stringify(model.report()));
  hash.update(JSON.stringify([...model.outcomeCounts()].sort(([a], [b]) => a.localeCompare(b))));
  return hash.digest('hex');
}

/** 2014-05-06 08:00 to 14:00 UTC of the OANDA sample: EURUSD, NZDUSD and XAUUSD, every quote. */
async function replayRecorded(
  options: Partial<SignalModelOptions>,
  continueAt?: (quotes: readonly Tick[]) => readonly Tick[],
): Promise<{ digest: string; ticks: number; signals: number }> {
  const from = Date.parse('2014-05-06T08:00:00Z');
  const until = Date.parse('2014-05-06T14:00:00Z');
  const { series } = await readQuoteFolder(oanda, new InstrumentCatalogue(), { from, until });
  const catalogue = recordedCatalogue(series);
  const model = new SignalModel(options);
  const feed = new RecordedQuoteFeed(series, 'quote');
  const signals: unknown[] = [];
  let ticks = 0;
  feed.subscribe((tick) => {
    ticks++;
    const signal = model.onTick(tick, catalogue.require(tick.symbol));
    if (signal) signals.push(signal);
  });
  const middle = (from + until) / 2;
  feed.advanceTo(middle);
  if (continueAt) {
    model.continueAt(continueAt(series.flatMap((s) => feed.lastTick(s.symbol) ?? [])));
  }
  feed.advanceTo(until);
  return { digest: digestOf(model, signals), ticks, signals: signals.length };
}

describe('SignalModel on a fixed replay (bit-identical outputs, decision 149)', () => {
  it('gives the same forecasts, scorecard and calibration on recorded quotes, with its defaults', async () => {
    const run = await replayRecorded({ calibrationErrors: true });
    expect(run.ticks).toBe(99_702);
    expect(run.digest).toBe('14cbb87a9bf4bc60c60937912a4fbbcf1f8a5271d7c45b88a18cfe26a83584c2');
  });

  it('the same with few undecided trades allowed, a low bar that lets it signal, and prices moved halfway (continueAt)', async () => {
    const run = await replayRecorded(
      {
        calibrationErrors: true,
        maxPendingPerInstrument: 60,
        warmUpOutcomes: 50,
        minimumEdge: -1,
        calibration: { window: 30_000, refitEvery: 500, minimumBlock: 300 },
      },
      (quotes) => quotes.map((q) => ({ ...q, bid: q.bid * 1.01, ask: q.ask * 1.01 })),
    );
    expect(run.signals).toBeGreaterThan(1000);
    expect(run.digest).toBe('0d2a2f89b6e49c9e6f31a24c183de2f0b2a3a93b67e9be3a0889e69c0ce7f360');
  });

  it('the same when a virtual trade is never decided and the calibrator stops waiting for it', () => {
    // The first forecasts are made at an ask of 1.1; the ask then moves by 2 points at a time on
    // odd offsets, inside (-20, +100) points: the first sale (TP 20 points below, SL 100 above)
    // is never decided, every later trade is, and the calibrator's queue passes its bound.
    const eurusd = new InstrumentCatalogue().require('EURUSD');
    const model = new SignalModel({ minimumEdge: -1 });
    const random = createSeededRandom(7);
    const point = 0.00001;
    const start = 1.1;
    let offset = 0;
    const signals: unknown[] = [];
    for (let i = 0; i < 60_000; i++) {
      if (i < 59) offset = i % 2 === 0 ? 0 : 2;
      else if (i === 59) offset = 0;
      else if (i === 60) offset = 1;
      else {
        offset += random.next() < 0.5 ? 2 : -2;
        if (offset < -19) offset = -17;
        if (offset > 99) offset = 97;
      }
      const ask = roundToDigits(start + offset * point, 5);
      const tick = { symbol: 'EURUSD', time: i * 1000, bid: roundToDigits(ask - 0.0001, 5), ask };
      const signal = model.onTick(tick, eurusd);
      if (signal) signals.push(signal);
    }
    expect(signals.length).toBeGreaterThan(1000);
    expect(digestOf(model, signals)).toBe(
      '41e90926387c2570254607288bfac4c1fd55c41c40645adef52153b697c433dd',
    );
  });
});
