import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { TradingData } from '@tradebot/contract';
import { FixedSignalStrategy } from '@tradebot/robot';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import { openDatabase, type Database } from '../src/db/database';
import { rowsOf } from '../src/db/migrate';
import { v1 } from './helpers/accounts';
import { createTestDatabase, testEngine, type TestDatabase } from './helpers/database';
import { connectClient, listen, type TestClient } from './helpers/realtime-client';
import { startTcpProxy, type TcpProxy } from './helpers/tcp-proxy';
import { trader } from './helpers/trading';

// Issue 21, proof 6 (decision 092, amended): PostgreSQL "restarts" (every connection dropped,
// new ones refused for a few seconds) while Redis is stopped for 30 s. Neither real server is
// touched (others use them): both are reached through loopback proxies the test controls. A
// robot process trading an account and a process serving the user's socket go on by themselves:
// trading resumes once PostgreSQL is back, and the user's real-time updates catch up once Redis
// is back.
const redisDownMs = 30_000;
const postgresDownMs = 5_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(what: string, check: () => Promise<boolean> | boolean, timeoutMs = 60_000) {
  const deadline = performance.now() + timeoutMs;
  while (!(await check())) {
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

const targetOf = (url: string, port: number) => {
  const parsed = new URL(url);
  return { host: parsed.hostname, port: Number(parsed.port || port) };
};

describe.skipIf(testEngine !== 'postgres' || !process.env.TEST_REDIS_URL)(
  'PostgreSQL restarted and Redis stopped for 30 s',
  () => {
    const postgresUrl = process.env.TEST_DATABASE_URL ?? '';
    const redisUrl = process.env.TEST_REDIS_URL ?? '';
    let test: TestDatabase;
    let postgres: TcpProxy;
    let redis: TcpProxy;
    const apps: FastifyInstance[] = [];
    const databases: Database[] = [];
    let client: TestClient | undefined;

    beforeEach(async () => {
      test = await createTestDatabase();
      postgres = await startTcpProxy(targetOf(postgresUrl, 5432));
      redis = await startTcpProxy(targetOf(redisUrl, 6379));
    });
    afterEach(async () => {
      client?.socket.close();
      client = undefined;
      for (const app of apps.splice(0)) await app.close();
      for (const database of databases.splice(0)) await database.close();
      await postgres.close();
      await redis.close();
      await test.drop();
    });

    /** A server process reaching PostgreSQL and Redis through the proxies only. */
    async function server(name: string, env: Record<string, string>) {
      const database = await openDatabase({
        databaseUrl: postgres.url(postgresUrl),
        searchPath: test.schema,
        poolSize: 4,
      });
      databases.push(database);
      const app = await buildApp(
        loadConfig({
          NODE_ENV: 'test',
          LOG_LEVEL: 'silent',
          DATA_DIR: path.join(os.tmpdir(), `tradebot-test-${name}-${test.schema}`),
          WEB_DIST_DIR: path.join(os.tmpdir(), 'tradebot-no-web-build'),
          TRACK_RECORD_ENABLED: 'false',
          REDIS_URL: redis.url(redisUrl),
          ROBOT_ENABLED: 'false',
          ROBOT_LEASES: 'true',
          ...env,
        }),
        {
          database,
          rateLimitRedisPrefix: `test:${test.schema}:rate-limit:`,
          robotStrategy: new FixedSignalStrategy(0.999, ['buy', 'sale']),
        },
      );
      await app.ready();
      apps.push(app);
      return app;
    }

    const count = async (query: ReturnType<typeof sql>) =>
      Number(rowsOf<{ n: string | number }>(await test.database.db.execute(query))[0]?.n ?? 0);

    it('trading resumes by itself and the real-time updates catch up', async () => {
      const robot = await server('robot', {
        ROBOT_ENABLED: 'true',
        ROBOT_LEASE_MS: '3000',
        ROBOT_LEASE_RENEW_MS: '300',
        ROBOT_LEASE_MARGIN_MS: '1000',
        MARKET_TICK_MS: '1000',
        MARKET_SPEED: '20',
      });
      const web = await server('web', {});
      const { headers, token: session, userId } = await trader(robot);
      const operations = () =>
        count(sql`select count(*) as n from operations where account_id = ${userId}`);
      client = await connectClient(await listen(web), { auth: { token: session } });
      const live = client;
      await until(
        'the robot to trade and the user to see it',
        async () => (await operations()) > 0 && live.events.length > 0,
      );

      const token = () =>
        count(sql`select token as n from robot_leases where account_id = ${userId}`);
      const tokenBefore = await token();

      // Redis stops; a few seconds later PostgreSQL restarts.
      redis.refuse();
      const redisBack = performance.now() + redisDownMs;
      await sleep(3_000);
      postgres.refuse();
      await sleep(postgresDownMs);
      postgres.pass();
      // Trading resumes by itself while Redis is still down: the robot process claims the
      // account again once its lease lapsed and starts a new run.
      const before = await operations();
      await until('trading to resume', async () => (await operations()) > before, 20_000);
      // The outage cost the lease (the process fenced itself): it claimed the account anew.
      expect(await token()).toBeGreaterThan(tokenBefore);
      expect(performance.now()).toBeLessThan(redisBack);
      await sleep(redisBack - performance.now());
      const seen = live.events.length;
      redis.pass();

      // The updates flow again to the socket the user kept open on the other process.
      await until('real-time updates to come again', () => live.events.length > seen, 30_000);
      // And catch up: once the user stops the robot (every operation closes), the last update
      // says what get-all-data says.
      const killed = await robot.inject({
        method: 'POST',
        url: `${v1}/robot/kill`,
        headers,
      });
      expect(killed.statusCode).toBe(200);
      const data = (await web.inject({ url: `${v1}/get-all-data`, headers })).json<{
        data: TradingData;
      }>().data;
      expect(data.trades).toEqual([]);
      await until(
        'the update of the closing',
        () => {
          const info = live.events.at(-1)?.info;
          return typeof info === 'object' && info.trades?.length === 0 && info.closed !== undefined;
        },
        10_000,
      );
      const last = live.events.at(-1)?.info;
      if (typeof last !== 'object') throw new Error('no update');
      expect(last.closed?.map((row) => row.id)).toEqual(
        data.closed.slice(0, last.closed?.length ?? 0).map((row) => row.id),
      );
      expect(last.account?.balance).toBe(data.account?.balance);
      expect(await operations()).toBe(data.closedPage.total);
    }, 120_000);
  },
);
