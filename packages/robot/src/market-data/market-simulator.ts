import type { Instrument } from '../instruments/instrument';
import { roundToDigits } from '../instruments/instrument';
import { sessionPosition, type SessionPosition } from '../instruments/trading-hours';
import {
  GaussianSampler,
  createSeededRandom,
  deriveSeed,
  type RandomSource,
} from '../random/random-source';
import { TickDispatcher, type SteppedFeed } from './market-data-feed';
import type { Tick, TickListener, Unsubscribe } from './tick';

/**
 * Hidden trend regimes: the simulator's only predictable structure (decision 021). Prices are
 * otherwise a random walk with jumps, so a model can learn exactly this much and no more.
 */
export interface RegimeOptions {
  /** Mean minutes spent without a trend. */
  readonly meanFlatMinutes: number;
  /** Mean minutes a trend lasts. */
  readonly meanTrendMinutes: number;
  /** Drift per tick during a trend, as a fraction of the tick's volatility. */
  readonly driftPerTickInVolatility: number;
}

export interface JumpOptions {
  readonly perDay: number;
  /** Jump size as a multiple of the volatility of one tick. */
  readonly sizeInTickVolatility: number;
}

export interface MarketSimulatorOptions {
  readonly instruments: readonly Instrument[];
  readonly seed: number;
  readonly startTime: number;
  readonly tickIntervalMs: number;
  readonly regimes?: RegimeOptions;
  readonly jumps?: JumpOptions;
  /**
   * The last persisted quote per instrument: a restarted market continues from these prices
   * (and counts a reopening gap from their times) instead of its reference levels. They are
   * also its `lastTick` until the instrument ticks again.
   */
  readonly initialQuotes?: readonly Tick[];
}

export const defaultRegimes: RegimeOptions = {
  meanFlatMinutes: 180,
  meanTrendMinutes: 90,
  driftPerTickInVolatility: 0.25,
};
export const defaultJumps: JumpOptions = { perDay: 2, sizeInTickVolatility: 4 };

type Regime = -1 | 0 | 1;

interface InstrumentState {
  readonly instrument: Instrument;
  readonly random: RandomSource;
  readonly gaussian: GaussianSampler;
  logMid: number;
  regime: Regime;
  lastOpenTime: number | undefined;
}

const minuteMs = 60_000;
const hourMs = 3_600_000;
const dayMs = 86_400_000;

/**
 * Spread multiplier: wide at session opens (which, for FX, include the daily 17:00 New York
 * rollover, where each day's session restarts) and in the last minutes before a close.
 */
export function spreadMultiplier(position: SessionPosition): number {
  if (position.sinceOpen < 5) return 3;
  if (position.sinceOpen < 15) return 1.75;
  if (position.untilClose < 5) return 2.5;
  return 1;
}

/**
 * The embedded default price feed: seeded and deterministic (same seed, same ticks), one tick
 * per open instrument every `tickIntervalMs` of simulated time, none while a market is closed.
 */
export class MarketSimulator implements SteppedFeed {
  private readonly dispatcher = new TickDispatcher();
  private readonly states: InstrumentState[];
  private readonly regimes: RegimeOptions;
  private readonly jumps: JumpOptions;
  private nextTickTime: number;

  constructor(private readonly options: MarketSimulatorOptions) {
    this.regimes = options.regimes ?? defaultRegimes;
    this.jumps = options.jumps ?? defaultJumps;
    this.nextTickTime = options.startTime;
    const quotes = new Map((options.initialQuotes ?? []).map((quote) => [quote.symbol, quote]));
    this.states = options.instruments.map((instrument, index) => {
      const random = createSeededRandom(deriveSeed(options.seed, index));
      // Start within a few percent of the reference level so seeds differ visibly (drawn even
      // when a quote is given, so that a seed's random sequence does not depend on quotes).
      const offset = 0.02 * (random.next() - 0.5);
      const quote = quotes.get(instrument.symbol);
      return {
        instrument,
        random,
        gaussian: new GaussianSampler(random),
        logMid: quote
          ? Math.log((quote.bid + quote.ask) / 2)
          : Math.log(instrument.referencePrice) + offset,
        regime: 0,
        lastOpenTime: quote?.time,
      };
    });
    // Nobody listens yet: this only makes them the last known ticks.
    for (const quote of quotes.values()) this.dispatcher.publish(quote);
  }

  /** The latest tick of every instrument that has one, for persisting the market's prices. */
  lastQuotes(): Tick[] {
    return this.states.flatMap((state) => this.dispatcher.lastTick(state.instrument.symbol) ?? []);
  }

  subscribe(listener: TickListener): Unsubscribe {
    return this.dispatcher.subscribe(listener);
  }

  lastTick(symbol: string): Tick | undefined {
    return this.dispatcher.lastTick(symbol);
  }

  /** When the next ticks are due (those of the instruments open then). */
  nextTime(): number {
    return this.nextTickTime;
  }

  /** Emits every tick due up to and including `time`. */
  advanceTo(time: number): void {
    while (this.nextTickTime <= time) {
      const tickTime = this.nextTickTime;
      for (const state of this.states) this.step(state, tickTime);
      this.nextTickTime += this.options.tickIntervalMs;
    }
  }

  private step(state: InstrumentState, time: number): void {
    const { instrument, random, gaussian } = state;
    const position = sessionPosition(instrument.schedule, time);
    if (!position) return;
    const intervalMs = this.options.tickIntervalMs;
    const tickVolatility =
      instrument.annualVolatility * Math.sqrt(intervalMs / hourMs / instrument.openHoursPerYear);

    let variance = tickVolatility * tickVolatility;
    const closedFor = state.lastOpenTime === undefined ? 0 : time - state.lastOpenTime - intervalMs;
    if (closedFor > 0) {
      // Reopening gap: news accrued while closed, at a quarter of the open-market rate.
      variance += (instrument.annualVolatility ** 2 * (closedFor / dayMs)) / 365 / 4;
    }
    this.moveRegime(state, intervalMs);
    let logReturn = gaussian.next() * Math.sqrt(variance) - variance / 2;
    logReturn += state.regime * this.regimes.driftPerTickInVolatility * tickVolatility;
    if (random.next() < (this.jumps.perDay * intervalMs) / dayMs) {
      logReturn += gaussian.next() * this.jumps.sizeInTickVolatility * tickVolatility;
    }
    state.logMid += logReturn;
    state.lastOpenTime = time;

    const mid = Math.exp(state.logMid);
    const spread =
      instrument.typicalSpreadPips *
      instrument.pipSize *
      spreadMultiplier(position) *
      (1 + 0.25 * random.next());
    const point = 1 / 10 ** instrument.digits;
    const bid = roundToDigits(mid - spread / 2, instrument.digits);
    let ask = roundToDigits(mid + spread / 2, instrument.digits);
    if (ask - bid < point) ask = roundToDigits(bid + point, instrument.digits);
    this.dispatcher.publish({ symbol: instrument.symbol, time, bid, ask });
  }

  private moveRegime(state: InstrumentState, intervalMs: number): void {
    const u = state.random.next();
    if (state.regime === 0) {
      if (u < intervalMs / minuteMs / this.regimes.meanFlatMinutes) {
        state.regime = state.random.next() < 0.5 ? 1 : -1;
      }
    } else if (u < intervalMs / minuteMs / this.regimes.meanTrendMinutes) {
      state.regime = 0;
    }
  }
}
