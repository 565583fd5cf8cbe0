import { FixedSignalStrategy } from '@tradebot/robot';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { rowsOf } from '../src/db/migrate';
import { tradingPlatformLinks } from '../src/db/schema';
import { registeredToken, v1, validRegistration } from './helpers/accounts';
import { overview, pay } from './helpers/billing';
import { replica, useTestApp } from './helpers/app';
import { testEngine } from './helpers/database';
import { ledgerDifferences } from './helpers/leases';
import { robotSettingsPayload, trader } from './helpers/trading';
import { sleep, until } from './helpers/until';

// Decision 105: in the scaled set-up (leases, PostgreSQL and Redis), the kill switch, the open
// operations an unlinking leaves and deposits reach the process holding the account, whichever
// process served the request; with no holder the answer is a 503 the user retries, the robot
// already off in the database.

/** Leases renewed every `renewMs`, over Redis; the market at 20 times its pace. */
const leasedEvery = (renewMs: number, leaseMs: number, marginMs: number) => ({
  REDIS_URL: process.env.TEST_REDIS_URL ?? '',
  ROBOT_LEASES: 'true',
  ROBOT_LEASE_MS: String(leaseMs),
  ROBOT_LEASE_RENEW_MS: String(renewMs),
  ROBOT_LEASE_MARGIN_MS: String(marginMs),
  MARKET_TICK_MS: '1000',
  MARKET_SPEED: '20',
});
// Billing runs when the test says (a holder's own billing clock would grant the gift itself).
const strategy = () => ({
  robotStrategy: new FixedSignalStrategy(0.999, ['buy', 'sale']),
  billingTimers: false,
});

