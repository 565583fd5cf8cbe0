import type { RealQuotesCadence } from '@tradebot/contract';
import type { BacktestFigures, Cadence } from '@tradebot/robot';

/** What the child process is asked to compute (decision 142). */
export interface RealQuotesJob {
  readonly folder: string;
  readonly cadence: RealQuotesCadence;
  readonly risk: number;
  /** The child's nice value (0-19; 19 the lowest priority). */
  readonly nice: number;
}

/** What the child process tells its parent, over the IPC channel. */
export type RealQuotesChildMessage =
  | { readonly type: 'progress'; readonly done: number; readonly total: number }
  | {
      readonly type: 'done';
      readonly figures: BacktestFigures;
      /** The child's own CPU time (user + system) and wall clock, ms. */
      readonly cpuMs: number;
      readonly wallMs: number;
    }
  | { readonly type: 'failed'; readonly message: string };

export const cadenceOf: Readonly<Record<RealQuotesCadence, Cadence>> = {
  quote: 'quote',
  '1s': 1000,
  '1min': 60_000,
};
