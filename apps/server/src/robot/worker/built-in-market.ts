import path from 'node:path';
import type { BuiltInMarket } from '@tradebot/contract';
import {
  InstrumentCatalogue,
  LoopedQuoteFeed,
  SignalModel,
  learnFromFeed,
  readQuoteFolder,
  recordedCatalogue,
  startPaperTrading,
  tradeOnFeed,
  type QuoteSeries,
  type SteppedFeed,
  type Strategy,
  type Tick,
  type TradingEngine,
} from '@tradebot/robot';
import type { BuiltInMarketChoice } from '../protocol/robot-protocol';

/** The market read and described, before the platform is restored on its catalogue. */
export interface PreparedMarket {
  readonly catalogue: InstrumentCatalogue;
  /** What the account's prices are, as the dashboard says it. */
  readonly description: BuiltInMarket;
  /** The recorded quotes, whole and checked; absent on the simulator. */
  readonly series?: readonly QuoteSeries[];
}

/**
 * Reads the recorded quotes, whole, before anything trades: a bad file stops the robot's start
 * with one line naming it (decision 125). The catalogue holds only the instruments with quotes.
 */
export async function prepareBuiltInMarket(choice: BuiltInMarketChoice): Promise<PreparedMarket> {
  if (choice.kind === 'simulator') {
    return { catalogue: new InstrumentCatalogue(), description: { kind: 'simulator' } };
  }
  const { series } = await readQuoteFolder(choice.dir, new InstrumentCatalogue());
  if (series.length === 0) throw new Error(`${choice.dir}: holds no quotes`);
  const first = Math.min(...series.map((s) => s.times[0] ?? Infinity));
  const last = Math.max(...series.map((s) => s.times[s.length - 1] ?? -Infinity));
  return {
    catalogue: recordedCatalogue(series),
    series,
    description: {
      kind: 'recorded',
      source: choice.name ?? path.basename(choice.dir),
      from: new Date(first).toISOString().slice(0, 10),
      to: new Date(last).toISOString().slice(0, 10),
    },
  };
}

/** What the robot's composition takes besides the market (startPaperTrading's options). */
export type BuiltInMarketOptions = Omit<
  Parameters<typeof startPaperTrading>[0],
  'catalogue' | 'warmUp' | 'strategy'
> & {
  /**
   * History the model learns from at start; 0 skips it. Simulated on the simulator; on recorded
   * quotes, the recording's own quotes the loop played over that time before the start.
   */
  readonly warmUpMs: number;
  /** Another strategy than the signal model (tests): used as given, never warmed up. */
  readonly strategy?: Strategy;
};

export interface RunningMarket {
  readonly market: SteppedFeed & { lastTick(symbol: string): Tick | undefined };
  readonly engine: TradingEngine;
  readonly strategy: Strategy;
}

/**
 * The robot package's one composition on the prepared market: the simulator, its model warmed
 * on simulated history; or the recorded quotes looped on the robot's clock, its model warmed on
 * the quotes the loop played over the `warmUpMs` before the start (decision 149), then learning
 * from the replayed quotes as they come, as it would from a broker's (never on simulated trends,
 * which would teach it a market it does not trade).
 */
export async function startOnBuiltInMarket(
  prepared: PreparedMarket,
  options: BuiltInMarketOptions,
): Promise<RunningMarket> {
  const { warmUpMs, strategy: given, ...rest } = options;
  const { catalogue, series } = prepared;
  if (!series) {
    return startPaperTrading({
      ...rest,
      catalogue,
      ...(given ? { strategy: given } : warmUpMs > 0 ? { warmUp: { historyMs: warmUpMs } } : {}),
    });
  }
  const now = options.clock.now();
  const strategy = given ?? new SignalModel();
  if (!given && warmUpMs > 0) {
    learnFromFeed(strategy, catalogue, new LoopedQuoteFeed(series, now - warmUpMs), now);
  }
  const market = new LoopedQuoteFeed(series, now);
  const { engine } = await tradeOnFeed(market, strategy, { ...rest, catalogue });
  return { market, engine, strategy };
}
