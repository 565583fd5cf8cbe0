import type { Category } from '@tradebot/contract';
import type { Side } from '../broker/broker-adapter';
import type { Instrument } from '../instruments/instrument';
import type { Tick } from '../market-data/tick';
import { tradeGeometry, type TradeGeometry } from '../risk/trade-geometry';
import { ForecastMetrics, type ForecastReport } from './forecast-metrics';
import { OnlineLogisticRegression } from './logistic-regression';
import {
  IsotonicCalibrator,
  firstFitOutcomes,
  type IsotonicCalibratorOptions,
} from './isotonic-calibrator';
import { LevelHeap } from './level-heap';
import type { Forecast, Signal, Strategy, StrategyOutlook } from './strategy';

/**
 * The robot's "AI" (decision 021): per instrument, an online logistic regression on scaled
 * indicator features estimates the probability that a trade opened now hits its take-profit
 * before its stop-loss. Each tick opens a virtual buy and a virtual sale with the real TP/SL
 * geometry; their outcomes, once the market decides them, are the training labels. Every
 * forecast is scored before its outcome is known, so the reported figures are out of sample.
 *
 * The regression's score is then recalibrated on held-out outcomes (isotonic, refitted as it
 * learns; decision 093), and the robot signals only when that measured probability clears the
 * break-even rate of the geometry, spread included, plus a margin for costs.
 */
export interface SignalModelOptions {
  /** Margin above break-even a probability must clear. */
  readonly minimumEdge: number;
  /** Labelled outcomes an instrument needs before its model may signal. */
  readonly warmUpOutcomes: number;
  /** Bound on undecided virtual trades per instrument (new ones are skipped, never dropped). */
  readonly maxPendingPerInstrument: number;
  readonly learningRate: number;
  readonly calibration: Partial<IsotonicCalibratorOptions>;
  /**
   * Record, for each forecast at or above break-even, its instrument and day, so that the
   * calibration table gives each decile a cluster-robust standard error. Their memory grows with
   * instrument-days, so only a run that ends (a simulation) asks for them.
   */
  readonly calibrationErrors: boolean;
  /**
   * A broker's trading costs besides the spread (its commission, both sides), per unit of the
   * instrument in price units, at this tick; undefined when they cannot be worked out, and then
   * the model signals nothing for that instrument. Absent: no such costs (the built-in platform).
   */
  readonly costs?: TradingCosts;
}

/** See SignalModelOptions.costs. */
export type TradingCosts = (instrument: Instrument, tick: Tick) => number | undefined;

export const defaultSignalModelOptions: SignalModelOptions = {
  minimumEdge: 0.01,
  warmUpOutcomes: 300,
  maxPendingPerInstrument: 400,
  learningRate: 0.02,
  calibration: {},
  calibrationErrors: false,
};

const emaSpans = [5, 20, 60] as const;
const dayMs = 86_400_000;
const varianceSpan = 60;
const featureCount = 8;
const reopeningGapMs = 15 * 60_000;
const maxAwaitingCalibration = 20_000;
/** Calibration queue entries already learned before the queue's array is compacted. */
const queueCompactionAt = 4_096;
/** Stale entries (trades decided by their other level) a level heap may hold beyond the live. */
const heapSlack = 64;

interface PendingForecast {
  /** Its place in the order the model made forecasts: outcomes are learned in that order. */
  readonly order: number;
  readonly side: Side;
  readonly features: Float64Array;
  readonly rawProbability: number;
  readonly probability: number;
  readonly takeProfit: number;
  readonly stopLoss: number;
  readonly breakEven: number;
  readonly baseRateBefore: number;
  readonly confident: boolean;
  readonly scored: boolean;
  /** Set when the market decides it; the calibrator still waits for the older ones. */
  outcome: 0 | 1 | undefined;
}

