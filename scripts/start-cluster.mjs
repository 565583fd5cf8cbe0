// `npm run start:cluster` (decision 092): N server processes (default 3, CLUSTER_SIZE) on this
// machine's PostgreSQL and Redis, each with the robot on and holding accounts by lease, on
// consecutive ports from PORT (default 3000). Each process has its own DATA_DIR under
// data/cluster/<n> (CLUSTER_DIR moves data/cluster elsewhere); the keys every process must share
// are made once into data/cluster/shared.
// Ctrl-C (or SIGTERM) stops them all with SIGTERM: each releases its accounts before it exits.
// This script exits once they all have: 0 if every one exited 0, else 1.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const size = Number(process.env.CLUSTER_SIZE ?? 3);
const firstPort = Number(process.env.PORT ?? 3000);
const databaseUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const base = path.resolve(process.env.CLUSTER_DIR ?? path.join(root, 'data', 'cluster'));
const shared = path.join(base, 'shared');
fs.mkdirSync(shared, { recursive: true });

/** A key every process must hold alike, made once and kept in data/cluster/shared. */
function sharedKey(name) {
  const file = path.join(shared, name);
  if (!fs.existsSync(file)) {
    fs.writeFileSync(file, `k1:${randomBytes(32).toString('base64')}`, { mode: 0o600 });
  }
  return fs.readFileSync(file, 'utf8').trim();
}

const env = {
  ...process.env,
  DATABASE_URL: databaseUrl,
  REDIS_URL: redisUrl,
  ROBOT_ENABLED: 'true',
  ROBOT_LEASES: 'true',
  PLATFORM_CREDENTIALS_KEYS: process.env.PLATFORM_CREDENTIALS_KEYS ?? sharedKey('platform.key'),
  ADMIN_TOTP_KEYS: process.env.ADMIN_TOTP_KEYS ?? sharedKey('admin-totp.key'),
};

/** Each process started, and whether it has ended. */
const children = [];
let stopping = false;
let failed = false;

/** Every process is sent SIGTERM once; the script exits when the last has ended. */
function stopAll() {
  if (stopping) return;
  stopping = true;
  for (const { child, ended } of children) if (!ended) child.kill('SIGTERM');
  exitWhenAllEnded();
}

function exitWhenAllEnded() {
  if (children.some(({ ended }) => !ended)) return;
  // Nothing else holds the event loop then: the script ends with this code (1 as well when
  // every process ended without being asked to).
  process.exitCode = failed || !stopping ? 1 : 0;
}

// Installed before the first start: a stop asked for while the first process is still starting
// stops the ones started, rather than leaving them running without this script.
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, stopAll);

async function startProcess(index) {
  const dataDir = path.join(base, String(index + 1));
  const secrets = path.join(dataDir, 'secrets');
  fs.mkdirSync(secrets, { recursive: true });
  // Browsers subscribe to push with one public key: every process signs with the first's.
  const vapid = path.join(base, '1', 'secrets', 'web-push-vapid.json');
  if (index > 0 && fs.existsSync(vapid)) {
    fs.copyFileSync(vapid, path.join(secrets, 'web-push-vapid.json'));
  }
  const port = firstPort + index;
  const child = spawn(process.execPath, [path.join(root, 'apps/server/dist/main.js')], {
    env: { ...env, PORT: String(port), DATA_DIR: dataDir },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const entry = { child, ended: false };
  children.push(entry);
  child.on('exit', (code, signal) => {
    entry.ended = true;
    if (code !== 0) failed = true;
    console.log(`cluster: process ${index + 1} (port ${port}) ended (${signal ?? code})`);
    exitWhenAllEnded();
  });
  console.log(`cluster: process ${index + 1} on http://127.0.0.1:${port} (pid ${child.pid})`);
  // The first makes the schema and the shared VAPID file before the others start.
  if (index === 0) await waitForHealth(port, entry);
}

async function waitForHealth(port, entry) {
  for (let i = 0; i < 600 && !entry.ended && !stopping; i++) {
    try {
      const response = await fetch(`http://127.0.0.1:${port}/`);
      if (response.status < 500) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  if (stopping) return;
  throw new Error(`process on port ${port} did not start`);
}

try {
  for (let index = 0; index < size && !stopping; index++) await startProcess(index);
} catch (error) {
  console.error(`cluster: ${error instanceof Error ? error.message : String(error)}`);
  failed = true;
  stopAll();
}
