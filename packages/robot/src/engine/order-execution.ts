import {
  accountCurrency,
  type BrokerAdapter,
  type ExecutionReport,
  type OrderFilledReport,
  type OrderRejectedReport,
  type PositionClosedReport,
} from '../broker/broker-adapter';
import type { EventSink } from '../events/engine-events';
import type { ExecutionStore } from '../execution/execution-store';
import { orderRequestOf, type OrderIntent, type TradeRecord } from '../execution/trade-record';
import type { InstrumentCatalogue } from '../instruments/catalogue';
import type { MarketDataFeed } from '../market-data/market-data-feed';
import type { Tick, Unsubscribe } from '../market-data/tick';
import type { Clock } from '../time/clock';
import type { AccountBook } from './account-book';
import type { EngineControl } from './engine-control';
import type { WorkTracker } from './work-tracker';

export interface OrderExecutionDependencies {
  readonly catalogue: InstrumentCatalogue;
  readonly broker: BrokerAdapter;
  readonly feed: MarketDataFeed;
  readonly store: ExecutionStore;
  readonly events: EventSink;
  readonly clock: Clock;
}

/**
 * The engine's side of the broker: sends persisted intents, takes the broker's execution reports
 * itself and applies each once whatever its delivery count or order, and reconciles after a
 * restart (decision 023).
 */
export class OrderExecution {
  /** Close reports that arrived before their fill (possible with an asynchronous broker). */
  private readonly earlyCloses = new Map<string, PositionClosedReport>();

  constructor(
    private readonly deps: OrderExecutionDependencies,
    private readonly book: AccountBook,
    private readonly control: EngineControl,
    private readonly work: WorkTracker,
  ) {}

  send(intent: OrderIntent): void {
    if (!this.book.isPending(intent)) return; // settled while its intent was being persisted
    if (this.control.state === 'HALTED') {
      // The kill switch came between persisting and sending: the order is never sent.
      this.expire(intent);
      return;
    }
    // A decision holds at the price it was taken on. If the market moved against the order
    // while its intent was being persisted, the order expires unsent: at the new price its
    // take-profit could earn less than the cent the risk gate demanded, or lie behind the entry.
    const quote = this.deps.feed.lastTick(intent.symbol);
    if (quote && movedAgainst(intent, quote)) {
      this.expire(intent);
      return;
    }
    this.deps.events.publish({
      type: 'OrderSubmitted',
      accountId: intent.accountId,
      clientOrderId: intent.clientOrderId,
      symbol: intent.symbol,
      side: intent.side,
      units: intent.units,
      at: intent.decidedAt,
    });
    // Built at send time: the broker gets the seven fields of an order, as plain data.
    this.deps.broker.submitOrder(orderRequestOf(intent));
  }

  /**
   * Subscribes to the broker's reports: each goes from the broker straight to `onReport`, with
   * no layer in between (decision 070, addendum of 2026-11-26). The engine subscribes before it
   * reconciles, so a report that arrives meanwhile is applied too, and unsubscribes on `stop`.
   */
  listen(): Unsubscribe {
    return this.deps.broker.onReport((report) => {
      this.onReport(report);
    });
  }

  /** Applies a broker report once, whatever its delivery count or order. */
  private onReport(report: ExecutionReport): void {
    switch (report.kind) {
      case 'filled':
        this.applyFill(report);
        return;
      case 'rejected':
        this.applyRejection(report);
        return;
      case 'position-closed':
        this.applyClose(report);
        return;
    }
  }

