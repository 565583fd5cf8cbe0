import { InstrumentCatalogue } from '../instruments/catalogue';
import { MarketSimulator, type RegimeOptions } from '../market-data/market-simulator';
import type { Cents } from '../money/minor-units';
import { runRobot, type RobotRun } from './run-robot';

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

export interface SimulationResult extends RobotRun {
  readonly options: Required<Omit<SimulationOptions, 'regimes'>>;
}

export const defaultSimulationStart = Date.parse('2024-06-03T00:00:00Z');

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
  const catalogue = new InstrumentCatalogue();
  const market = new MarketSimulator({
    instruments: catalogue.instruments,
    seed: resolved.seed,
    startTime: resolved.startTime,
    tickIntervalMs: resolved.tickIntervalMs,
    ...(options.regimes ? { regimes: options.regimes } : {}),
  });
  const run = await runRobot({
    catalogue,
    feed: market,
    startTime: resolved.startTime,
    endTime: resolved.startTime + resolved.days * 86_400_000,
    accounts: resolved.accounts,
    risk: resolved.risk,
    depositCents: resolved.depositCents,
    now,
  });
  return { ...run, options: resolved };
}
