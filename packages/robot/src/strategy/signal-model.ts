import type { Category } from '@tradebot/contract';
import type { Side } from '../broker/broker-adapter';
import type { Instrument } from '../instruments/instrument';
import type { Tick } from '../market-data/tick';
import { tradeGeometry, type TradeGeometry } from '../risk/trade-geometry';
import { ForecastMetrics, type ForecastReport } from './forecast-metrics';
import { OnlineLogisticRegression } from './logistic-regression';
import { IsotonicCalibrator, type IsotonicCalibratorOptions } from './isotonic-calibrator';
import type { Signal, Strategy } from './strategy';

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

interface PendingForecast {
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
  pending: PendingForecast[];
  /** Every virtual trade in the order it was made, until the calibrator has learned it. */
  toCalibrate: PendingForecast[];
  outcomes: number;
  positives: number;
}

function clip(x: number, limit: number): number {
  return x > limit ? limit : x < -limit ? -limit : x;
}

export class SignalModel implements Strategy {
  private readonly models = new Map<string, InstrumentModel>();
  private readonly regressions = new Map<
    Category,
    { regression: OnlineLogisticRegression; calibrator: IsotonicCalibrator }
  >();
  private readonly metricsByCategory = new Map<Category, ForecastMetrics>();
  private readonly options: SignalModelOptions;

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
    // The market's figures (features, outcomes) never depend on costs; the break-even does.
    const cost = this.options.costs ? this.options.costs(instrument, tick) : 0;
    for (const side of ['buy', 'sale'] as const) {
      const geometry = tradeGeometry(side, tick, instrument);
      const costed =
        cost === undefined || cost === 0 ? geometry : tradeGeometry(side, tick, instrument, cost);
      const features = this.features(model, side, geometry, logMid);
      const rawProbability = model.regression.predict(features);
      const probability = model.calibrator.calibrate(rawProbability);
      const edge = probability - costed.breakEvenProbability;
      const confident = scored && cost !== undefined && edge >= this.options.minimumEdge;
      if (model.pending.length < this.options.maxPendingPerInstrument) {
        const forecast: PendingForecast = {
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
        model.pending.push(forecast);
        model.toCalibrate.push(forecast);
      }
      if (confident && edge > bestEdge) {
        bestEdge = edge;
        best = { symbol: tick.symbol, side, probability, geometry: costed, time: tick.time };
      }
    }
    return best;
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
      model.pending = [];
      model.toCalibrate = [];
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
        pending: [],
        toCalibrate: [],
        outcomes: 0,
        positives: 0,
      };
      this.models.set(instrument.symbol, model);
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
      emaSpans.forEach((span, i) => {
        const a = 2 / (span + 1);
        model.emas[i] = (1 - a) * (model.emas[i] ?? logMid) + a * logMid;
      });
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
    const momentum = (i: number) =>
      clip((logMid - (model.emas[i] ?? logMid)) / (volatility * Math.sqrt(emaSpans[i] ?? 1)), 4);
    const distanceInVolatility = clip(geometry.distance / mid / volatility, 10) / 5;
    const spreadInVolatility =
      clip((geometry.gain > 0 ? geometry.distance - geometry.gain : 0) / mid / volatility, 10) / 5;
    const x = new Float64Array(featureCount);
    x[0] = 1;
    x[1] = sign * momentum(0);
    x[2] = sign * momentum(1);
    x[3] = sign * momentum(2);
    x[4] = sign * momentum(1) * distanceInVolatility;
    x[5] = sign * momentum(2) * distanceInVolatility;
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
    if (model.pending.length === 0) return;
    let undecided = 0;
    for (const forecast of model.pending) {
      const outcome = outcomeAt(forecast, tick);
      if (outcome === undefined) {
        model.pending[undecided++] = forecast;
        continue;
      }
      forecast.outcome = outcome;
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
    if (undecided === model.pending.length) return;
    model.pending.length = undecided;
    let learned = 0;
    for (const forecast of model.toCalibrate) {
      if (forecast.outcome === undefined) break;
      model.calibrator.learn(forecast.rawProbability, forecast.outcome);
      learned++;
    }
    if (learned > 0) model.toCalibrate.splice(0, learned);
    // A virtual trade the market leaves undecided for very long is not waited for forever.
    if (model.toCalibrate.length > maxAwaitingCalibration) model.toCalibrate.shift();
  }
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
