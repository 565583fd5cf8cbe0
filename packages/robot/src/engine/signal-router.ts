import type { Category } from '@tradebot/contract';
import type { EventSink } from '../events/engine-events';
import type { ExecutionStore } from '../execution/execution-store';
import { decidedIntent, type OrderIntent, type SignalDecision } from '../execution/trade-record';
import type { InstrumentCatalogue } from '../instruments/catalogue';
import type { Instrument } from '../instruments/instrument';
import { isMarketOpen } from '../instruments/trading-hours';
import type { MarketDataFeed } from '../market-data/market-data-feed';
import type { Tick } from '../market-data/tick';
import { CurrencyConverter } from '../money/currency-converter';
import {
  categoryBit,
  denialReasons,
  sizingInputs,
  type DenialReason,
  type RiskGate,
  type SignalRiskContext,
} from '../risk/risk-gate';
import type { Signal, Strategy } from '../strategy/strategy';
import type { AccountBook, AccountRuntime } from './account-book';
import type { EngineControl } from './engine-control';
import type { OrderExecution } from './order-execution';

const dayMs = 86_400_000;

export interface SignalRouterDependencies {
  readonly catalogue: InstrumentCatalogue;
  readonly feed: MarketDataFeed;
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
  /** Per category, the latest tick's signal, undefined when it brought none (decision 147). */
  private readonly latestSignal = new Map<Category, Signal | undefined>();
  /** Per category, the time of the latest tick the strategy evaluated (decision 147). */
  private readonly lastEvaluated = new Map<Category, number>();
  private readonly converter: CurrencyConverter;

  constructor(
    private readonly deps: SignalRouterDependencies,
    private readonly book: AccountBook,
    private readonly gate: RiskGate<AccountRuntime>,
    private readonly control: EngineControl,
    private readonly execution: OrderExecution,
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

  /** When the strategy last evaluated a tick of the category; undefined: not since the start. */
  lastEvaluation(category: Category): number | undefined {
    return this.lastEvaluated.get(category);
  }

  /** The signal of the category's latest evaluated tick, if it brought one. */
  latestSignalOf(category: Category): Signal | undefined {
    return this.latestSignal.get(category);
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
    this.lastEvaluated.set(instrument.category, tick.time);
    this.latestSignal.set(instrument.category, signal);
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
      ...sizingInputs(instrument, signal, usdPerUnit),
    };
  }

  /**
   * The risk gate for one account; an intent, reserved in memory, when the order may go. This
   * runs once per routed account and signal, the engine's hottest path: it reads the account's
   * record and one typed-array cell, and only an account that passes the gate's cheap checks
   * costs a read of the broker's figures (one small snapshot) and, for an order, the intent.
   */
  private evaluate(
    runtime: AccountRuntime,
    context: TickContext,
    busy: Uint16Array | undefined,
  ): OrderIntent | undefined {
    const instrumentBusy = busy !== undefined && busy[runtime.slot] !== 0;
    const decision = this.gate.evaluate(context, runtime, instrumentBusy);
    if (decision === undefined) return undefined;
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
      decision.equityCents,
      decision.freeMarginCents,
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

/** A fresh tally with every reason at zero (a fixed shape, cheap to increment). */
function noDenials(): Record<DenialReason, number> {
  const tally = {} as Record<DenialReason, number>;
  for (const reason of denialReasons) tally[reason] = 0;
  return tally;
}
