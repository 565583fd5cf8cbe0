import type { Category } from '@tradebot/contract';
import type { BrokerRejectReason, CloseReason, Side } from '../broker/broker-adapter';
import type { TradeRecord } from '../execution/trade-record';
import type { DenialReason } from '../risk/risk-gate';

/** Events are facts, named in the past tense (STYLE.md, principle 5). Times are epoch ms. */
export type EngineEvent =
  | {
      readonly type: 'OrderSubmitted';
      readonly accountId: string;
      readonly clientOrderId: string;
      readonly symbol: string;
      readonly side: Side;
      readonly units: number;
      readonly at: number;
    }
  | {
      readonly type: 'OrderFilled';
      readonly accountId: string;
      readonly clientOrderId: string;
      readonly positionId: string;
      readonly price: number;
      readonly at: number;
    }
  | {
      readonly type: 'OrderRejected';
      readonly accountId: string;
      readonly clientOrderId: string;
      /** The refused order as it was decided: what the dashboard lists (decision 101). */
      readonly symbol: string;
      readonly category: Category;
      readonly side: Side;
      readonly units: number;
      /** Time of the tick the order was decided on. */
      readonly decidedAt: number;
      readonly reason: BrokerRejectReason;
      /** A real broker's own error code, when it gave one. */
      readonly brokerCode?: string;
      readonly at: number;
    }
  | {
      readonly type: 'OrderExpired';
      readonly accountId: string;
      readonly clientOrderId: string;
      readonly at: number;
    }
  | {
      readonly type: 'OrderDenied';
      readonly accountId: string;
      readonly symbol: string;
      readonly category: Category;
      readonly reason: DenialReason;
      readonly at: number;
    }
  | {
      /**
       * One per signal that reached the risk gate: how many subscribed accounts it was evaluated
       * for, how many orders it gave and why the others were denied.
       */
      readonly type: 'SignalEvaluated';
      readonly symbol: string;
      readonly category: Category;
      readonly side: Side;
      readonly probability: number;
      readonly breakEvenProbability: number;
      readonly routed: number;
      readonly ordered: number;
      readonly denials: Readonly<Record<DenialReason, number>>;
      readonly at: number;
    }
  | { readonly type: 'PositionOpened'; readonly trade: TradeRecord; readonly at: number }
  | {
      readonly type: 'PositionClosed';
      readonly trade: TradeRecord;
      readonly reason: CloseReason;
      readonly at: number;
    }
  | { readonly type: 'TradingHalted'; readonly reason: string; readonly at: number }
  | { readonly type: 'TradingResumed'; readonly at: number }
  | { readonly type: 'SettingsApplied'; readonly accountId: string; readonly at: number };

export type EngineEventType = EngineEvent['type'];
export type EngineEventOf<T extends EngineEventType> = Extract<EngineEvent, { type: T }>;

/** Port: where the engine's events go (in-process bus, Redis, the realtime gateway). */
export interface EventSink {
  publish(event: EngineEvent): void;
}

/** In-process typed bus: the embedded server subscribes the realtime gateway to it. */
export class EventBus implements EventSink {
  private readonly handlers = new Map<EngineEventType, ((event: EngineEvent) => void)[]>();

  publish(event: EngineEvent): void {
    const handlers = this.handlers.get(event.type);
    if (handlers) for (const handler of handlers) handler(event);
  }

  on<T extends EngineEventType>(type: T, handler: (event: EngineEventOf<T>) => void): () => void {
    const wrapped = handler as (event: EngineEvent) => void;
    this.handlers.set(type, [...(this.handlers.get(type) ?? []), wrapped]);
    return () => {
      this.handlers.set(
        type,
        (this.handlers.get(type) ?? []).filter((h) => h !== wrapped),
      );
    };
  }
}

/** Keeps every event, for tests and the simulation. */
export class RecordingEventSink implements EventSink {
  readonly events: EngineEvent[] = [];

  publish(event: EngineEvent): void {
    this.events.push(event);
  }

  ofType<T extends EngineEventType>(type: T): EngineEventOf<T>[] {
    return this.events.filter((e): e is EngineEventOf<T> => e.type === type);
  }
}

/** Counts events by type without keeping them (simulations of many accounts, benchmarks). */
export class CountingEventSink implements EventSink {
  readonly counts = new Map<EngineEventType, number>();

  publish(event: EngineEvent): void {
    this.counts.set(event.type, (this.counts.get(event.type) ?? 0) + 1);
  }
}