interface InstrumentModel {
  readonly category: Category;
  /** Shared by the category: features are scale-free, so pooling gives each model more data. */
  readonly regression: OnlineLogisticRegression;
  readonly calibrator: IsotonicCalibrator;
  readonly emas: Float64Array;
  ticks: number;
  lastLogMid: number;
  lastTime: number;
  variance: number;
  /** Virtual trades the market has not decided yet. */
  undecided: number;
  /**
   * The undecided trades by the level that decides them (decision 149): a buy's take-profit
   * (smallest first) and stop-loss (largest first), a sale's take-profit (largest first) and
   * stop-loss (smallest first). A trade decided by one level stays in its other heap until it
   * comes out there or the heap is rebuilt.
   */
  readonly levels: LevelHeaps;
  /** Forecasts made so far: the next one's `order`. */
  made: number;
  /** Every virtual trade in the order it was made, from `calibrateHead` on, until learned. */
  toCalibrate: PendingForecast[];
  calibrateHead: number;
  outcomes: number;
  positives: number;
  /** The best side's forecast at the latest tick, costs known (decision 147). */
  latest: Forecast | undefined;
}

interface LevelHeaps {
  readonly buyTakeProfit: LevelHeap<PendingForecast>;
  readonly buyStopLoss: LevelHeap<PendingForecast>;
  readonly saleTakeProfit: LevelHeap<PendingForecast>;
  readonly saleStopLoss: LevelHeap<PendingForecast>;
}

function levelHeaps(): LevelHeaps {
  return {
    buyTakeProfit: new LevelHeap(),
    buyStopLoss: new LevelHeap(),
    saleTakeProfit: new LevelHeap(),
    saleStopLoss: new LevelHeap(),
  };
}

/** Both sides, in the order each tick forecasts them. */
const sides = ['buy', 'sale'] as const;

/**
 * The price's distance from one of its averages in units of the volatility expected over that
 * average's span, clipped. A function of the module, not a closure made per tick (decision 161).
 */
function momentum(model: InstrumentModel, i: number, logMid: number, volatility: number): number {
  return clip((logMid - (model.emas[i] ?? logMid)) / (volatility * Math.sqrt(emaSpans[i] ?? 1)), 4);
}

function clip(x: number, limit: number): number {
  return x > limit ? limit : x < -limit ? -limit : x;
}

export class SignalModel implements Strategy {
  private readonly models = new Map<string, InstrumentModel>();
  private readonly modelsByCategory = new Map<Category, InstrumentModel[]>();
  private readonly regressions = new Map<
    Category,
    { regression: OnlineLogisticRegression; calibrator: IsotonicCalibrator }
  >();
  private readonly metricsByCategory = new Map<Category, ForecastMetrics>();
  private readonly options: SignalModelOptions;
  /** The trades one tick decides, reused from tick to tick. */
  private readonly decided: PendingForecast[] = [];

  constructor(options: Partial<SignalModelOptions> = {}) {
    this.options = { ...defaultSignalModelOptions, ...options };
  }

  onTick(tick: Tick, instrument: Instrument): Signal | undefined {
    const model = this.modelFor(instrument);
    this.resolvePending(model, tick);
    const logMid = Math.log((tick.bid + tick.ask) / 2);
    // A market that reopens (or a feed that resumes) jumps by what happened meanwhile: that gap
    // is not momentum, so the averages restart from the new price.
    if (tick.time - model.lastTime > reopeningGapMs) model.emas.fill(logMid);
    model.lastTime = tick.time;
    this.updateIndicators(model, logMid);
    if (model.ticks < varianceSpan) return undefined;

    const scored = model.outcomes >= this.options.warmUpOutcomes && model.calibrator.ready;
    let best: Signal | undefined;
    let bestEdge = -Infinity;
    let latest: Forecast | undefined;
    // The market's figures (features, outcomes) never depend on costs; the break-even does.
    const cost = this.options.costs ? this.options.costs(instrument, tick) : 0;
    for (const side of sides) {
      const geometry = tradeGeometry(side, tick, instrument);
      const costed =
        cost === undefined || cost === 0 ? geometry : tradeGeometry(side, tick, instrument, cost);
      const features = this.features(model, side, geometry, logMid);
      const rawProbability = model.regression.predict(features);
      const probability = model.calibrator.calibrate(rawProbability);
      const edge = probability - costed.breakEvenProbability;
      const confident = scored && cost !== undefined && edge >= this.options.minimumEdge;
      if (model.undecided < this.options.maxPendingPerInstrument) {
        const forecast: PendingForecast = {
          order: model.made++,
          side,
          features,
          rawProbability,
          probability,
          takeProfit: geometry.takeProfit,
          stopLoss: geometry.stopLoss,
          breakEven: costed.breakEvenProbability,
          baseRateBefore: model.outcomes === 0 ? 0.5 : model.positives / model.outcomes,
          confident,
          scored,
          outcome: undefined,
        };
        addUndecided(model, forecast);
        model.toCalibrate.push(forecast);
      }
      if (
        cost !== undefined &&
        (latest === undefined || edge > latest.probability - latest.breakEvenProbability)
      ) {
        latest = {
          symbol: tick.symbol,
          probability,
          breakEvenProbability: costed.breakEvenProbability,
          requiredProbability: costed.breakEvenProbability + this.options.minimumEdge,
          time: tick.time,
        };
      }
      if (confident && edge > bestEdge) {
        bestEdge = edge;
        best = { symbol: tick.symbol, side, probability, geometry: costed, time: tick.time };
      }
    }
    model.latest = latest;
    return best;
  }

