import { FixedSignalStrategy } from '@tradebot/robot';
import type { RealtimeInfo } from '@tradebot/contract';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { rowsOf } from '../src/db/migrate';
import { userRoom } from '../src/realtime/socket-gateway';
import { replica, useTestApp } from './helpers/app';
import { testEngine } from './helpers/database';
import { connectClient, listen, type TestClient } from './helpers/realtime-client';
import { trader } from './helpers/trading';
import { sleep, until } from './helpers/until';

// Issue 40, "publish only what someone watches": in the scaled set-up (leases, PostgreSQL and
// Redis) the robot's live updates for an account cross Redis only while its user has a socket
// on some process, and a socket that connects gets the account's figures as they are now,
// whichever process holds the account.

const redisUrl = process.env.TEST_REDIS_URL ?? '';
const leased = {
  REDIS_URL: redisUrl,
  ROBOT_LEASES: 'true',
  ROBOT_LEASE_MS: '3000',
  ROBOT_LEASE_RENEW_MS: '300',
  ROBOT_LEASE_MARGIN_MS: '1000',
  MARKET_TICK_MS: '1000',
  MARKET_SPEED: '20',
};
const strategy = () => ({
  robotStrategy: new FixedSignalStrategy(0.999, ['buy', 'sale']),
  billingTimers: false,
});

/** The Socket.IO Redis adapter's channel for what is sent to one user's room. */
const userChannel = (userId: string) => `tradebot:realtime#/#${userRoom(userId)}#`;

describe.skipIf(testEngine !== 'postgres' || !redisUrl)(
  'live updates cross Redis only for users watching',
  () => {
    // The first process runs a robot and holds the account; the others are replicas on the
    // same schema and Redis, with no robot.
    const context = useTestApp(() => ({ ...leased, ROBOT_ENABLED: 'true' }), strategy);
    const apps: FastifyInstance[] = [];
    const clients: TestClient[] = [];
    const redis: Redis[] = [];
    afterEach(async () => {
      for (const client of clients.splice(0)) client.socket.close();
      for (const app of apps.splice(0)) await app.close();
      for (const connection of redis.splice(0)) connection.disconnect();
    });

    async function webProcess() {
      const app = await replica(context, { ...leased, ROBOT_ENABLED: 'false' }, undefined, {
        billingTimers: false,
      });
      apps.push(app);
      return { app, address: await listen(app) };
    }

    async function connect(address: string, token: string) {
      const client = await connectClient(address, { auth: { token } });
      clients.push(client);
      return client;
    }

    /**
     * What a socket knows once the connect's figures and the robot's status reached it: its
     * events so far merged, the later over the earlier (10 s at most).
     */
    async function knownOnConnect(client: Awaited<ReturnType<typeof connect>>) {
      const known = (): RealtimeInfo => {
        const merged: RealtimeInfo = {};
        for (const event of client.events) Object.assign(merged, event.info as RealtimeInfo);
        return merged;
      };
      await until(
        'the current figures to reach the socket',
        () => known().robot !== undefined,
        10_000,
      );
      return known();
    }

    /** Counts the messages Redis carries to the user's room (what other processes receive). */
    async function countPublishes(userId: string) {
      const subscriber = new Redis(redisUrl);
      redis.push(subscriber);
      const counted = { messages: 0 };
      subscriber.on('message', () => {
        counted.messages++;
      });
      await subscriber.subscribe(userChannel(userId));
      return counted;
    }

    const openOperations = async (accountId: string) =>
      Number(
        rowsOf<{ n: string | number }>(
          await context.testDatabase.database.db.execute(sql`
            select count(*) as n from operations
            where account_id = ${accountId} and close_reason = 'open'`),
        )[0]?.n ?? 0,
      );

    /** The robot process holds the trader's account, with operations open there. */
    async function heldAccount() {
      const holder = context.app;
      const user = await trader(holder);
      await until(
        'the holder to claim the account and trade it',
        async () => holder.robot?.hasAccount(user.userId) === true,
        30_000,
      );
      await until('operations open', async () => (await openOperations(user.userId)) >= 1, 30_000);
      return { holder, ...user };
    }

    it('no publish for an account nobody watches; publishes flow while a socket is open somewhere, and stop after', async () => {
      const { holder, userId, token } = await heldAccount();
      const { address } = await webProcess();
      const published = await countPublishes(userId);

      // Nobody connected: prices move the account's equity (read here every 250 ms, which also
      // keeps the account watched at the holder), and nothing of it crosses Redis.
      const equities = new Set<number>();
      for (let i = 0; i < 12; i++) {
        const projection = await holder.robot?.projection(userId);
        if (projection) equities.add(projection.account.equity);
        await sleep(250);
      }
      expect(equities.size).toBeGreaterThan(1);
      expect(published.messages).toBe(0);

      // A socket on the process that does not hold the account: the holder's updates cross.
      const client = await connect(address, token);
      await until('updates to cross Redis', () => published.messages >= 3, 15_000);
      expect(client.events.some((event) => (event.info as RealtimeInfo).account)).toBe(true);

      // The socket closes: once the holder heard so, the publishes stop.
      client.socket.close();
      await until(
        'the holder to hear that nobody listens',
        () => !holder.realtime.hasListeners(userId),
      );
      await sleep(600);
      const after = published.messages;
      await sleep(3_000);
      expect(published.messages).toBe(after);
    }, 120_000);

    it('updates for a user whose only sockets are on the holder stay off Redis', async () => {
      const { holder, userId, token } = await heldAccount();
      // Another process on the adapter, with no socket of the user.
      await webProcess();
      const published = await countPublishes(userId);

      const client = await connect(await listen(holder), token);
      await until('updates to reach the socket', () => client.events.length >= 4, 15_000);
      expect(client.events.some((event) => (event.info as RealtimeInfo).account)).toBe(true);
      expect(published.messages).toBe(0);
    }, 120_000);

    it('a socket connecting to a process that does not hold the account gets its current figures at once', async () => {
      const { holder, userId, token } = await heldAccount();
      const { address } = await webProcess();
      const owner = rowsOf<{ owner: string }>(
        await context.testDatabase.database.db.execute(
          sql`select owner from robot_leases where account_id = ${userId}`,
        ),
      )[0]?.owner;

      const connectedAt = performance.now();
      const client = await connect(address, token);
      // The whole of what the dashboard shows live: figures, currency, open rows and the
      // robot's status (the holder's), not only the next equity move. A live update may reach
      // the socket while the figures are read, and then carries some of them (the figures leave
      // out what it overtook): what the socket knows is every event so far, merged.
      const first = await knownOnConnect(client);
      const elapsedMs = performance.now() - connectedAt;
      expect(first.account).toBeDefined();
      expect(first.accountCurrency).toBe('USD');
      expect(first.trades?.length).toBeGreaterThan(0);
      expect(first.robot).toMatchObject({ bot_on: true, holder: { process: owner } });
      const live = await holder.robot?.projection(userId);
      expect(first.trades?.every((row) => typeof row.id === 'string')).toBe(true);
      expect(live).toBeDefined();
      expect(elapsedMs).toBeLessThan(5_000);

      // The same on the holder itself.
      const local = await connect(await listen(holder), token);
      const firstLocal = await knownOnConnect(local);
      expect(firstLocal.robot).toMatchObject({ holder: { process: owner } });
      expect(firstLocal.accountCurrency).toBe('USD');
    }, 120_000);
  },
);
