import os from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { backtestQuoteSeries } from '@tradebot/robot';
import type { BrokerReplayJob, BrokerReplayMessage } from './broker-backtest-replay';

/**
 * The broker backtest's replay thread (broker-backtest-replay.ts, decision 144): runs the robot
 * on the series it was given, reports progress, sends the summary and ends. Its thread asks for
 * a lower CPU priority (Linux keeps one per thread), so the server's own threads come first.
 */
if (!parentPort) throw new Error('broker-backtest-worker runs as a worker thread');
const port = parentPort;
const job = workerData as BrokerReplayJob;
const send = (message: BrokerReplayMessage) => {
  port.postMessage(message);
};
try {
  os.setPriority(10);
} catch {
  // A courtesy to the server's threads: the figures are the same without it.
}
try {
  const summary = await backtestQuoteSeries(job.series, {
    risk: job.risk,
    cadence: 'quote',
    progressEvery: job.progressEvery,
    onProgress: ({ done, total }) => {
      send({ type: 'progress', done, total });
    },
  });
  send({ type: 'done', summary });
} catch (error) {
  send({ type: 'failed', message: error instanceof Error ? error.message : String(error) });
}