  private applyFill(fill: OrderFilledReport): void {
    const intent = this.book.findPending(fill.accountId, fill.clientOrderId);
    if (!intent) return; // not ours, or already applied
    const runtime = this.book.settleFilled(intent);
    const account = this.deps.broker.accountFigures(intent.accountId);
    const trade: TradeRecord = {
      positionId: fill.positionId,
      clientOrderId: fill.clientOrderId,
      accountId: fill.accountId,
      symbol: fill.symbol,
      category: intent.category,
      side: fill.side,
      units: fill.units,
      openedAt: fill.time,
      entryBid: fill.bid,
      entryAsk: fill.ask,
      entryPrice: fill.price,
      pipSize: this.deps.catalogue.require(fill.symbol).pipSize,
      takeProfit: fill.takeProfit,
      stopLoss: fill.stopLoss,
      probability: intent.probability,
      breakEvenProbability: intent.breakEvenProbability,
      marginCents: fill.marginCents,
      equityAtEntryCents: intent.equityAtEntryCents,
      freeMarginAtEntryCents: intent.freeMarginAtEntryCents,
      // Measured after the fill: the broker's used margin plus this account's other pending orders.
      usedMarginAfterEntryCents:
        (account?.usedMarginCents ?? fill.marginCents) + (runtime?.reservedMarginCents ?? 0),
      closedAt: null,
      closePrice: null,
      closeReason: 'open',
      profitCents: null,
      // The account's currency, as plain data with its amounts (decision 103).
      currency: accountCurrency(this.deps.broker.account(fill.accountId)),
    };
    this.book.addTrade(trade);
    this.work.track(this.deps.store.recordFill(trade));
    this.deps.events.publish({
      type: 'OrderFilled',
      accountId: fill.accountId,
      clientOrderId: fill.clientOrderId,
      positionId: fill.positionId,
      price: fill.price,
      at: fill.time,
    });
    this.deps.events.publish({ type: 'PositionOpened', trade, at: fill.time });
    const early = this.earlyCloses.get(fill.positionId);
    if (early) {
      this.earlyCloses.delete(fill.positionId);
      this.applyClose(early);
    }
  }

  private applyRejection(rejection: OrderRejectedReport): void {
    const intent = this.book.findPending(rejection.accountId, rejection.clientOrderId);
    if (!intent) return;
    this.book.settleUnfilled(intent);
    this.work.track(
      this.deps.store.updateIntentStatus(
        intent.clientOrderId,
        'rejected',
        rejection.reason,
        rejection.brokerCode,
      ),
    );
    this.deps.events.publish({
      type: 'OrderRejected',
      accountId: rejection.accountId,
      clientOrderId: rejection.clientOrderId,
      symbol: intent.symbol,
      category: intent.category,
      side: intent.side,
      units: intent.units,
      decidedAt: intent.decidedAt,
      reason: rejection.reason,
      ...(rejection.brokerCode === undefined ? {} : { brokerCode: rejection.brokerCode }),
      at: rejection.time,
    });
  }

  private applyClose(report: PositionClosedReport): void {
    const trade = this.book.closeTrade(report.positionId);
    if (!trade) {
      if (this.book.findPending(report.accountId, report.clientOrderId)) {
        this.earlyCloses.set(report.positionId, report);
      }
      return;
    }
    const closure = {
      closedAt: report.time,
      closePrice: report.closePrice,
      closeReason: report.reason,
      profitCents: report.profitCents,
    };
    this.work.track(this.deps.store.closeTrade(trade.positionId, closure));
    this.deps.events.publish({
      type: 'PositionClosed',
      trade: { ...trade, ...closure },
      reason: report.reason,
      at: report.time,
    });
  }

  /**
   * Start-up reconciliation (decision 023): every intent still pending is asked about at the
   * broker. Filled ones become trades (and closures, if the broker closed them meanwhile),
   * rejected ones are settled, and ones the broker never saw expire rather than being sent
   * late at a price nobody decided on. Open trades are checked for closes missed while down.
   */
  async reconcile(): Promise<void> {
    const [pending, open] = await Promise.all([
      this.deps.store.pendingIntents(),
      this.deps.store.openTrades(),
    ]);
    for (const trade of open) this.book.restoreTrade(trade);
    for (const intent of pending) this.book.restorePending(intent);
    for (const intent of pending) {
      const result = await this.deps.broker.queryOrder(intent.clientOrderId);
      switch (result.status) {
        case 'unknown':
          this.expire(intent);
          break;
        case 'rejected':
          this.applyRejection(result.rejection);
          break;
        case 'filled':
          this.applyFill(result.fill);
          if (result.closed) this.applyClose(result.closed);
          break;
      }
    }
    for (const trade of open) {
      const result = await this.deps.broker.queryOrder(trade.clientOrderId);
      if (result.status === 'filled' && result.closed) this.applyClose(result.closed);
    }
    await this.work.idle();
  }

  private expire(intent: OrderIntent): void {
    this.book.settleUnfilled(intent);
    this.work.track(this.deps.store.updateIntentStatus(intent.clientOrderId, 'expired'));
    this.deps.events.publish({
      type: 'OrderExpired',
      accountId: intent.accountId,
      clientOrderId: intent.clientOrderId,
      at: this.deps.clock.now(),
    });
  }
}

/** The entry price is now worse than the decision's: a higher ask for a buy, a lower bid for a sale. */
function movedAgainst(intent: OrderIntent, quote: Tick): boolean {
  return intent.side === 'buy' ? quote.ask > intent.decisionAsk : quote.bid < intent.decisionBid;
}
