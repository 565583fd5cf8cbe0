import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import { createTestDatabase, type TestDatabase } from './helpers/database';
import { accountInfo, connectClient, listen } from './helpers/realtime-client';
import { registeredToken } from './helpers/accounts';
import { freePort, startOwnRedis, type OwnRedis } from './helpers/redis-server';

/** Long enough for the Redis clients to give up on a command (a few reconnection attempts). */
const retriesSpent = 1_500;
/** Each test waits out the clients' retries three times, on purpose. */
const testTimeout = 60_000;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// Scaled mode with its Redis gone: the Socket.IO adapter sends commands it does not await
// (publish on every emit, subscribe at start, unsubscribe at close). Each one fails once the
// client gives up, and Node ends a process on an unhandled rejection: SIGTERM (app.close())
// must finish cleanly, and so must the emits before it.
describe('the real-time channel while Redis is down', () => {
  let testDatabase: TestDatabase;
  let app: FastifyInstance | undefined;
  let other: FastifyInstance | undefined;
  let redis: OwnRedis | undefined;
  const unhandled: unknown[] = [];
  const record = (reason: unknown) => {
    unhandled.push(reason);
  };
  beforeEach(async () => {
    unhandled.length = 0;
    process.on('unhandledRejection', record);
    testDatabase = await createTestDatabase();
  });
  afterEach(async () => {
    process.off('unhandledRejection', record);
    await app?.close();
    app = undefined;
    await other?.close();
    other = undefined;
    await redis?.kill();
    redis = undefined;
    await testDatabase.drop();
  });

  async function build(redisUrl: string, name: string): Promise<FastifyInstance> {
    const built = await buildApp(
      loadConfig({
        NODE_ENV: 'test',
        LOG_LEVEL: 'silent',
        REDIS_URL: redisUrl,
        DATA_DIR: path.join(os.tmpdir(), `tradebot-test-${name}-${testDatabase.schema}`),
        WEB_DIST_DIR: path.join(os.tmpdir(), 'tradebot-no-web-build'),
        ROBOT_ENABLED: 'false',
      }),
      { database: testDatabase.database, rateLimitRedisPrefix: `test:${testDatabase.schema}:` },
    );
    await built.ready();
    return built;
  }

  async function start(redisUrl: string): Promise<FastifyInstance> {
    app = await build(redisUrl, 'main');
    return app;
  }

  /** Closes as SIGTERM does; answers how long it took. */
  async function closeTimed(server: FastifyInstance): Promise<number> {
    const started = Date.now();
    await server.close();
    return Date.now() - started;
  }

  it(
    'closes cleanly when Redis stopped after the start',
    async () => {
      redis = await startOwnRedis();
      const server = await start(redis.url);
      const token = await registeredToken(server);
      const session = await server.services.auth.authenticate(token);
      const client = await connectClient(await listen(server), { auth: { token } });
      try {
        await redis.kill();
        await pause(retriesSpent);
        server.realtime.toUser(session?.user.id ?? '', accountInfo(1));
        await pause(retriesSpent);
      } finally {
        client.socket.close();
      }

      expect(await closeTimed(server)).toBeLessThan(1_000);
      await pause(retriesSpent);
      expect(unhandled).toEqual([]);
    },
    testTimeout,
  );

  it(
    'closes cleanly when Redis was never reachable',
    async () => {
      const server = await start(`redis://127.0.0.1:${await freePort()}`);
      await pause(retriesSpent);
      server.realtime.toUser('00000000-0000-4000-8000-000000000000', accountInfo(1));
      await pause(retriesSpent);

      expect(await closeTimed(server)).toBeLessThan(1_000);
      await pause(retriesSpent);
      expect(unhandled).toEqual([]);
    },
    testTimeout,
  );

  it(
    "a process started while Redis was down receives the other processes' events once it is back",
    async () => {
      redis = await startOwnRedis();
      await redis.kill();
      // Both processes start with Redis gone: their subscriptions cannot be made yet.
      const sender = await start(redis.url);
      other = await build(redis.url, 'other');
      await pause(retriesSpent);
      await redis.restart();

      const token = await registeredToken(sender);
      const session = await sender.services.auth.authenticate(token);
      const userId = session?.user.id ?? '';
      const client = await connectClient(await listen(other), { auth: { token } });
      try {
        // Until the other process has subscribed again, what is published reaches no one.
        const deadline = Date.now() + 10_000;
        let sent = 0;
        while (client.events.length === 0 && Date.now() < deadline) {
          sent += 1;
          sender.realtime.toUser(userId, accountInfo(sent));
          await pause(100);
        }
        expect(client.events.length).toBeGreaterThan(0);
      } finally {
        client.socket.close();
      }
      expect(unhandled).toEqual([]);
    },
    testTimeout,
  );
});
