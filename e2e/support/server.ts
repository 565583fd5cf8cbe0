import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { marketStart } from './market-clock';

const root = path.resolve(import.meta.dirname, '../..');
export const serverEntry = path.join(root, 'apps/server/dist/main.js');

export interface RunningServer {
  url: string;
  dataDir: string;
  /** Sends SIGTERM and waits for the process to exit; resolves its exit code. */
  stop(): Promise<number | null>;
  /** kill -9: no shutdown at all. The data directory is kept. */
  kill(): Promise<void>;
  output(): string;
}

export interface StartOptions {
  /** Reuse this DATA_DIR (a restart); it is then left in place when the server stops. */
  dataDir?: string;
}

/**
 * Starts the real built server (npm run build first) on a free port, with a fresh
 * DATA_DIR, and resolves once it prints its address. Its simulated market starts at
 * `marketStart` (a Wednesday mid-session unless E2E_MARKET_START says otherwise; issue 41),
 * unless the test pins its own MARKET_START.
 */
export async function startServer(
  env: Record<string, string> = {},
  options: StartOptions = {},
): Promise<RunningServer> {
  await fs.access(serverEntry).catch(() => {
    throw new Error(`${serverEntry} is missing: run "npm run build" first`);
  });
  const ownsDataDir = options.dataDir === undefined;
  const dataDir = options.dataDir ?? (await fs.mkdtemp(path.join(os.tmpdir(), 'tradebot-e2e-')));
  const child: ChildProcess = spawn(process.execPath, [serverEntry], {
    cwd: root,
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      PORT: '0',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      DATABASE_URL: '',
      NODE_ENV: 'test',
      MARKET_START: marketStart,
      // The robot on recorded quotes (decision 142) costs a child process and a few seconds of
      // CPU: only the tests that look at it turn it on.
      RECORDED_QUOTES_DIR: 'off',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      // Not left running: a server that never said it listens still holds its data folder.
      child.kill('SIGKILL');
      reject(new Error(`server did not start within 120 s:\n${output}`));
      // A shared machine under load can take a minute to open PGlite and seed it.
    }, 120_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${String(code)} before listening:\n${output}`));
    });
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  return {
    url,
    dataDir,
    output: () => output,
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      const code = await exited;
      if (ownsDataDir) await fs.rm(dataDir, { recursive: true, force: true });
      return code;
    },
    kill: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
}
