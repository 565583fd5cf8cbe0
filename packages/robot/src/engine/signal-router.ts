import type { Category } from '@tradebot/contract';
import type { BrokerAdapter } from '../broker/broker-adapter';
import type { EventSink } from '../events/engine-events';
import type { ExecutionStore } from '../execution/execution-store';
import { decidedIntent, type OrderIntent, type SignalDecision } from '../execution/trade-record';
import type { InstrumentCatalogue } from '../instruments/catalogue';
import type { Instrument } from '../instruments/instrument';
import { isMarketOpen } from '../instruments/trading-hours';
import type { MarketDataFeed } from '../market-data/market-data-feed';
import type { Tick } from '../market-data/tick';
import { CurrencyConverter } from '../money/currency-converter';
import { dollarsToCentsRoundedUp } from '../money/minor-units';
import {
  categoryBit,
  denialReasons,
  precheckAccount,
  sizeOrder,
  type DenialReason,
  type SignalRiskContext,
} from '../risk/risk-gate';
import type { Signal, Strategy } from '../strategy/strategy';
import type { AccountBook, AccountRuntime } from './account-book';
import type { EngineControl } from './engine-control';
import type { OrderExecution } from './order-execution';
import type { WorkTracker } from './work-tracker';

const dayMs = 86_400_000;

export interface SignalRouterDependencies {
  readonly catalogue: InstrumentCatalogue;
  readonly feed: MarketDataFeed;
  readonly broker: BrokerAdapter;
  readonly store: ExecutionStore;
  readonly events: EventSink;
  readonly strategy: Strategy;
  readonly minimumEdge: number;
  readonly publishDenials: boolean;
  readonly fanOutBatch: number;
  /** Ticks older than this (the engine's start) are ignored. */
  readonly startedAt: number;
  /** A real broker's own hours per symbol; our catalogue's when absent. */
  readonly marketOpen?: (symbol: string, time: number) => boolean;
}

/** What every account's evaluation of one tick shares, the risk gate's context included. */
interface TickContext extends SignalRiskContext {
  readonly tick: Tick;
  readonly day: number;
  /** `/symbol/time`, the shared tail of this tick's client order ids. */
  readonly orderIdSuffix: string;
  /** What every order of this tick shares. */
  readonly decision: SignalDecision;
  /** Tallies for the tick's SignalEvaluated event. */
  routed: number;
  ordered: number;
  readonly denials: Record<DenialReason, number>;
}

/**
 * From tick to orders: the strategy's signal fans out to every subscribed account through the
 * risk gate, and the orders found are persisted in group commits and then sent.
 */
export class SignalRouter {
  /** Latest tick time per instrument: an older or repeated tick is ignored. */
  private readonly lastTickTime = new Map<string, number>();
  private readonly latestTick = new Map<string, number>();
  private tickSequence = 0;
  /** Per category, the time of the latest tick that brought a signal (decision 093). */
  private readonly lastSignal = new Map<Category, number>();
  private readonly converter: CurrencyConverter;

  constructor(
    private readonly deps: SignalRouterDependencies,
    private readonly book: AccountBook,
    private readonly control: EngineControl,
    private readonly execution: OrderExecution,
    private readonly work: WorkTracker,
  ) {
    this.converter = new CurrencyConverter(deps.catalogue, (symbol) => {
      const tick = deps.feed.lastTick(symbol);
      return tick ? (tick.bid + tick.ask) / 2 : undefined;
    });
  }

  /** When the strategy last signalled in a category; undefined if it has not since the start. */
  lastSignalTime(category: Category): number | undefined {
    return this.lastSignal.get(category);
  }

