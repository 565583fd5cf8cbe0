/**
 * `npm run bench:realtime-presence` (issue 40, "publish only what someone watches"): Redis
 * messages per second that carry the robot's live updates, with 0%, 10% and 100% of the users
 * connected, in one run. The scaled set-up in this process: a server with the robot holding
 * every account by lease (PostgreSQL, Redis, a strategy that signals on every tick, the market
 * at 20 times its pace) and a second server without a robot on the same schema and Redis, as a
 * web process would be. USERS traders (default 50) each with operations open; for each share
 * of them, their sockets connect to the web process (so every update they get crosses Redis;
 * SOCKETS_ON=holder connects them to the robot's process instead), then for WINDOW_MS (default
 * 10 s) a subscriber counts the messages on these users' channels. PostgreSQL at
 * TEST_DATABASE_URL (default the local `test` database; a schema of its own, dropped after),
 * Redis at REDIS_URL (default redis://127.0.0.1:6379). Prints one JSON line per share.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { FixedSignalStrategy } from '@tradebot/robot';
import { Redis } from 'ioredis';

process.env.TEST_DB_ENGINE = 'postgres';
process.env.TEST_DATABASE_URL ??=
  process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const { createTestDatabase } = await import('../test/helpers/database');
const { replica, testConfig } = await import('../test/helpers/app');
const { trader } = await import('../test/helpers/trading');
const { connectClient, listen } = await import('../test/helpers/realtime-client');
const { until, sleep } = await import('../test/helpers/until');
const { buildApp } = await import('../src/app');

const users = Number(process.env.USERS ?? 50);
const shares = (process.env.SHARES ?? '0,0.1,1').split(',').map(Number);
const windowMs = Number(process.env.WINDOW_MS ?? 10_000);
const socketsOn = process.env.SOCKETS_ON ?? 'web';
const env = {
  REDIS_URL: redisUrl,
  ROBOT_LEASES: 'true',
  ROBOT_LEASE_MS: '15000',
  ROBOT_LEASE_RENEW_MS: '3000',
  ROBOT_LEASE_MARGIN_MS: '5000',
  MARKET_TICK_MS: '1000',
  MARKET_SPEED: '20',
};
const strategy = () => ({
  robotStrategy: new FixedSignalStrategy(0.999, ['buy', 'sale']),
  billingTimers: false,
});

const testDatabase = await createTestDatabase();
const dataDir = path.join(os.tmpdir(), `tradebot-bench-presence-${testDatabase.schema}`);
const holder = await buildApp(
  testConfig(dataDir, {
    ...env,
    ROBOT_ENABLED: 'true',
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent',
  }),
  {
    rateLimitRedisPrefix: `bench:${testDatabase.schema}:rate-limit:`,
    ...strategy(),
    database: testDatabase.database,
  },
);
await holder.ready();
const web = await replica(
  { app: holder, testDatabase, mailDir: path.join(dataDir, 'mail') },
  { ...env, ROBOT_ENABLED: 'false' },
  undefined,
  { billingTimers: false },
);
const subscriber = new Redis(redisUrl);
try {
  const traders: { userId: string; token: string }[] = [];
  for (let i = 0; i < users; i++) {
    const { userId, token } = await trader(holder, {
      email: `presence-${String(i)}@example.com`,
      remoteAddress: `10.40.${String(Math.floor(i / 250))}.${String(i % 250)}`,
    });
    traders.push({ userId, token });
  }
  await until(
    'every account held with operations open',
    async () => {
      let open = 0;
      for (const { userId } of traders) {
        if (((await holder.robot?.projection(userId))?.trades.length ?? 0) > 0) open++;
      }
      return open === users;
    },
    300_000,
  );
  const ours = new Set(traders.map(({ userId }) => `tradebot:realtime#/#user:${userId}#`));
  let messages = 0;
  subscriber.on('pmessage', (_pattern: string, channel: string) => {
    if (ours.has(channel)) messages++;
  });
  await subscriber.psubscribe('tradebot:realtime#/#user:*');
  const address = await listen(socketsOn === 'holder' ? holder : web);
  for (const share of shares) {
    const connected = await Promise.all(
      traders
        .slice(0, Math.round(users * share))
        .map(({ token }) => connectClient(address, { auth: { token } })),
    );
    // The holder hears the announcements and starts sending.
    await sleep(2_000);
    const received = () => connected.reduce((sum, client) => sum + client.events.length, 0);
    const before = { messages, received: received(), at: performance.now() };
    await sleep(windowMs);
    const seconds = (performance.now() - before.at) / 1000;
    console.log(
      JSON.stringify({
        users,
        connected: connected.length,
        socketsOn,
        redisPublishesPerSecond: Math.round(((messages - before.messages) / seconds) * 10) / 10,
        eventsReceivedPerSecond: Math.round(((received() - before.received) / seconds) * 10) / 10,
      }),
    );
    for (const client of connected) client.socket.close();
    // The holder hears that they left.
    await sleep(2_000);
  }
} finally {
  subscriber.disconnect();
  await web.close();
  await holder.close();
  await testDatabase.drop();
  await fs.rm(dataDir, { recursive: true, force: true });
}
process.exit(0);
