import { spawn } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { rowsOf } from '../src/db/migrate';
import { testConfig } from './helpers/app';
import { createTestDatabase, testEngine } from './helpers/database';
import { seedPlatformAccounts } from './helpers/leases';

describe('closing the app (what SIGTERM and SIGINT do in main.ts)', () => {
  it('stops accepting, lets an in-flight request finish, then closes', async () => {
    const testDatabase = await createTestDatabase();
    // The test server's settings: no robot, no track record, no demo to seed (each costs a
    // start-up that, on a loaded machine, ran the test past its time).
    const app = await buildApp(
      testConfig(path.join(os.tmpdir(), `tradebot-test-${testDatabase.schema}`), {
        SEED_DEMO: 'false',
      }),
      { database: testDatabase.database },
    );
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    let arrived: () => void = () => undefined;
    const handling = new Promise<void>((resolve) => {
      arrived = resolve;
    });
    app.get('/core-api/public/api/v1/slow', async () => {
      arrived();
      await released;
      return { data: 'finished' };
    });
    const address = await app.listen({ host: '127.0.0.1', port: 0 });
    try {
      const inFlight = fetch(`${address}/core-api/public/api/v1/slow`);
      // Close once the request is in the handler (a fixed 100 ms wait closed before a loaded
      // machine had even connected, and the request was refused instead of finished).
      await handling;
      const closed = app.close();
      await new Promise((resolve) => setTimeout(resolve, 50));
      await expect(fetch(`${address}/core-api/health`)).rejects.toThrow();
      release();
      const response = await inFlight;
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ data: 'finished' });
      expect(response.headers.get('connection')).toBe('close');
      // Resolves promptly: no keep-alive socket holds it open.
      await closed;
    } finally {
      release();
      await app.close();
      await testDatabase.drop();
    }
    // Building the app (migrations on a fresh schema) is part of this test, not of a hook.
  }, 60_000);
});

/** main.ts itself, in a child process, on the test's schema, with the robot leasing accounts. */
function startMain(databaseUrl: string, schema: string, dataDir: string) {
  const url = new URL(databaseUrl);
  url.searchParams.set('options', `-c search_path=${schema}`);
  const server = spawn(
    process.execPath,
    ['--import', 'tsx', path.resolve(import.meta.dirname, '../src/main.ts')],
    {
      env: {
        ...process.env,
        NODE_ENV: 'test',
        LOG_LEVEL: 'info',
        PORT: '0',
        DATA_DIR: dataDir,
        DATABASE_URL: url.toString(),
        WEB_DIST_DIR: path.join(os.tmpdir(), 'tradebot-no-web-build'),
        SEED_DEMO: 'true',
        TRACK_RECORD_ENABLED: 'false',
        ROBOT_LEASES: 'true',
        REDIS_URL: '',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const process_ = {
    output: '',
    exited: once(server, 'exit') as Promise<[number | null, NodeJS.Signals | null]>,
    signal: (signal: NodeJS.Signals) => server.kill(signal),
  };
  server.stdout.on('data', (chunk: Buffer) => (process_.output += chunk.toString()));
  server.stderr.on('data', (chunk: Buffer) => (process_.output += chunk.toString()));
  return process_;
}

describe.runIf(testEngine === 'postgres')('main.ts with leases (issue 37, point 11)', () => {
  it('a second process starts quietly; two SIGTERMs release the accounts once, at once', async () => {
    const testDatabase = await createTestDatabase();
    const { db } = testDatabase.database;
    const dataDirs = ['a', 'b'].map((name) =>
      path.join(os.tmpdir(), `tradebot-test-${testDatabase.schema}-${name}`),
    );
    const databaseUrl = process.env.TEST_DATABASE_URL ?? '';
    const servers: ReturnType<typeof startMain>[] = [];
    const held = async () => {
      const result = await db.execute(
        sql`select count(*)::int as n from robot_leases where owner <> '' and lease_until > now()`,
      );
      return rowsOf<{ n: number }>(result)[0]?.n ?? 0;
    };
    try {
      await seedPlatformAccounts(db, 3);
      const first = startMain(databaseUrl, testDatabase.schema, dataDirs[0] ?? '');
      servers.push(first);
      await expect.poll(() => first.output, { timeout: 60_000 }).toContain('listening on');
      // The three accounts and the demo user's, which the first process opened.
      await expect.poll(held, { timeout: 20_000, interval: 200 }).toBe(4);

      // A second process while the first holds every account: the demo's account is open
      // already; it does not open it again (its deposit was refused, and logged).
      const second = startMain(databaseUrl, testDatabase.schema, dataDirs[1] ?? '');
      servers.push(second);
      await expect.poll(() => second.output, { timeout: 60_000 }).toContain('listening on');
      // Log lines go out through pino's buffered stream, the "listening on" line through
      // console.log: under load the demo's line can arrive just after it.
      await expect
        .poll(() => second.output, { timeout: 10_000 })
        .toMatch(/"trading":false,.*"msg":"demo ready"/);
      expect(second.output).not.toContain('not written');

      // The second signal once the first is being handled (two sent together are one to the
      // kernel): a supervisor repeating itself, or Ctrl-C pressed twice.
      for (const server of [first, second]) {
        server.signal('SIGTERM');
        await expect.poll(() => server.output, { timeout: 10_000 }).toContain('shutting down');
        server.signal('SIGTERM');
      }
      for (const server of [first, second]) {
        expect(await server.exited).toEqual([0, null]);
      }
      // Released at once, not left to lapse (15 s).
      expect(await held()).toBe(0);
      expect(first.output.match(/"msg":"shutting down"/g)).toHaveLength(1);
    } finally {
      for (const server of servers) server.signal('SIGKILL');
      await testDatabase.drop();
      await Promise.all(dataDirs.map((dir) => fs.rm(dir, { recursive: true, force: true })));
    }
  }, 180_000);
});
