import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { AdminSystem } from '@tradebot/contract';
import { generate } from 'otplib';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdminWithCli } from './support/admin';
import { until } from './support/live-account';
import { marketStart } from './support/market-clock';
import { dashboardSeries, samples, seriesNames } from './support/prometheus';

/**
 * Issue 40: `/metrics`, the Grafana dashboard's queries and the console's system page on the
 * cluster `npm run start:cluster` starts (scripts/start-cluster.mjs, decision 092), two processes
 * on a fresh PostgreSQL database and Redis; then SIGTERM stops both, each exiting 0. Only where
 * PostgreSQL and Redis are at hand (TEST_DATABASE_URL and TEST_REDIS_URL, as in CI).
 */

const root = path.resolve(import.meta.dirname, '..');
const databaseAdminUrl = process.env.TEST_DATABASE_URL;
const testRedisUrl = process.env.TEST_REDIS_URL;
const metricsToken = 'cluster-e2e-metrics-token-0123456789';
const admin = {
  email: 'sistema@tradebot.test',
  name: 'Sara Sistema',
  password: 'consola-segura-2026',
};
const v1 = '/core-api/public/api/v1';
// The demo user (seeded with the robot on in every category) and the track record's account.
const accounts = 2;

/** Two consecutive free ports on 127.0.0.1 (the script numbers its processes' ports from PORT). */
async function consecutivePorts(): Promise<number> {
  const tryListen = (port: number) =>
    new Promise<number | undefined>((resolve) => {
      const server = net.createServer();
      server.once('error', () => {
        resolve(undefined);
      });
      server.listen(port, '127.0.0.1', () => {
        const address = server.address();
        server.close(() => {
          resolve(typeof address === 'object' && address ? address.port : undefined);
        });
      });
    });
  for (let attempt = 0; attempt < 50; attempt++) {
    const first = await tryListen(0);
    if (first !== undefined && first < 65_535 && (await tryListen(first + 1)) !== undefined) {
      return first;
    }
  }
  throw new Error('no two consecutive free ports');
}