  /**
   * What the model makes of a category now (decision 147). Learning while none of its
   * instruments may signal yet: the outcomes towards the first calibration fit or towards an
   * instrument's warm-up, whichever is further from done. Otherwise the forecast with the most
   * edge among instruments that may signal, at their latest ticks no older than a reopening
   * gap before the category's newest one (a market that closed keeps no say).
   */
  outlook(category: Category): StrategyOutlook {
    const models = this.modelsByCategory.get(category) ?? [];
    const warmUp = this.options.warmUpOutcomes;
    const calibration = this.regressions.get(category)?.calibrator.firstFitProgress ?? {
      learned: 0,
      needed: firstFitOutcomes(this.options.calibration),
    };
    let newest = -Infinity;
    let mostOutcomes = 0;
    for (const model of models) {
      if (model.latest && model.latest.time > newest) newest = model.latest.time;
      if (model.outcomes > mostOutcomes) mostOutcomes = model.outcomes;
    }
    if (mostOutcomes < warmUp || calibration.learned < calibration.needed) {
      const instruments = { outcomes: Math.min(mostOutcomes, warmUp), outcomesNeeded: warmUp };
      const fit = { outcomes: calibration.learned, outcomesNeeded: calibration.needed };
      const learning =
        instruments.outcomes / instruments.outcomesNeeded < fit.outcomes / fit.outcomesNeeded
          ? instruments
          : fit;
      return { learning };
    }
    let best: Forecast | undefined;
    for (const model of models) {
      const latest = model.latest;
      if (!latest || model.outcomes < warmUp || newest - latest.time > reopeningGapMs) continue;
      const edge = latest.probability - latest.requiredProbability;
      if (!best || edge > best.probability - best.requiredProbability) best = latest;
    }
    return best ? { best } : {};
  }

  /**
   * Carries what the model learned over to prices it did not see move there (a market restored
   * from persisted quotes after a warm-up on other history). Features are differences of log
   * prices, so shifting an instrument's price memory to the quote leaves them as they were;
   * virtual trades still open are dropped, as their levels belong to the old prices.
   */
  continueAt(quotes: readonly Tick[]): void {
    for (const quote of quotes) {
      const model = this.models.get(quote.symbol);
      if (!model || model.ticks === 0) continue;
      const shift = Math.log((quote.bid + quote.ask) / 2) - model.lastLogMid;
      for (let i = 0; i < model.emas.length; i++) model.emas[i] = (model.emas[i] ?? 0) + shift;
      model.lastLogMid += shift;
      model.undecided = 0;
      model.levels.buyTakeProfit.clear();
      model.levels.buyStopLoss.clear();
      model.levels.saleTakeProfit.clear();
      model.levels.saleStopLoss.clear();
      model.toCalibrate = [];
      model.calibrateHead = 0;
    }
  }

  /** Labelled outcomes per instrument so far: how far each model is through its warm-up. */
  outcomeCounts(): ReadonlyMap<string, number> {
    return new Map([...this.models].map(([symbol, model]) => [symbol, model.outcomes]));
  }

  /** Starts the scorecard afresh: what the model learned stays, what it was scored on goes. */
  restartScorecard(): void {
    this.metricsByCategory.clear();
  }

  /** Out-of-sample scorecard per category and overall. */
  report(): { overall: ForecastReport; byCategory: Partial<Record<Category, ForecastReport>> } {
    const overall = new ForecastMetrics();
    const byCategory: Partial<Record<Category, ForecastReport>> = {};
    for (const [category, metrics] of this.metricsByCategory) {
      overall.merge(metrics);
      byCategory[category] = metrics.report();
    }
    return { overall: overall.report(), byCategory };
  }

