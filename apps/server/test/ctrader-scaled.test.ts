import { FixedSignalStrategy } from '@tradebot/robot';
import {
  BTCUSD,
  DEMO_ACCOUNT,
  FAKE_APP,
  FakeCTraderOAuthServer,
  FakeCTraderServer,
  fakeOptions,
} from '@tradebot/robot/ctrader/fake';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../src/db/migrate';
import { replica, useTestApp } from './helpers/app';
import { ctraderEnv, linkCTraderAccount } from './helpers/ctrader';
import { testEngine } from './helpers/database';
import { paidUser } from './helpers/linking';
import { until } from './helpers/until';

// Decision 105 (addendum): in the scaled set-up a cTrader link, unlink or refreshed token served
// by one process reaches every robot process, since the account may be held (or later claimed)
// by any of them. Before, only the serving process's robot read the grants again: a holder
// elsewhere claimed the account and never started its run at the broker.

describe.skipIf(testEngine !== 'postgres' || !process.env.TEST_REDIS_URL)(
  'a cTrader link served by a process without the robot reaches the robot process',
  () => {
    let broker: FakeCTraderServer;
    let oauth: FakeCTraderOAuthServer;
    /** One set of keys for every process: the grant sealed by one is opened by another. */
    let shared: Record<string, string> = {};
    beforeAll(async () => {
      broker = new FakeCTraderServer(fakeOptions({ symbols: [BTCUSD] }));
      await broker.listen();
      oauth = new FakeCTraderOAuthServer({
        ...FAKE_APP,
        accessToken: DEMO_ACCOUNT.accessToken,
        onTokenReplaced: (previous, next) => {
          broker.replaceToken(previous, next);
        },
      });
      await oauth.listen();
      shared = ctraderEnv(broker, oauth);
    });
    afterAll(async () => {
      await oauth.close();
      await broker.close();
    });

    const leased = () => ({
      ...shared,
      REDIS_URL: process.env.TEST_REDIS_URL ?? '',
      ROBOT_LEASES: 'true',
      ROBOT_LEASE_MS: '3000',
      ROBOT_LEASE_RENEW_MS: '300',
      ROBOT_LEASE_MARGIN_MS: '1000',
    });
    const strategy = () => ({
      robotStrategy: new FixedSignalStrategy(0.999, ['buy']),
      billingTimers: false,
    });
    // The robot process; the web process below serves the user and runs no robot.
    const context = useTestApp(() => ({ ...leased(), ROBOT_ENABLED: 'true' }), strategy);
    const apps: FastifyInstance[] = [];
    afterEach(async () => {
      for (const app of apps.splice(0)) await app.close();
    });

    const leaseOwner = async (accountId: string) =>
      rowsOf<{ owner: string }>(
        await context.testDatabase.database.db.execute(sql`
          select owner from robot_leases
          where account_id = ${accountId} and owner <> '' and lease_until > now()`),
      )[0]?.owner;

    it('the robot process claims the newly linked account and trades it at the broker', async () => {
      const robotProcess = context.app;
      const web = await replica(context, { ...leased(), ROBOT_ENABLED: 'false' }, undefined, {
        billingTimers: false,
      });
      apps.push(web);
      expect(web.robot).toBeUndefined();
      const { userId, headers } = await paidUser(web, 'scaled-ctrader@example.com');

      await linkCTraderAccount(web, headers, DEMO_ACCOUNT.ctidTraderAccountId);

      // The robot process claims the account at its next lease round and runs it at the broker
      // with the grant the web process stored: its projection comes from the broker's account.
      await until(
        'the robot process to hold and run the linked cTrader account',
        async () =>
          (await leaseOwner(userId)) !== undefined &&
          robotProcess.robot?.hasAccount(userId) === true,
        20_000,
      );
      // The figures are the broker account's (10,000.00 at the fake), not a built-in account's.
      const projection = await robotProcess.robot?.projection(userId);
      expect(projection?.figures.balanceCents).toBe(1_000_000);
    }, 60_000);
  },
);
