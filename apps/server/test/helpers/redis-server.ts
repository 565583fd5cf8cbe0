import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import net from 'node:net';

/**
 * Tests that stop a Redis need a private redis-server (.ci/run starts the shared Redis with the
 * same binary). Without it they fail with this message rather than skip.
 */
function requireRedisServer(): void {
  if (spawnSync('redis-server', ['--version']).status !== 0) {
    throw new Error('redis-server is not installed: these tests start a Redis of their own');
  }
}

/** A port nothing listens on once this resolves. */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export interface OwnRedis {
  url: string;
  /** kill -9: the server is gone at once, as in a crash. */
  kill(): Promise<void>;
  /** Starts it again on the same port (after kill), empty. */
  restart(): Promise<void>;
}

async function spawnRedis(port: number): Promise<ChildProcess> {
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      reject(new Error(`redis-server did not start:\n${output}`));
    }, 10_000);
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Ready to accept connections')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`redis-server exited with ${String(code)}:\n${output}`));
    });
  });
  return child;
}

/**
 * A Redis of this test's own on a free port, to stop without touching the shared one.
 * Resolves once it accepts connections.
 */
export async function startOwnRedis(): Promise<OwnRedis> {
  requireRedisServer();
  const port = await freePort();
  let child = await spawnRedis(port);
  return {
    url: `redis://127.0.0.1:${port}`,
    kill: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      await exited;
    },
    restart: async () => {
      child = await spawnRedis(port);
    },
  };
}