interface Cluster {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

const state = {} as {
  databaseName: string;
  databaseUrl: string;
  database: pg.Client;
  dba: pg.Client;
  clusterDir: string;
  ports: [number, number];
  env: Record<string, string>;
  cluster: Cluster;
  /** Each process's pid, by its port (the script prints them). */
  pids: Map<number, number>;
  adminSecret: Promise<string>;
};

const urlOf = (port: number) => `http://127.0.0.1:${String(port)}`;

async function scrape(port: number, token: string | null = metricsToken) {
  return fetch(`${urlOf(port)}/metrics`, {
    headers: token === null ? {} : { authorization: `Bearer ${token}` },
  });
}

async function metricsOf(port: number): Promise<{ text: string; values: Map<string, number> }> {
  const answer = await scrape(port);
  expect(answer.status).toBe(200);
  expect(answer.headers.get('content-type')).toContain('text/plain');
  const text = await answer.text();
  return { text, values: samples(text) };
}

function startCluster(env: Record<string, string>): Cluster {
  // Its own process group: if the test fails before SIGTERM, the afterAll ends the script and
  // its servers together.
  const child = spawn(process.execPath, [path.join(root, 'scripts/start-cluster.mjs')], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  return { child, output: () => output, exited };
}

describe.runIf(databaseAdminUrl && testRedisUrl)('the cluster of npm run start:cluster', () => {
  beforeAll(async () => {
    state.databaseName = `tradebot_cluster_${String(process.pid)}_${String(Date.now())}`;
    state.dba = new pg.Client({ connectionString: databaseAdminUrl });
    await state.dba.connect();
    await state.dba.query(`create database ${state.databaseName}`);
    const url = new URL(databaseAdminUrl ?? '');
    url.pathname = `/${state.databaseName}`;
    state.databaseUrl = url.toString();
    // Its own Redis database (keys: presence, rate limits); channels are server-wide, and carry
    // only this cluster's users' ids.
    const redis = new URL(testRedisUrl ?? '');
    redis.pathname = '/13';
    state.clusterDir = await fs.mkdtemp(path.join(os.tmpdir(), 'tradebot-e2e-cluster-'));
    const first = await consecutivePorts();
    state.ports = [first, first + 1];
    const adminTotpKeys = `k1:${randomBytes(32).toString('base64')}`;
    state.env = {
      CLUSTER_SIZE: '2',
      CLUSTER_DIR: state.clusterDir,
      PORT: String(first),
      HOST: '127.0.0.1',
      DATABASE_URL: state.databaseUrl,
      REDIS_URL: redis.toString(),
      METRICS_TOKEN: metricsToken,
      ADMIN_TOTP_KEYS: adminTotpKeys,
      LOG_LEVEL: 'warn',
      // The market as the live-account tests run it (decision 093): operations within seconds.
      NODE_ENV: 'test',
      MARKET_START: marketStart,
      MARKET_SPEED: '10',
      MARKET_SEED: '11',
      ROBOT_TEST_ONLY_STRATEGY: 'always-signal',
      RECORDED_QUOTES_DIR: 'off',
    };
    state.cluster = startCluster(state.env);
    // Both listening: on a loaded two-core machine each start (schema, warm-up) can take a minute.
    await until(
      async () => {
        if (state.cluster.child.exitCode !== null) {
          throw new Error(`the cluster ended before listening:\n${state.cluster.output()}`);
        }
        return state.ports.every((port) =>
          state.cluster.output().includes(`listening on ${urlOf(port)}`),
        );
      },
      'both processes listening',
      180_000,
    ).catch((error: unknown) => {
      throw new Error(`${String(error)}\n${state.cluster.output()}`);
    });
    state.pids = new Map();
    for (const match of state.cluster
      .output()
      .matchAll(/on http:\/\/127\.0\.0\.1:(\d+) \(pid (\d+)\)/g)) {
      state.pids.set(Number(match[1]), Number(match[2]));
    }
    // The admin is made while the robot trades (the schema is there once a process listens).
    state.adminSecret = createAdminWithCli(path.join(state.clusterDir, 'admin'), admin, {
      DATABASE_URL: state.databaseUrl,
      ADMIN_TOTP_KEYS: adminTotpKeys,
    }).then(({ secret }) => secret);
    state.adminSecret.catch(() => undefined);
    state.database = new pg.Client({ connectionString: state.databaseUrl });
    await state.database.connect();
  }, 240_000);

  afterAll(async () => {
    // Whatever beforeAll got to before a failure.
    const started = state as Partial<typeof state>;
    const child = started.cluster?.child;
    if (child?.exitCode === null && child.signalCode === null && child.pid) {
      // The test failed before its SIGTERM: the script and both servers, at once.
      process.kill(-child.pid, 'SIGKILL');
      await started.cluster?.exited;
    }
    await started.database?.end();
    if (started.dba) {
      await started.dba.query(`drop database if exists ${state.databaseName} with (force)`);
      await started.dba.end();
    }
    if (started.clusterDir) await fs.rm(started.clusterDir, { recursive: true, force: true });
  }, 60_000);

  it('/metrics on each process: the trade counters move where the accounts are held, the token is required', async () => {
    const [first, second] = state.ports;
    const before = new Map([
      [first, (await metricsOf(first)).values],
      [second, (await metricsOf(second)).values],
    ]);
    // Both accounts claimed (the demo's and the track record's), and an operation booked.
    await until(
      async () => {
        const held = await Promise.all(
          state.ports.map(
            async (port) => (await metricsOf(port)).values.get('tradebot_robot_accounts_held') ?? 0,
          ),
        );
        return held.reduce((sum, count) => sum + count, 0) === accounts;
      },
      'both accounts held',
      60_000,
    );
    await until(
      async () => {
        const { rows } = await state.database.query<{ count: string }>(
          'select count(*)::text as count from operations',
        );
        return Number(rows[0]?.count) > 0;
      },
      'an operation',
      60_000,
    );
    // Every process holding an account counted orders sent and filled since the first scrape.
    const holders = await until(
      async () => {
        const now = await Promise.all(
          state.ports.map(async (port) => [port, (await metricsOf(port)).values] as const),
        );
        const moved = (port: number, values: Map<string, number>, name: string) =>
          (values.get(name) ?? 0) - (before.get(port)?.get(name) ?? 0);
        const holding = now.filter(
          ([, values]) => (values.get('tradebot_robot_accounts_held') ?? 0) > 0,
        );
        const counted = holding.every(
          ([port, values]) =>
            moved(port, values, 'tradebot_orders_sent_total') > 0 &&
            moved(port, values, 'tradebot_orders_filled_total') > 0,
        );
        return holding.length > 0 && counted ? now : false;
      },
      'the holders’ order counters to move',
      60_000,
    );
    for (const [, values] of holders) {
      // Each process says how it came to hold what it holds, and since when it lags.
      expect(values.has('tradebot_robot_tick_lag_seconds')).toBe(true);
      const moves = (kind: string) => values.get(`tradebot_lease_moves_total{kind="${kind}"}`) ?? 0;
      expect(moves('claimed') - moves('lost') - moves('released')).toBe(
        values.get('tradebot_robot_accounts_held'),
      );
    }

    for (const port of state.ports) {
      const anonymous = await scrape(port, null);
      expect(anonymous.status).toBe(401);
      const wrong = await scrape(port, `${metricsToken}x`);
      expect(wrong.status).toBe(401);
      expect(await wrong.text()).not.toContain('tradebot_');
    }
  }, 200_000);

  it('every series the Grafana dashboard queries is in each process’s /metrics', async () => {
    const queried = await dashboardSeries();
    expect(queried.length).toBeGreaterThan(10);
    for (const port of state.ports) {
      const declared = seriesNames((await metricsOf(port)).text);
      expect(queried.filter((name) => !declared.has(name))).toEqual([]);
    }
  });

  it('the console’s system page lists both processes and the accounts each holds, on either', async () => {
    const [first] = state.ports;
    const secret = await state.adminSecret;
    const post = async (url: string, body: unknown, token?: string) =>
      fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
        body: JSON.stringify(body),
      });
    const password = await post(`${urlOf(first)}${v1}/admin/login`, {
      email: admin.email,
      password: admin.password,
    });
    expect(password.status).toBe(200);
    const { token } = ((await password.json()) as { data: { token: string } }).data;
    const second = await post(
      `${urlOf(first)}${v1}/admin/login/second-factor`,
      { code: await generate({ secret }) },
      token,
    );
    expect(second.status).toBe(200);

    const systemOn = async (port: number) => {
      const answer = await fetch(`${urlOf(port)}${v1}/admin/system`, {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(answer.status).toBe(200);
      return ((await answer.json()) as { data: AdminSystem }).data;
    };
    // Each process stores its report every 15 s: both have once the other's shows figures.
    const portOf = (process: string) =>
      state.ports.find((port) => process.includes(`:${String(state.pids.get(port))}:`));
    const read = async () => {
      const pages = await Promise.all(state.ports.map(systemOn));
      const held = new Map<number | undefined, number | undefined>();
      for (const port of state.ports) {
        held.set(port, (await metricsOf(port)).values.get('tradebot_robot_accounts_held'));
      }
      return { pages, held };
    };
    // Each process stores its report every 15 s, and the accounts may still be moving to their
    // fair share: read until both pages show both reports and agree with each /metrics.
    const settled = ({ pages, held }: Awaited<ReturnType<typeof read>>) =>
      pages.every(
        (page) =>
          page.processes.length === 2 &&
          page.processes.every(
            (row) => row.reportedAt !== null && row.accounts === held.get(portOf(row.process)),
          ),
      );
    let last = await read();
    await until(
      async () => {
        last = await read();
        return settled(last);
      },
      'both processes’ reports',
      60_000,
    ).catch(() => undefined); // the expectations below say what differs
    for (const [index, page] of last.pages.entries()) {
      const port = state.ports[index];
      expect(page.mode).toBe('scaled');
      expect(page.unheldAccounts).toBe(0);
      expect(page.processes.reduce((sum, row) => sum + row.accounts, 0)).toBe(accounts);
      // The process answering is in the list, marked as itself; both are there, with figures.
      expect(page.processes.filter((row) => row.self).map((row) => portOf(row.process))).toEqual([
        port,
      ]);
      expect(page.processes.map((row) => portOf(row.process) ?? 0).sort((a, b) => a - b)).toEqual(
        state.ports,
      );
      for (const row of page.processes) {
        // Each row's accounts are what that process's /metrics says it holds.
        expect(row.accounts).toBe(last.held.get(portOf(row.process)));
        expect(row.reportedAt).not.toBeNull();
        expect(row.tickLagMs).not.toBeNull();
        // What it holds, it claimed within the hour.
        expect(row.leaseMoves.claimed).toBeGreaterThanOrEqual(row.accounts);
      }
    }
    // The console's page itself is served by each process.
    for (const port of state.ports) {
      const page = await fetch(`${urlOf(port)}/admin/system`);
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toContain('text/html');
    }
  }, 120_000);

  it('SIGTERM stops both processes, each exiting 0, and then the script', async () => {
    const { cluster } = state;
    cluster.child.kill('SIGTERM');
    expect(await cluster.exited).toBe(0);
    for (const [index, port] of state.ports.entries()) {
      expect(cluster.output()).toContain(
        `cluster: process ${String(index + 1)} (port ${String(port)}) ended (0)`,
      );
    }
    // Each released what it held on the way out: no account is left waiting out a lease.
    const processes = await state.database.query('select owner from robot_processes');
    expect(processes.rows).toEqual([]);
    const held = await state.database.query(
      `select account_id from robot_leases where owner <> ''`,
    );
    expect(held.rows).toEqual([]);
  }, 60_000);

  it('a stop while the first process is still starting stops it too', async () => {
    const cluster = startCluster(state.env);
    const pid = await until(
      async () => /process 1 on \S+ \(pid (\d+)\)/.exec(cluster.output())?.[1],
      'the first process',
      30_000,
    );
    try {
      cluster.child.kill('SIGTERM');
      // The script waits for it: once the script has ended, so has the server it started.
      expect(await cluster.exited).not.toBeNull();
      expect(() => process.kill(Number(pid), 0)).toThrow(/ESRCH/);
    } finally {
      try {
        process.kill(Number(pid), 'SIGKILL'); // left running: not by this test's run, then
      } catch {
        // ended, as it should have
      }
    }
  }, 60_000);
});
