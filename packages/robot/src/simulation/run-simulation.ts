import type { Category } from '@tradebot/contract';
import type { AccountState } from '../broker/broker-adapter';
import { PaperBroker } from '../broker/paper/paper-broker';
import { startPaperTrading } from '../engine/paper-trading-system';
import { CountingEventSink } from '../events/engine-events';
import { InMemoryExecutionStore } from '../execution/execution-store';
import type { TradeRecord } from '../execution/trade-record';
import { InstrumentCatalogue } from '../instruments/catalogue';
import type { RegimeOptions } from '../market-data/market-simulator';
import type { Cents } from '../money/minor-units';
import { InMemoryAccountSettingsSource, type RobotSettings } from '../settings/robot-settings';
import type { ForecastReport } from '../strategy/forecast-metrics';
import { ManualClock } from '../time/clock';

export interface SimulationOptions {
  readonly accounts: number;
  readonly days: number;
  readonly seed: number;
  readonly risk: number;
  /** Simulated start, epoch ms; a Monday 00:00 UTC by default. */
  readonly startTime?: number;
  readonly tickIntervalMs?: number;
  readonly depositCents?: Cents;
  readonly regimes?: RegimeOptions;
}

export interface OpenPositionMark {
  readonly positionId: string;
  readonly unrealisedProfitCents: Cents;
}

export interface SimulationResult {
  readonly options: Required<Omit<SimulationOptions, 'regimes'>>;
  readonly trades: readonly TradeRecord[];
  /** Unrealised profit of positions still open at the end, marked at the last tick. */
  readonly openMarks: ReadonlyMap<string, Cents>;
  readonly accounts: readonly AccountState[];
  readonly model: {
    overall: ForecastReport;
    byCategory: Partial<Record<Category, ForecastReport>>;
  };
  readonly ticks: number;
  readonly wallClockMs: number;
}

export const defaultSimulationStart = Date.parse('2024-06-03T00:00:00Z');

/** Every account trades every category, so a run shows the engine across all markets. */
export function simulationSettings(risk: number): RobotSettings {
  return {
    bot_on: true,
    risk,
    categories_enabled: {
      forex: true,
      cripto: true,
      stocks: true,
      index: true,
      commodities: true,
      all: true,
    },
  };
}

/**
 * The whole engine on simulated time: simulated market -> paper broker -> engine, with the
 * clock moved tick interval by tick interval, far faster than real time.
 * `now` is only used to report how long the run took.
 */
export async function runSimulation(
  options: SimulationOptions,
  now: () => number = () => 0,
): Promise<SimulationResult> {
  const resolved = {
    accounts: options.accounts,
    days: options.days,
    seed: options.seed,
    risk: options.risk,
    startTime: options.startTime ?? defaultSimulationStart,
    tickIntervalMs: options.tickIntervalMs ?? 60_000,
    depositCents: options.depositCents ?? 1_000_000,
  };
  const started = now();
  const catalogue = new InstrumentCatalogue();
  const broker = new PaperBroker(catalogue);
  const settings = new InMemoryAccountSettingsSource();
  for (const accountId of accountIds(resolved.accounts)) {
    void broker.openAccount(accountId, resolved.depositCents);
    settings.set(accountId, simulationSettings(resolved.risk));
  }
  const clock = new ManualClock(resolved.startTime);
  const store = new InMemoryExecutionStore();
  const { market, engine, strategy } = await startPaperTrading({
    seed: resolved.seed,
    clock,
    store,
    settings,
    events: new CountingEventSink(),
    tickIntervalMs: resolved.tickIntervalMs,
    calibrationErrors: true,
    catalogue,
    broker,
    publishDenials: false,
    ...(options.regimes ? { regimes: options.regimes } : {}),
  });
  let ticks = 0;
  market.subscribe(() => {
    ticks++;
  });

  const end = resolved.startTime + resolved.days * 86_400_000;
  for (let t = resolved.startTime; t < end; t += resolved.tickIntervalMs) {
    clock.set(t);
    market.advanceTo(t);
    await engine.idle();
  }
  engine.stop();

  const openMarks = new Map<string, Cents>();
  const ids = accountIds(resolved.accounts);
  for (const accountId of ids) {
    for (const p of broker.openPositions(accountId))
      openMarks.set(p.positionId, p.unrealisedProfitCents);
  }
  return {
    options: resolved,
    trades: await store.trades(),
    openMarks,
    accounts: ids.flatMap((id) => broker.account(id) ?? []),
    model: strategy.report(),
    ticks,
    wallClockMs: now() - started,
  };
}

function accountIds(count: number): string[] {
  return Array.from({ length: count }, (_, i) => `acct-${String(i + 1).padStart(4, '0')}`);
}
