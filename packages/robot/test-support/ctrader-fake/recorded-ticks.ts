import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { readLeanQuotes } from '../../src/market-data/recorded-quotes';
import type { FakeCTraderServer, FakeQuote, FakeSymbol } from './fake-ctrader-server';

const dayMs = 86_400_000;
const weekMs = 7 * dayMs;
const leanDay = /^(\d{4})(\d{2})(\d{2})_quote\.zip$/;

/** What `serveRecordedTicks` loaded: quotes per symbol, and the shift applied to their times. */
export interface ServedTicks {
  readonly shiftMs: number;
  readonly quotes: Readonly<Record<string, number>>;
}

/**
 * Gives the fake broker a past of real recorded quotes for its tick-data requests (decision 144):
 * the Lean tick-quote folders in `folder` (the shared OANDA sample, `eurusd/`, `nzdusd/`,
 * `xauusd/`; test data only, decision 125) for each of `symbols` the folder holds, moved forward
 * by a whole number of weeks (weekdays and hours of the week stay what they were) so that the
 * sample's last day ends at or after `now`. The quotes of the `days` days before `now` are
 * served; none after `now`. The server must keep that many quotes (`tickHistoryLimit`).
 */
export async function serveRecordedTicks(
  server: FakeCTraderServer,
  folder: string,
  symbols: readonly FakeSymbol[],
  options: { days: number; now?: number },
): Promise<ServedTicks> {
  const now = options.now ?? Date.now();
  const held = new Set((await readdir(folder)).map((name) => name.toUpperCase()));
  const served = symbols.filter((symbol) => held.has(symbol.symbolName.toUpperCase()));
  let sampleEnd = -Infinity;
  for (const symbol of served) {
    for (const name of await readdir(path.join(folder, symbol.symbolName.toLowerCase()))) {
      const match = leanDay.exec(name);
      if (match) {
        const day = Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
        sampleEnd = Math.max(sampleEnd, day + dayMs);
      }
    }
  }
  if (served.length === 0 || !Number.isFinite(sampleEnd)) {
    throw new Error(`${folder} holds none of ${symbols.map((s) => s.symbolName).join(', ')}`);
  }
  const shiftMs = Math.ceil((now - sampleEnd) / weekMs) * weekMs;
  const counts: Record<string, number> = {};
  for (const symbol of served) {
    const series = await readLeanQuotes(
      path.join(folder, symbol.symbolName.toLowerCase()),
      symbol.symbolName.toUpperCase(),
      { from: now - options.days * dayMs - shiftMs, until: now - shiftMs + 1 },
    );
    const quotes: FakeQuote[] = new Array<FakeQuote>(series.length);
    for (let i = 0; i < series.length; i++) {
      quotes[i] = {
        time: (series.times[i] ?? 0) + shiftMs,
        bid: series.bids[i] ?? 0,
        ask: series.asks[i] ?? 0,
      };
    }
    server.pastPrices(symbol.symbolId, quotes);
    counts[symbol.symbolName] = quotes.length;
  }
  return { shiftMs, quotes: counts };
}
