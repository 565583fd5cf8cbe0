import { Worker } from 'node:worker_threads';
import type { QuoteSeries, TickBacktestSummary } from '@tradebot/robot';
import { workerEntry } from '../../worker-entry';

/** What the replay's thread is given (decision 144's replay, moved off the event loop). */
export interface BrokerReplayJob {
  readonly series: readonly QuoteSeries[];
  readonly risk: number;
  /** Quotes between progress messages. */
  readonly progressEvery: number;
}

export type BrokerReplayMessage =
  | { readonly type: 'progress'; readonly done: number; readonly total: number }
  | { readonly type: 'done'; readonly summary: TickBacktestSummary | undefined }
  | { readonly type: 'failed'; readonly message: string };

function reasonOf(signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new Error('the replay was stopped');
}

/**
 * The robot on a broker's quote series (`backtestQuoteSeries`, every quote), in a worker thread
 * of its own: the replay is seconds to minutes of CPU, which on the server's main thread would
 * hold the event loop for as long (it only gave it a turn every few hundred quotes). The series'
 * typed arrays are moved to the thread, not copied: they are unusable here afterwards. An abort
 * ends the thread at once and rejects with the signal's reason. `entry` overrides the worker's
 * module (tests).
 */
export function replayInWorker(
  series: readonly QuoteSeries[],
  risk: number,
  onProgress: (share: number) => void,
  signal: AbortSignal,
  options: { progressEvery?: number; entry?: URL } = {},
): Promise<TickBacktestSummary | undefined> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(reasonOf(signal));
      return;
    }
    const { url, source } = workerEntry(import.meta.url, 'broker-backtest-worker', options.entry);
    const job: BrokerReplayJob & { entry?: string } = {
      series,
      risk,
      progressEvery: options.progressEvery ?? 4096,
      ...(source ? { entry: source } : {}),
    };
    // Each array's buffer once (a series' arrays may share one).
    const buffers = new Set<ArrayBuffer>();
    for (const s of series) {
      for (const array of [s.times, s.bids, s.asks]) {
        if (array.buffer instanceof ArrayBuffer) buffers.add(array.buffer);
      }
    }
    const worker = new Worker(url, { workerData: job, transferList: [...buffers] });
    let settled = false;
    const finish = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      signal.removeEventListener('abort', stop);
      outcome();
    };
    const stop = () => {
      finish(() => {
        reject(reasonOf(signal));
      });
      void worker.terminate();
    };
    signal.addEventListener('abort', stop, { once: true });
    worker.on('message', (message: BrokerReplayMessage) => {
      if (message.type === 'progress') {
        if (!settled && message.total > 0) onProgress(Math.min(1, message.done / message.total));
      } else if (message.type === 'done') {
        finish(() => {
          resolve(message.summary);
        });
      } else {
        finish(() => {
          reject(new Error(message.message));
        });
      }
    });
    worker.on('error', (error) => {
      finish(() => {
        reject(error);
      });
    });
    worker.on('exit', (code) => {
      finish(() => {
        reject(
          new Error(`the broker backtest's thread exited with code ${String(code)} before its end`),
        );
      });
    });
  });
}