  async onTick(tick: Tick): Promise<void> {
    const instrument = this.deps.catalogue.get(tick.symbol);
    if (!instrument) return;
    // Ticks move forward: a repeated or late tick would repeat decisions already taken (and
    // their client order ids), so it is dropped. After a restart, ticks older than the start are.
    const last = this.lastTickTime.get(tick.symbol) ?? this.deps.startedAt;
    if (tick.time < last || (tick.time === last && this.lastTickTime.has(tick.symbol))) return;
    this.lastTickTime.set(tick.symbol, tick.time);
    // The model learns from every tick, whether or not anyone trades the instrument.
    const signal = this.deps.strategy.onTick(tick, instrument);
    if (!signal) return;
    this.lastSignal.set(instrument.category, tick.time);
    if (this.control.state === 'HALTED') return;
    const sequence = ++this.tickSequence;
    this.latestTick.set(instrument.symbol, sequence);
    const context = this.tickContext(tick, instrument, signal);
    // Orders of the first accounts need not wait for the last ones: every `fanOutBatch`
    // accounts, the orders decided so far are persisted and then sent. One write at a time
    // (group commit): while it is in flight, decisions gather for the next one, so a store that
    // answers at once writes every batch, and a slow one (a database round trip) writes a whole
    // wave in two or three.
    let batch: OrderIntent[] = [];
    let writing: Promise<void> | undefined;
    const landed = () => {
      writing = undefined;
    };
    const fanOutBatch = this.deps.fanOutBatch;
    let busy = this.book.busyColumn(instrument.symbol);
    for (const runtime of this.book.subscribers(instrument.category)) {
      const intent = this.evaluate(runtime, context, busy);
      if (intent) batch.push(intent);
      if (++context.routed % fanOutBatch !== 0) continue;
      if (batch.length > 0 && writing === undefined) {
        writing = this.persistThenSend(batch, landed);
        batch = [];
      }
      // A write that has landed sends its orders now, before the fan-out goes on.
      await Promise.resolve();
      // A newer tick of the same instrument supersedes the rest of this fan-out.
      if (this.latestTick.get(instrument.symbol) !== sequence) break;
      // Accounts added meanwhile may have grown the table.
      busy = this.book.busyColumn(instrument.symbol);
    }
    if (writing) await writing;
    if (batch.length > 0) await this.persistThenSend(batch, landed);
    this.deps.events.publish({
      type: 'SignalEvaluated',
      symbol: instrument.symbol,
      category: instrument.category,
      side: signal.side,
      probability: signal.probability,
      breakEvenProbability: signal.geometry.breakEvenProbability,
      routed: context.routed,
      ordered: context.ordered,
      denials: context.denials,
      at: tick.time,
    });
  }

  /** Sends the batch once the store has it; `then` runs as soon as the write lands. */
  private persistThenSend(batch: readonly OrderIntent[], landed: () => void): Promise<void> {
    return this.deps.store.saveIntents(batch).then(() => {
      landed();
      for (const intent of batch) this.execution.send(intent);
    });
  }

  private tickContext(tick: Tick, instrument: Instrument, signal: Signal): TickContext {
    const usdPerUnit = this.converter.usdPerUnit(instrument.quoteCurrency);
    return {
      tick,
      instrument,
      signal,
      minimumEdge: this.deps.minimumEdge,
      marketOpen: this.deps.marketOpen
        ? this.deps.marketOpen(instrument.symbol, tick.time)
        : isMarketOpen(instrument.schedule, tick.time),
      categoryBit: categoryBit(instrument.category),
      orderIdSuffix: `/${instrument.symbol}/${tick.time}`,
      decision: {
        symbol: instrument.symbol,
        category: instrument.category,
        side: signal.side,
        takeProfit: signal.geometry.takeProfit,
        stopLoss: signal.geometry.stopLoss,
        decidedAt: tick.time,
        decisionBid: tick.bid,
        decisionAsk: tick.ask,
        probability: signal.probability,
        breakEvenProbability: signal.geometry.breakEvenProbability,
      },
      routed: 0,
      ordered: 0,
      denials: noDenials(),
      day: Math.floor(tick.time / dayMs),
      ...sizingAt(instrument, signal, usdPerUnit),
    };
  }

  /**
   * The sizing inputs in the account's own currency, when the broker values the quote currency
   * per account (decision 097); the tick's shared USD ones otherwise. Undefined while the broker
   * has no conversion: nothing is sized on a guessed rate.
   */
  private accountSizing(accountId: string, context: TickContext): SizingInputs | undefined {
    const broker = this.deps.broker;
    if (broker.quoteToAccount === undefined) return context;
    const rate = broker.quoteToAccount(accountId, context.instrument.symbol);
    if (rate === undefined || !(rate > 0)) return undefined;
    const own = broker.accountLeverage?.(accountId);
    const leverage =
      own !== undefined && own > 0
        ? Math.min(own, context.instrument.leverage)
        : context.instrument.leverage;
    return {
      instrument: context.instrument,
      ...sizingAt(context.instrument, context.signal, rate, leverage),
    };
  }

