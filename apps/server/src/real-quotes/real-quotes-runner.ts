import { spawn, type ChildProcess, type StdioOptions } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { BacktestFigures } from '@tradebot/robot';
import { workerEntry } from '../worker-entry';
import type { RealQuotesChildMessage, RealQuotesJob } from './real-quotes-job';

export interface RealQuotesRun {
  readonly figures: BacktestFigures;
  readonly cpuMs: number;
  readonly wallMs: number;
}

/** Runs one job; `onProgress` gets the share of quotes replayed; the signal ends the run. */
export type RealQuotesRunner = (
  job: RealQuotesJob,
  onProgress: (share: number) => void,
  signal: AbortSignal,
) => Promise<RealQuotesRun>;

/**
 * The child's entry: the built `dist/real-quotes-child.js` beside the bundle, or from source
 * (tests, `npm run dev`) the .ts file, run by node with tsx's loader.
 */
export function realQuotesChildCommand(): { script: string; execArgv: string[] } {
  const { url, source } = workerEntry(import.meta.url, 'real-quotes-child');
  if (!source) return { script: fileURLToPath(url), execArgv: [] };
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
  return { script: fileURLToPath(source), execArgv: ['--import', tsx] };
}

const nice = '/usr/bin/nice';

/**
 * Starts the child at a low CPU priority (the job's nice value, 19 by default): through `nice`
 * where there is one, so that every thread node starts inherits it (Linux keeps a nice value
 * per thread); elsewhere the child's main thread is lowered once started.
 */
function startChild(job: RealQuotesJob): ChildProcess {
  const { script, execArgv } = realQuotesChildCommand();
  const args = [...execArgv, script, JSON.stringify(job)];
  const stdio: StdioOptions = ['ignore', 'ignore', 'pipe', 'ipc'];
  if (process.platform !== 'win32' && existsSync(nice)) {
    return spawn(nice, ['-n', String(job.nice), process.execPath, ...args], { stdio });
  }
  const child = spawn(process.execPath, args, { stdio });
  if (child.pid !== undefined) {
    try {
      os.setPriority(child.pid, job.nice);
    } catch {
      // Priority is a courtesy to the API's answers: without it the figures are the same.
    }
  }
  return child;
}

/** The runner the server uses: one child process per job (decision 142). */
export const childProcessRunner: RealQuotesRunner = (job, onProgress, signal) =>
  new Promise<RealQuotesRun>((resolve, reject) => {
    if (signal.aborted) {
      reject(new Error('stopped before it started'));
      return;
    }
    const child = startChild(job);
    let settled: RealQuotesRun | Error | undefined;
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      // The last lines are enough to say why a child died.
      stderr = (stderr + chunk.toString()).slice(-2000);
    });
    const stop = () => {
      settled ??= new Error('stopped');
      child.kill('SIGTERM');
    };
    signal.addEventListener('abort', stop, { once: true });
    child.on('message', (message: RealQuotesChildMessage) => {
      if (message.type === 'progress') {
        if (message.total > 0) onProgress(Math.min(1, message.done / message.total));
      } else if (message.type === 'done') {
        settled ??= { figures: message.figures, cpuMs: message.cpuMs, wallMs: message.wallMs };
      } else {
        settled ??= new Error(message.message);
      }
    });
    child.on('error', (error) => {
      settled ??= error;
    });
    child.on('close', (code, exitSignal) => {
      signal.removeEventListener('abort', stop);
      if (settled === undefined) {
        reject(
          new Error(
            `the backtest's process ended (${exitSignal ?? `code ${String(code)}`}) without its figures${stderr ? `: ${stderr.trim()}` : ''}`,
          ),
        );
      } else if (settled instanceof Error) reject(settled);
      else resolve(settled);
    });
  });
