import type { BrokerAdapter, ExecutionReport } from '../broker/broker-adapter';
import { PaperBroker } from '../broker/paper/paper-broker';
import { RecordingEventSink } from '../events/engine-events';
import { InMemoryExecutionStore, type ExecutionStoreSnapshot } from '../execution/execution-store';
import { InstrumentCatalogue } from '../instruments/catalogue';
import { TickDispatcher } from '../market-data/market-data-feed';
import type { Tick } from '../market-data/tick';
import {
  InMemoryAccountSettingsSource,
  defaultRobotSettings,
  type RobotSettings,
} from '../settings/robot-settings';
import { FixedSignalStrategy } from '../strategy/fixed-signal-strategy';
import type { Strategy } from '../strategy/strategy';
import { ManualClock } from '../time/clock';
import { TradingEngine } from './trading-engine';

/** Hand-written wiring for engine tests: a tick dispatcher, the paper broker and in-memory adapters. */
export const catalogue = new InstrumentCatalogue();
export const tuesday = Date.parse('2024-06-11T14:00:00Z'); // FX, US shares, indices all open

export function robotOn(
  patch: Partial<RobotSettings['categories_enabled']> = { all: true },
  risk = 1,
): RobotSettings {
  return {
    ...defaultRobotSettings,
    bot_on: true,
    risk,
    categories_enabled: { ...defaultRobotSettings.categories_enabled, ...patch },
  };
}

export interface RigOptions {
  readonly accounts: Readonly<Record<string, RobotSettings>>;
  readonly strategy?: Strategy;
  readonly broker?: PaperBroker;
  readonly storeSnapshot?: ExecutionStoreSnapshot;
  /** Wraps the broker the engine sees (to lose, repeat or delay reports). */
  readonly wrapBroker?: (broker: PaperBroker, store: InMemoryExecutionStore) => BrokerAdapter;
  readonly depositCents?: number;
  /** One OrderDenied per account and signal; on by default here, as tests assert them. */
  readonly publishDenials?: boolean;
}

export async function createRig(options: RigOptions) {
  const feed = new TickDispatcher();
  const broker = options.broker ?? new PaperBroker(catalogue);
  if (!options.broker) {
    for (const accountId of Object.keys(options.accounts)) {
      void broker.openAccount(accountId, options.depositCents ?? 1_000_000);
    }
  }
  feed.subscribe((tick) => {
    broker.onTick(tick);
  });
  const store = new InMemoryExecutionStore(options.storeSnapshot);
  const events = new RecordingEventSink();
  const clock = new ManualClock(tuesday);
  const settings = new InMemoryAccountSettingsSource(
    Object.entries(options.accounts).map(([accountId, s]) => ({ accountId, settings: s })),
  );
  const engine = await TradingEngine.start({
    catalogue,
    feed,
    broker: options.wrapBroker ? options.wrapBroker(broker, store) : broker,
    store,
    settings,
    events,
    clock,
    strategy: options.strategy ?? new FixedSignalStrategy(),
    publishDenials: options.publishDenials ?? true,
  });
  const tick = async (symbol: string, bid: number, ask: number, time = clock.now()) => {
    if (time > clock.now()) clock.set(time);
    const t: Tick = { symbol, bid, ask, time };
    feed.publish(t);
    await engine.idle();
  };
  return { feed, broker, store, events, clock, engine, tick };
}

/** A broker view that delivers every report twice, as an at-least-once transport may. */
export function deliveringTwice(broker: PaperBroker): BrokerAdapter {
  return {
    submitOrder: (order) => {
      broker.submitOrder(order);
    },
    closePosition: (accountId, positionId, reason) => {
      broker.closePosition(accountId, positionId, reason);
    },
    onReport: (listener) =>
      broker.onReport((report: ExecutionReport) => {
        listener(report);
        listener(report);
      }),
    account: (id) => broker.account(id),
    accountFigures: (id) => broker.accountFigures(id),
    openPositions: (id) => broker.openPositions(id),
    queryOrder: (id) => broker.queryOrder(id),
  };
}
