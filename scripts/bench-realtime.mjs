// npm run bench:realtime: the real-time channel (issue 9), on 127.0.0.1, in one run.
//  (a) fill to event: from the moment the platform's fill reaches the publisher (toUser) to
//      the event in a connected client, with 1,000 authenticated clients connected; the
//      baseline is a bare Socket.IO emit to one client of a bare server in the same process.
//  (b) 10,000 authenticated sockets on one server: the server's resident memory, against the
//      same server idle.
// The server runs as its own process (apps/server/scripts/bench-realtime-server.ts, bundled
// here with esbuild); the clients run here, websocket transport only, many per process.
// Both processes read the same monotonic clock (process.hrtime), so latencies cross them.
// Writes its section of docs/benchmarks.md.
import { fork } from 'node:child_process';
import { readFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { build } from 'esbuild';
import { Worker } from 'node:worker_threads';
import { writeBenchmarkSection } from './bench-support.mjs';

const root = path.resolve(import.meta.dirname, '..');
const serverDir = path.join(root, 'apps/server');
const latencyClients = Number(process.env.BENCH_LATENCY_CLIENTS ?? 1000);
const memorySockets = Number(process.env.BENCH_MEMORY_SOCKETS ?? 10_000);
const singleFills = Number(process.env.BENCH_SINGLE_FILLS ?? 2000);
const burstRounds = Number(process.env.BENCH_BURST_ROUNDS ?? 20);
const clientThreads = Number(process.env.BENCH_CLIENT_THREADS ?? 2);

async function bundleServer() {
  const pkg = JSON.parse(readFileSync(path.join(serverDir, 'package.json'), 'utf8'));
  const outfile = path.join(serverDir, 'dist/bench-realtime-server.js');
  await build({
    entryPoints: [path.join(serverDir, 'scripts/bench-realtime-server.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'esm',
    external: Object.keys({ ...pkg.dependencies, ...pkg.devDependencies }),
    logLevel: 'warning',
  });
  return outfile;
}

/** The server process, driven over IPC: request() sends a command and awaits its answer. */
async function startServer(script, dataDir) {
  const child = fork(script, [], {
    cwd: serverDir,
    execArgv: ['--expose-gc'],
    env: {
      ...process.env,
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      REDIS_URL: '',
      TOKEN_SECRET: 'bench-realtime-pepper-0123456789abcdef',
      WEB_DIST_DIR: path.join(dataDir, 'no-web'),
    },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const waiting = new Map();
  child.on('message', (message) => {
    const resolve = waiting.get(message.type);
    if (resolve) {
      waiting.delete(message.type);
      resolve(message);
    }
  });
  const next = (type) => new Promise((resolve) => waiting.set(type, resolve));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const ready = await Promise.race([
    next('ready'),
    exited.then((code) => {
      throw new Error(`bench server exited with ${code}`);
    }),
  ]);
  return {
    ...ready,
    pid: child.pid,
    request(command, answer) {
      const answered = next(answer);
      child.send(command);
      return answered;
    },
    async stop() {
      child.send({ type: 'stop' });
      await exited;
    },
  };
}

/**
 * The clients, one socket each as each browser would have, spread over worker threads so
 * that a burst is not decoded by one event loop alone. onArrival(key, fillId, at).
 */
async function clientPool(threads, onArrival) {
  const workers = Array.from(
    { length: threads },
    () => new Worker(new URL('./bench-realtime-clients.mjs', import.meta.url)),
  );
  const reply = (worker, type) =>
    new Promise((resolve, reject) => {
      const onMessage = (message) => {
        if (message.type !== type) return;
        worker.off('message', onMessage);
        resolve(message);
      };
      worker.on('message', onMessage);
      worker.once('error', reject);
    });
  for (const worker of workers) {
    worker.on('message', (message) => {
      if (message.type === 'arrival') onArrival(message.key, message.fillId, message.at);
    });
  }
  return {
    /** Connects every client (authenticated) and resolves when all are. */
    async connect(clients) {
      const shares = workers.map(() => []);
      clients.forEach((client, index) => shares[index % workers.length].push(client));
      const connected = workers.map((worker) => reply(worker, 'connected'));
      workers.forEach((worker, index) =>
        worker.postMessage({ type: 'connect', clients: shares[index] }),
      );
      const counts = await Promise.all(connected);
      return counts.reduce((sum, message) => sum + message.count, 0);
    },
    async close() {
      const closed = workers.map((worker) => reply(worker, 'closed'));
      for (const worker of workers) worker.postMessage({ type: 'close' });
      await Promise.all(closed);
      await Promise.all(workers.map((worker) => worker.terminate()));
    },
  };
}

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

function stats(latenciesMs) {
  const sorted = [...latenciesMs].sort((a, b) => a - b);
  return {
    samples: sorted.length,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    max: sorted[sorted.length - 1],
  };
}

/** Waits until `count` events of a round arrived (or fails after 30 s). */
function roundCollector() {
  const received = new Map();
  let wake;
  return {
    record(round, client, at) {
      let arrivals = received.get(round);
      if (!arrivals) received.set(round, (arrivals = new Map()));
      arrivals.set(client, at);
      wake?.();
    },
    async wait(round, count) {
      const deadline = Date.now() + 30_000;
      while ((received.get(round)?.size ?? 0) < count) {
        if (Date.now() > deadline) throw new Error(`round ${round}: events missing`);
        await new Promise((resolve) => {
          wake = resolve;
          setTimeout(resolve, 100);
        });
      }
      const arrivals = received.get(round);
      received.delete(round);
      return arrivals;
    },
  };
}

const ms = (from, to) => Number(to - from) / 1e6;
const mb = (bytes) => bytes / (1024 * 1024);

async function latencyBenchmark(script) {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'tradebot-bench-rt-'));
  const server = await startServer(script, dataDir);
  const rounds = roundCollector();
  try {
    const { tokens, userIds } = await server.request(
      { type: 'seed', count: latencyClients },
      'seeded',
    );
    const pool = await clientPool(clientThreads, (key, fillId, at) => {
      rounds.record(Number(fillId.slice('fill-'.length)), key, at);
    });
    await pool.connect([
      ...tokens.map((token, key) => ({ key, url: server.url, token })),
      { key: 'bare', url: server.bareUrl },
    ]);

    let round = 0;
    const oneFill = async (client) => {
      round += 1;
      const { sentAt } = await server.request(
        { type: 'fill', userIds: [userIds[client]], round },
        'filled',
      );
      const arrivals = await rounds.wait(round, 1);
      return ms(BigInt(sentAt[0]), arrivals.get(client));
    };
    const bareEmit = async () => {
      round += 1;
      const { sentAt } = await server.request({ type: 'bareEmit', round }, 'bareEmitted');
      const arrivals = await rounds.wait(round, 1);
      return ms(BigInt(sentAt), arrivals.get('bare'));
    };
    const burst = async () => {
      round += 1;
      const { sentAt } = await server.request({ type: 'fill', userIds, round }, 'filled');
      const arrivals = await rounds.wait(round, userIds.length);
      return userIds.map((_, client) => ms(BigInt(sentAt[client]), arrivals.get(client)));
    };

    // Warm-up: JIT, buffers and first-message costs do not count.
    for (let i = 0; i < 200; i++) await oneFill(i % latencyClients);
    for (let i = 0; i < 200; i++) await bareEmit();
    for (let i = 0; i < 3; i++) await burst();

    // Interleaved, so a noisy neighbour on the shared machine weighs on both alike.
    const single = [];
    const baseline = [];
    for (let i = 0; i < singleFills; i++) {
      single.push(await oneFill(Math.floor(Math.random() * latencyClients)));
      baseline.push(await bareEmit());
    }
    const bursts = [];
    for (let i = 0; i < burstRounds; i++) bursts.push(...(await burst()));

    await pool.close();
    return { single: stats(single), baseline: stats(baseline), burst: stats(bursts) };
  } finally {
    await server.stop();
    await fs.rm(dataDir, { recursive: true, force: true });
  }
}

async function memoryBenchmark(script) {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'tradebot-bench-rt-'));
  const server = await startServer(script, dataDir);
  try {
    const { tokens, userIds } = await server.request(
      { type: 'seed', count: memorySockets },
      'seeded',
    );
    const idle = (await server.request({ type: 'memory' }, 'memory')).usage;
    let received = 0;
    const pool = await clientPool(clientThreads, () => {
      received += 1;
    });
    const started = performance.now();
    const connected = await pool.connect(
      tokens.map((token, key) => ({ key, url: server.url, token })),
    );
    const connectSeconds = (performance.now() - started) / 1000;
    // Every socket is live and in its user's room: one event each reaches all of them.
    await server.request({ type: 'fill', userIds, round: 1 }, 'filled');
    const deadline = Date.now() + 60_000;
    while (received < memorySockets && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const loaded = (await server.request({ type: 'memory' }, 'memory')).usage;
    await pool.close();
    return { idle, loaded, connected, received, connectSeconds };
  } finally {
    await server.stop();
    await fs.rm(dataDir, { recursive: true, force: true });
  }
}

const script = await bundleServer();
const latency = await latencyBenchmark(script);
console.log('latency', latency);
const memory = await memoryBenchmark(script);
console.log('memory', {
  idleRssMb: mb(memory.idle.rss),
  loadedRssMb: mb(memory.loaded.rss),
  connected: memory.connected,
  received: memory.received,
});

const f = (value) => value.toFixed(2);
const perSocketKb = (memory.loaded.rss - memory.idle.rss) / 1024 / memory.connected;
const date = new Date().toISOString().slice(0, 10);
const section = [
  '<!-- bench:realtime:start -->',
  '## Real-time channel (`npm run bench:realtime`)',
  '',
  `Measured ${date} on this 2-core shared machine, on 127.0.0.1. The server is its own ` +
    'process (`apps/server/scripts/bench-realtime-server.ts`: `buildApp` on PGlite, the ' +
    'Socket.IO gateway without Redis); the clients are socket.io-client sockets in ' +
    `worker threads of the bench process (${clientThreads}), one connection each, websocket transport, each authenticated with its own ` +
    "user's session token. Latency runs from the moment the platform's fill reaches " +
    '`RealtimePublisher.toUser` to the `trading-data` event in the client, on the one ' +
    'monotonic clock both processes read. A fill sends the account and three open operations.',
  '',
  `### Fill to event, ${latencyClients.toLocaleString('en-US')} connected clients (target: p99 at most 50 ms)`,
  '',
  '| case | samples | p50 (ms) | p99 (ms) | max (ms) |',
  '| --- | ---: | ---: | ---: | ---: |',
  `| one fill at a time, to a random one of the ${latencyClients.toLocaleString('en-US')} users | ${latency.single.samples} | ${f(latency.single.p50)} | ${f(latency.single.p99)} | ${f(latency.single.max)} |`,
  `| bare Socket.IO emit to its one client (baseline, interleaved with the row above) | ${latency.baseline.samples} | ${f(latency.baseline.p50)} | ${f(latency.baseline.p99)} | ${f(latency.baseline.max)} |`,
  `| burst: all ${latencyClients.toLocaleString('en-US')} users fill in the same tick, ${burstRounds} times | ${latency.burst.samples} | ${f(latency.burst.p50)} | ${f(latency.burst.p99)} | ${f(latency.burst.max)} |`,
  '',
  `**Ratio (one fill / baseline, p99): ${f(latency.single.p99 / latency.baseline.p99)}×.** ` +
    `In the burst the ${latencyClients.toLocaleString('en-US')} clients share ${clientThreads} ` +
    'client threads (and the 2 cores with the server), where browsers would each decode ' +
    'their own: its tail measures the clients as much as the server.',
  '',
  `### ${memory.connected.toLocaleString('en-US')} authenticated sockets on one server (target: at most 1.5 GB)`,
  '',
  '| server state | RSS (MB) | JS heap used (MB) |',
  '| --- | ---: | ---: |',
  `| idle, ${memorySockets.toLocaleString('en-US')} users and sessions stored (baseline) | ${f(mb(memory.idle.rss))} | ${f(mb(memory.idle.heapUsed))} |`,
  `| ${memory.connected.toLocaleString('en-US')} sockets connected and authenticated | ${f(mb(memory.loaded.rss))} | ${f(mb(memory.loaded.heapUsed))} |`,
  '',
  `**Ratio (loaded / idle RSS): ${f(memory.loaded.rss / memory.idle.rss)}×; ` +
    `${f(perSocketKb)} KB per socket.** All ${memory.connected.toLocaleString('en-US')} ` +
    `connected in ${f(memory.connectSeconds)} s (100 handshakes at a time per client thread, each checked ` +
    `against the sessions table); one event to every user reached ${memory.received.toLocaleString('en-US')} ` +
    'of them. RSS is read after three forced garbage collections.',
  '<!-- bench:realtime:end -->',
].join('\n');

await writeBenchmarkSection('realtime', section);
console.log(section);
if (memory.received < memory.connected) process.exitCode = 1;