  /**
   * The risk gate for one account; an intent, reserved in memory, when the order may go. This
   * runs once per routed account and signal, the engine's hottest path: it reads the account's
   * record, one typed-array cell and the broker's account figures, and allocates only for an
   * order.
   */
  private evaluate(
    runtime: AccountRuntime,
    context: TickContext,
    busy: Uint16Array | undefined,
  ): OrderIntent | undefined {
    const instrumentBusy = busy !== undefined && busy[runtime.slot] !== 0;
    const cheapDenial = precheckAccount(context, this.control.state, runtime, instrumentBusy);
    if (cheapDenial) {
      this.deny(runtime.accountId, context, cheapDenial);
      return undefined;
    }
    const account = this.deps.broker.accountFigures(runtime.accountId);
    if (!account) return undefined;
    const sizing = this.accountSizing(runtime.accountId, context);
    if (!sizing) return undefined;
    if (runtime.dayNumber !== context.day) {
      // The first evaluation of a UTC day sets the daily loss limit's base, durably: a
      // restart later that day finds it again instead of starting a fresh allowance.
      this.book.setDayStart(runtime, context.day, account.equityCents);
      this.work.track(
        this.deps.store.recordDayStart(runtime.accountId, context.day, account.equityCents),
      );
    }
    // The precheck above passed with the same inputs, so only the account-figure half remains.
    const decision = sizeOrder(
      sizing,
      runtime.profile,
      account,
      runtime.reservedMarginCents,
      runtime.dayStartEquityCents,
    );
    if (!decision.allowed) {
      this.deny(runtime.accountId, context, decision.reason);
      return undefined;
    }
    // Deterministic: one decision per account, instrument and tick. It cannot repeat: a pending
    // intent makes the instrument busy for its account (denied above), and `onTick` drops a
    // tick time it has already seen.
    const clientOrderId = runtime.accountId + context.orderIdSuffix;
    const intent = decidedIntent(
      clientOrderId,
      runtime.accountId,
      context.decision,
      decision.units,
      decision.marginCents,
      account.equityCents,
      account.freeMarginCents - runtime.reservedMarginCents,
    );
    this.book.addPending(runtime, intent);
    context.ordered++;
    return intent;
  }

  private deny(accountId: string, context: TickContext, reason: DenialReason): void {
    context.denials[reason]++;
    if (!this.deps.publishDenials) return;
    this.deps.events.publish({
      type: 'OrderDenied',
      accountId,
      symbol: context.instrument.symbol,
      category: context.instrument.category,
      reason,
      at: context.tick.time,
    });
  }
}

type SizingInputs = Pick<
  SignalRiskContext,
  'instrument' | 'marginFor' | 'marginPerUnitCents' | 'profitPerUnitCents'
>;

/**
 * Margin and profit per unit in hundredths of the account's currency, `accountPerQuote` being
 * one unit of the instrument's quote currency in that currency, at `leverage` (the catalogue's
 * unless the account's own is lower).
 */
function sizingAt(
  instrument: Instrument,
  signal: Signal,
  accountPerQuote: number,
  leverage = instrument.leverage,
): Omit<SizingInputs, 'instrument'> {
  const entryPrice = signal.geometry.entryPrice;
  return {
    marginPerUnitCents: (entryPrice * accountPerQuote * 100) / leverage,
    profitPerUnitCents: signal.geometry.gain * accountPerQuote * 100,
    marginFor: (units: number) =>
      dollarsToCentsRoundedUp((units * entryPrice * accountPerQuote) / leverage),
  };
}

/** A fresh tally with every reason at zero (a fixed shape, cheap to increment). */
function noDenials(): Record<DenialReason, number> {
  const tally = {} as Record<DenialReason, number>;
  for (const reason of denialReasons) tally[reason] = 0;
  return tally;
}
