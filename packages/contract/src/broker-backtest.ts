import { z } from './zod';
import { dataEnvelope } from './envelope';

/**
 * The robot on the linked cTrader account's own recorded prices (issue 36, decision 144): the
 * broker's ticks of the last `brokerBacktestDays` days, downloaded with the Open API's tick-data
 * request and replayed through the same backtest as `npm run backtest`, in the background.
 */
export const brokerBacktestDays = 7;

export const brokerBacktestStates = ['none', 'running', 'done', 'failed'] as const;
export type BrokerBacktestState = (typeof brokerBacktestStates)[number];

/**
 * Why a run ended without a result: the broker recorded no quotes of the account's instruments in
 * those days, its connection failed, it refused the grant, it kept refusing requests for their
 * frequency, the process running it stopped, or anything else.
 */
export const brokerBacktestFailures = [
  'NO_TICKS',
  'BROKER_UNAVAILABLE',
  'ACCESS_REFUSED',
  'RATE_LIMITED',
  'INTERRUPTED',
  'FAILED',
] as const;
export type BrokerBacktestFailure = (typeof brokerBacktestFailures)[number];

export const brokerBacktestInstrumentSchema = z.object({
  symbol: z.string(),
  quotes: z.number().int().nonnegative(),
  /** The first and last quote the broker gave (ISO-8601 UTC). */
  first: z.string(),
  last: z.string(),
});

export const brokerBacktestResultSchema = z.object({
  /** The window asked for (ISO-8601 UTC): the `days` days before the run. */
  from: z.string(),
  to: z.string(),
  instruments: z.array(brokerBacktestInstrumentSchema),
  /** Instruments of the account left out (no USD rate recorded to value their profits). */
  leftOut: z.array(z.string()),
  operations: z.number().int().nonnegative(),
  /** Realised profit plus the open positions marked at the last quote, in USD. */
  resultUsd: z.number(),
  /** The simulated account the backtest traded, in USD (the same $10,000 as our backtests). */
  depositUsd: z.number(),
  /** Share of market-open minutes the robot said it had no edge, 0 to 1. */
  noEdgeShare: z.number().min(0).max(1),
  marketOpenMinutes: z.number().int().nonnegative(),
});
export type BrokerBacktestResult = z.infer<typeof brokerBacktestResultSchema>;

export const brokerBacktestSchema = z.object({
  state: z.enum(brokerBacktestStates),
  /** Percent done while running (download, then replay); 100 when done. */
  progress: z.number().int().min(0).max(100),
  days: z.number().int().positive(),
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
  result: brokerBacktestResultSchema.nullable(),
  failure: z.enum(brokerBacktestFailures).nullable(),
});
export type BrokerBacktest = z.infer<typeof brokerBacktestSchema>;

export const brokerBacktestResponseSchema = dataEnvelope(brokerBacktestSchema);
export type BrokerBacktestResponse = z.infer<typeof brokerBacktestResponseSchema>;