  private modelFor(instrument: Instrument): InstrumentModel {
    let model = this.models.get(instrument.symbol);
    if (!model) {
      model = {
        category: instrument.category,
        ...this.regressionFor(instrument.category),
        emas: new Float64Array(emaSpans.length),
        ticks: 0,
        lastLogMid: Number.NaN,
        lastTime: Number.NaN,
        variance: 0,
        undecided: 0,
        levels: levelHeaps(),
        made: 0,
        toCalibrate: [],
        calibrateHead: 0,
        outcomes: 0,
        positives: 0,
        latest: undefined,
      };
      this.models.set(instrument.symbol, model);
      const inCategory = this.modelsByCategory.get(instrument.category);
      if (inCategory) inCategory.push(model);
      else this.modelsByCategory.set(instrument.category, [model]);
    }
    return model;
  }

  private regressionFor(category: Category) {
    let shared = this.regressions.get(category);
    if (!shared) {
      shared = {
        regression: new OnlineLogisticRegression(featureCount, this.options.learningRate),
        calibrator: new IsotonicCalibrator(this.options.calibration),
      };
      this.regressions.set(category, shared);
    }
    return shared;
  }

  private updateIndicators(model: InstrumentModel, logMid: number): void {
    if (model.ticks === 0) {
      model.emas.fill(logMid);
    } else {
      const r = logMid - model.lastLogMid;
      const alpha = 2 / (varianceSpan + 1);
      // Seeded with the mean of the first returns, then exponentially weighted.
      model.variance =
        model.ticks < varianceSpan
          ? (model.variance * (model.ticks - 1) + r * r) / model.ticks
          : (1 - alpha) * model.variance + alpha * r * r;
      // A loop, not forEach: no closure made on every tick (decision 161).
      for (let i = 0; i < emaSpans.length; i++) {
        const a = 2 / ((emaSpans[i] ?? 0) + 1);
        model.emas[i] = (1 - a) * (model.emas[i] ?? logMid) + a * logMid;
      }
    }
    model.lastLogMid = logMid;
    model.ticks++;
  }

  /**
   * Features, all scaled by the instrument's own per-tick volatility so one model shape fits
   * every asset class; the side's sign mirrors momentum so buys and sales share weights.
   */
  private features(
    model: InstrumentModel,
    side: Side,
    geometry: TradeGeometry,
    logMid: number,
  ): Float64Array {
    const sign = side === 'buy' ? 1 : -1;
    const volatility = Math.sqrt(model.variance) || 1e-9;
    const mid = Math.exp(logMid);
    const momentum0 = momentum(model, 0, logMid, volatility);
    const momentum1 = momentum(model, 1, logMid, volatility);
    const momentum2 = momentum(model, 2, logMid, volatility);
    const distanceInVolatility = clip(geometry.distance / mid / volatility, 10) / 5;
    const spreadInVolatility =
      clip((geometry.gain > 0 ? geometry.distance - geometry.gain : 0) / mid / volatility, 10) / 5;
    const x = new Float64Array(featureCount);
    x[0] = 1;
    x[1] = sign * momentum0;
    x[2] = sign * momentum1;
    x[3] = sign * momentum2;
    x[4] = sign * momentum1 * distanceInVolatility;
    x[5] = sign * momentum2 * distanceInVolatility;
    x[6] = distanceInVolatility;
    x[7] = spreadInVolatility;
    return x;
  }

