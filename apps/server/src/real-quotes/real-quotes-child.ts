import { performance } from 'node:perf_hooks';
import { backtestFigures, runBacktest } from '@tradebot/robot/backtest';
import { cadenceOf, type RealQuotesChildMessage, type RealQuotesJob } from './real-quotes-job';

/**
 * The child process that runs the robot on recorded quotes for the track record (decision
 * 142): started at low CPU priority by `real-quotes-runner.ts` with the job as its one argument,
 * it reports progress and its figures over the IPC channel and exits. Its memory (the quotes,
 * 24 bytes each) goes with it.
 */
function send(message: RealQuotesChildMessage): Promise<void> {
  return new Promise((resolve) => {
    if (!process.send) {
      resolve();
      return;
    }
    process.send(message, undefined, {}, () => {
      resolve();
    });
  });
}

async function main(): Promise<void> {
  // The server gone (its channel closed), the figures have no one to go to.
  process.once('disconnect', () => {
    process.exit(1);
  });
  const job = JSON.parse(process.argv[2] ?? '{}') as RealQuotesJob;
  const started = performance.now();
  const startedCpu = process.cpuUsage();
  let lastSent = 0;
  const result = await runBacktest({
    quotes: job.folder,
    risk: job.risk,
    cadence: cadenceOf[job.cadence],
    onProgress: ({ done, total }) => {
      const now = performance.now();
      if (now - lastSent < 1000) return;
      lastSent = now;
      void send({ type: 'progress', done, total });
    },
  });
  const cpu = process.cpuUsage(startedCpu);
  await send({
    type: 'done',
    figures: backtestFigures(result),
    cpuMs: Math.round((cpu.user + cpu.system) / 1000),
    wallMs: Math.round(performance.now() - started),
  });
}

main()
  .catch(async (error: unknown) => {
    await send({ type: 'failed', message: error instanceof Error ? error.message : String(error) });
    process.exitCode = 1;
  })
  .finally(() => {
    process.removeAllListeners('disconnect');
    if (process.connected) process.disconnect();
  });