describe.skipIf(testEngine !== 'postgres' || !process.env.TEST_REDIS_URL)(
  'commands for an account reach the process holding it',
  () => {
    // 3 s leases renewed every 300 ms.
    const leased = leasedEvery(300, 3_000, 1_000);
    // The first process runs a robot; the others are replicas on the same schema and Redis,
    // each with its own Socket.IO server and Redis adapter.
    const context = useTestApp(() => ({ ...leased, ROBOT_ENABLED: 'true' }), strategy);
    const apps: FastifyInstance[] = [];
    afterEach(async () => {
      for (const app of apps.splice(0)) await app.close();
    });

    async function server(env: { ROBOT_ENABLED: 'true' | 'false' }) {
      const app = await replica(context, { ...leased, ...env }, undefined, strategy());
      apps.push(app);
      return app;
    }

    const db = () => context.testDatabase.database.db;
    const count = async (query: ReturnType<typeof sql>) =>
      Number(rowsOf<{ n: string | number }>(await db().execute(query))[0]?.n ?? 0);
    const leaseOwner = async (accountId: string) =>
      rowsOf<{ owner: string }>(
        await db().execute(sql`
          select owner from robot_leases
          where account_id = ${accountId} and owner <> '' and lease_until > now()`),
      )[0]?.owner;
    const openOperations = (accountId: string) =>
      count(sql`select count(*) as n from operations
        where account_id = ${accountId} and close_reason = 'open'`);
    const deposits = async (accountId: string) =>
      rowsOf<{ cents: string | number }>(
        await db().execute(sql`select cents from platform_deposits
          where account_id = ${accountId} order by deposited_at`),
      ).map((row) => Number(row.cents));
    const botOn = async (accountId: string) =>
      rowsOf<{ bot_on: boolean }>(
        await db().execute(sql`select bot_on from user_settings where user_id = ${accountId}`),
      )[0]?.bot_on;

    /** A robot process holding a trader's account, with operations open there. */
    async function heldAccount() {
      const holder = context.app;
      const user = await trader(holder);
      await until(
        'the holder to claim the account and trade it',
        async () =>
          (await leaseOwner(user.userId)) !== undefined &&
          holder.robot?.hasAccount(user.userId) === true &&
          (await openOperations(user.userId)) >= 2,
      );
      return { holder, owner: await leaseOwner(user.userId), ...user };
    }

    it('the kill switch pulled through a process that does not hold the account closes every operation at the holder', async () => {
      const { holder, owner, userId, headers } = await heldAccount();
      // A second robot process: one account for two processes, a share of one each, so the
      // holder keeps it and this one holds nothing.
      const other = await server({ ROBOT_ENABLED: 'true' });
      await sleep(1_000);
      expect(await leaseOwner(userId)).toBe(owner);
      expect(other.robot?.hasAccount(userId)).toBe(false);
      expect(await openOperations(userId)).toBeGreaterThan(0);

      const killed = await other.inject({ method: 'POST', url: `${v1}/robot/kill`, headers });
      expect(killed.statusCode).toBe(200);
      const { closed } = killed.json<{ data: { settings: { bot_on: boolean }; closed: number } }>()
        .data;
      expect(killed.json()).toMatchObject({ data: { settings: { bot_on: false } } });

      // Every operation open at the holder closed, by the kill switch, and the count says so.
      expect(await openOperations(userId)).toBe(0);
      const killedRows = await count(
        sql`select count(*) as n from operations
          where account_id = ${userId} and close_reason = 'kill'`,
      );
      // (Some may have met their take-profit or stop-loss meanwhile: the count is the holder's.)
      expect(closed).toBeGreaterThan(0);
      expect(closed).toBe(killedRows);
      expect((await holder.robot?.projection(userId))?.trades).toEqual([]);
      expect(await botOn(userId)).toBe(false);
      // The robot stays off at the holder: nothing opens afterwards.
      await sleep(1_500);
      expect(await openOperations(userId)).toBe(0);
      expect(await ledgerDifferences(db())).toEqual([]);

      // Again (a retry): nothing left to close, still an answer from the holder.
      const again = await other.inject({ method: 'POST', url: `${v1}/robot/kill`, headers });
      expect(again.statusCode).toBe(200);
      expect(again.json()).toMatchObject({ data: { closed: 0 } });
    }, 90_000);

    it('the dashboard served by a process without a robot shows the holder’s live figures', async () => {
      const { holder, userId, headers } = await heldAccount();
      const web = await server({ ROBOT_ENABLED: 'false' });
      interface Data {
        account: { equity: number; balance: number };
        trades: { id: string }[];
        robot: { idleReason: string | null; activity?: { categories: { category: string }[] } };
      }
      // Prices move every tick: read the holder's view, then the web process's answer, until
      // both saw the same moment with profit or loss open (equity apart from balance). The
      // booked ledger (what such a process showed before) has equity equal to balance, and its
      // status said "trading" whatever the holder's own reason.
      const ids = (trades: readonly { id: string }[]) => trades.map((t) => t.id).sort();
      await until('the web process to answer with the holder’s live figures', async () => {
        const live = await holder.robot?.projection(userId);
        const response = await web.inject({ url: `${v1}/get-all-data`, headers });
        expect(response.statusCode).toBe(200);
        const data = response.json<{ data: Data }>().data;
        return (
          live !== undefined &&
          live.account.equity !== live.account.balance &&
          data.account.equity === live.account.equity &&
          data.trades.length > 0 &&
          ids(data.trades).join() === ids(live.trades).join() &&
          data.robot.idleReason === live.status.idleReason &&
          // What the holder's robot does per category crosses processes too (decision 147).
          data.robot.activity?.categories.map((entry) => entry.category).join() ===
            live.status.activity?.categories.map((entry) => entry.category).join() &&
          (data.robot.activity?.categories.length ?? 0) > 0
        );
      });
    }, 90_000);

    it('unlinking through another process counts the operations left open at the holder', async () => {
      const { userId, headers } = await heldAccount();
      await db().insert(tradingPlatformLinks).values({
        userId,
        platform: 'tradebot-demo',
        platformAccountId: userId,
        linkedAt: new Date(),
      });
      const web = await server({ ROBOT_ENABLED: 'false' });
      const unlinked = await web.inject({
        method: 'POST',
        url: `${v1}/unlink-account`,
        headers,
        payload: { password: validRegistration.password, closeOperations: false },
      });
      expect(unlinked.statusCode).toBe(200);
      const { leftOpen } = unlinked.json<{ data: { leftOpen: number } }>().data;
      // The holder's count (the process serving the request runs no robot at all).
      expect(leftOpen).toBeGreaterThanOrEqual(2);
    }, 90_000);

    it('the yearly plan’s gift granted by a process without a robot lands at the holder', async () => {
      const holder = context.app;
      const web = await server({ ROBOT_ENABLED: 'false' });
      await web.listen({ port: 0, host: '127.0.0.1' });
      const token = await registeredToken(web, 'anual@example.com');
      await pay(web, token, 'yearly');
      const userId = (await web.services.auth.authenticate(token))?.user.id ?? '';
      expect((await overview(web, token)).gift).toEqual({ cents: 10_000, status: 'owed' });
      // The account opens at the robot process, which then takes its lease.
      await holder.robot?.openAccount(userId, 50_000);
      await until(
        'the holder to hold the account',
        async () =>
          (await leaseOwner(userId)) !== undefined && holder.robot?.hasAccount(userId) === true,
      );

      expect(await web.services.billing.grantPendingGift(userId)).toBe(true);
      expect(await deposits(userId)).toEqual([50_000, 10_000]);
      // The holder's platform booked it, not only the ledger.
      expect((await holder.robot?.account(userId))?.depositsCents).toBe(60_000);
      expect((await overview(web, token)).gift).toEqual({ cents: 10_000, status: 'granted' });
      expect(await web.services.billing.grantPendingGift(userId)).toBe(false);
      expect(await deposits(userId)).toEqual([50_000, 10_000]);
    }, 90_000);

    it('with no process holding the account: 503, and the robot already off', async () => {
      const { holder, userId, headers } = await heldAccount();
      const web = await server({ ROBOT_ENABLED: 'false' });
      // The holder stops (its leases go back) and no robot process is left to claim them.
      await holder.close();
      apps.splice(apps.indexOf(web), 1);
      context.app = web;
      expect(await leaseOwner(userId)).toBeUndefined();
      const open = await openOperations(userId);
      expect(open).toBeGreaterThan(0);

      const killed = await web.inject({ method: 'POST', url: `${v1}/robot/kill`, headers });
      expect(killed.statusCode).toBe(503);
      expect(killed.json()).toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
      expect(await botOn(userId)).toBe(false);
      expect(await openOperations(userId)).toBe(open);

      // A robot process takes the account: the retry closes everything through it.
      const next = await server({ ROBOT_ENABLED: 'true' });
      await until('a new holder', async () => next.robot?.hasAccount(userId) === true);
      await until('the lease to be the new holder’s', async () => {
        return (await leaseOwner(userId)) !== undefined;
      });
      const retried = await web.inject({ method: 'POST', url: `${v1}/robot/kill`, headers });
      expect(retried.statusCode).toBe(200);
      const { closed } = retried.json<{ data: { closed: number } }>().data;
      expect(closed).toBe(
        await count(sql`select count(*) as n from operations
          where account_id = ${userId} and close_reason = 'kill'`),
      );
      expect(await openOperations(userId)).toBe(0);
      expect(await ledgerDifferences(db())).toEqual([]);
    }, 90_000);
  },
);