  /**
   * Outcomes train the regression and are scored as soon as the market decides them. The
   * calibrator learns them in the order the forecasts were made: a take-profit is decided long
   * before a stop-loss five times further away, so learning in the order of decisions would show
   * it, during a trend, the quick wins before the slow losses and make it claim too much.
   */
  private resolvePending(model: InstrumentModel, tick: Tick): void {
    if (model.undecided === 0) return;
    const decided = this.decided;
    decided.length = 0;
    const { levels } = model;
    // Each heap gives up the trades whose level this tick reaches (stale ones are skipped);
    // outcomeAt then decides each exactly as a visit of every undecided trade would.
    takeReached(levels.buyTakeProfit, tick.bid, tick, decided);
    takeReached(levels.buyStopLoss, -tick.bid, tick, decided);
    takeReached(levels.saleTakeProfit, -tick.ask, tick, decided);
    takeReached(levels.saleStopLoss, tick.ask, tick, decided);
    if (decided.length === 0) return;
    // The regression and the scorecard learn them in the order they were made.
    if (decided.length > 1) decided.sort(byOrder);
    for (const forecast of decided) {
      // Set by takeReached: every trade taken out here was decided by this tick.
      const outcome = forecast.outcome ?? 0;
      if (forecast.scored) {
        let metrics = this.metricsByCategory.get(model.category);
        if (!metrics) {
          metrics = new ForecastMetrics();
          this.metricsByCategory.set(model.category, metrics);
        }
        metrics.record(
          forecast.probability,
          outcome,
          forecast.confident,
          forecast.baseRateBefore,
          forecast.breakEven,
          this.options.calibrationErrors && forecast.probability >= forecast.breakEven
            ? `${tick.symbol} ${String(Math.floor(tick.time / dayMs))}`
            : undefined,
        );
      }
      model.regression.learn(forecast.features, outcome);
      model.outcomes++;
      model.positives += outcome;
    }
    model.undecided -= decided.length;
    decided.length = 0;
    // Trades decided by one level linger in their other heap: rebuilt once they outnumber the
    // live ones, so memory stays bounded by the undecided trades.
    const bound = 2 * model.undecided + heapSlack;
    dropDecided(levels.buyTakeProfit, bound);
    dropDecided(levels.buyStopLoss, bound);
    dropDecided(levels.saleTakeProfit, bound);
    dropDecided(levels.saleStopLoss, bound);
    const queue = model.toCalibrate;
    let head = model.calibrateHead;
    for (; head < queue.length; head++) {
      const forecast = queue[head];
      if (forecast?.outcome === undefined) break;
      model.calibrator.learn(forecast.rawProbability, forecast.outcome);
    }
    // A virtual trade the market leaves undecided for very long is not waited for forever.
    if (queue.length - head > maxAwaitingCalibration) head++;
    if (head >= queueCompactionAt && 2 * head >= queue.length) {
      queue.copyWithin(0, head);
      queue.length -= head;
      head = 0;
    }
    model.calibrateHead = head;
  }
}

/** Files an undecided trade under the levels that can decide it (a NaN level never does). */
function addUndecided(model: InstrumentModel, forecast: PendingForecast): void {
  const { levels } = model;
  const { takeProfit, stopLoss } = forecast;
  model.undecided++;
  if (forecast.side === 'buy') {
    if (!Number.isNaN(takeProfit)) levels.buyTakeProfit.push(takeProfit, forecast);
    if (!Number.isNaN(stopLoss)) levels.buyStopLoss.push(-stopLoss, forecast);
  } else {
    if (!Number.isNaN(takeProfit)) levels.saleTakeProfit.push(-takeProfit, forecast);
    if (!Number.isNaN(stopLoss)) levels.saleStopLoss.push(stopLoss, forecast);
  }
}

/**
 * Takes from `heap` every trade whose key is at most `reached` (the tick reaches its level),
 * decides each still undecided one with outcomeAt and adds it to `decided`.
 */
function takeReached(
  heap: LevelHeap<PendingForecast>,
  reached: number,
  tick: Tick,
  decided: PendingForecast[],
): void {
  while (heap.peekKey() <= reached) {
    const forecast = heap.pop();
    if (!forecast || forecast.outcome !== undefined) continue;
    forecast.outcome = outcomeAt(forecast, tick);
    decided.push(forecast);
  }
}

/** Rebuilds `heap` without its decided trades once it holds more than `bound` entries. */
function dropDecided(heap: LevelHeap<PendingForecast>, bound: number): void {
  if (heap.size > bound) heap.retain(isUndecided);
}

function isUndecided(forecast: PendingForecast): boolean {
  return forecast.outcome === undefined;
}

function byOrder(a: PendingForecast, b: PendingForecast): number {
  return a.order - b.order;
}

/** Same triggers as the broker: the bid for a buy, the ask for a sale. */
function outcomeAt(forecast: PendingForecast, tick: Tick): 0 | 1 | undefined {
  if (forecast.side === 'buy') {
    if (tick.bid >= forecast.takeProfit) return 1;
    if (tick.bid <= forecast.stopLoss) return 0;
  } else {
    if (tick.ask <= forecast.takeProfit) return 1;
    if (tick.ask >= forecast.stopLoss) return 0;
  }
  return undefined;
}