describe.skipIf(testEngine !== 'postgres' || !process.env.TEST_REDIS_URL)(
  'a settings change served by a process that does not hold the account',
  () => {
    // Slow lease rounds (every 6 s): the holder reads the stored settings at each round anyway,
    // so only a change that reaches it at once lands well inside one.
    const leased = leasedEvery(6_000, 20_000, 5_000);
    const context = useTestApp(() => ({ ...leased, ROBOT_ENABLED: 'true' }), strategy);
    const apps: FastifyInstance[] = [];
    afterEach(async () => {
      for (const app of apps.splice(0)) await app.close();
    });

    it('reaches the holder at once, not at its next lease round', async () => {
      const holder = context.app;
      const { userId, headers } = await trader(holder);
      await until(
        'the holder to claim the account',
        () => holder.robot?.hasAccount(userId) === true,
        20_000,
      );
      const web = await replica(context, { ...leased, ROBOT_ENABLED: 'false' }, undefined, {
        billingTimers: false,
      });
      apps.push(web);
      await until(
        'the holder to run the robot with the stored settings (on)',
        async () => (await holder.robot?.accountStatus(userId))?.idleReason !== 'ROBOT_OFF',
        20_000,
      );

      const off = await web.inject({
        method: 'POST',
        url: `${v1}/settings`,
        headers,
        payload: robotSettingsPayload({ bot_on: false }),
      });
      expect(off.statusCode).toBe(200);
      // Well inside the 6 s between the holder's rounds.
      await until(
        'the holder to apply the robot off',
        async () => (await holder.robot?.accountStatus(userId))?.idleReason === 'ROBOT_OFF',
        1_000,
      );
    }, 60_000);
  },
);
