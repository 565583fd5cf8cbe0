import type { AdminUserDetail, TradingData } from '@tradebot/contract';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { rowsOf } from '../src/db/migrate';
import { v1 } from './helpers/accounts';
import { createAdmin, signedInAdmin } from './helpers/admin';
import { replica } from './helpers/app';
import { testEngine } from './helpers/database';
import { getAllData, trader, useRobotApp } from './helpers/trading';

// Decision 092 (amended): in the scaled set-up, the robot's status says which process holds the
// account and since when, in get-all-data and the console, whichever process answers.
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const dataOf = (response: { json: () => unknown }) =>
  (response.json() as { data: TradingData }).data;

async function leaseOf(app: FastifyInstance, accountId: string) {
  return rowsOf<{ owner: string; held_since: Date | string | null }>(
    await app.database.db.execute(sql`
      select owner, held_since from robot_leases
      where account_id = ${accountId} and owner <> '' and lease_until > now()`),
  )[0];
}

async function until<T>(what: string, read: () => Promise<T | undefined>): Promise<T> {
  for (let i = 0; i < 300; i++) {
    const value = await read();
    if (value !== undefined) return value;
    await sleep(100);
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe.skipIf(testEngine !== 'postgres')(
  'the robot status names the process holding the account',
  () => {
    // One account per process, so the second trader's account is held by nobody.
    const context = useRobotApp({
      ROBOT_LEASES: 'true',
      ROBOT_LEASE_MS: '3000',
      ROBOT_LEASE_RENEW_MS: '200',
      ROBOT_LEASE_MARGIN_MS: '1000',
      ROBOT_CAPACITY: '1',
    });
    let web: FastifyInstance | undefined;
    afterEach(async () => {
      await web?.close();
      web = undefined;
    });

    it('in get-all-data and the console, from the holder and from a process without a robot', async () => {
      const held = await trader(context.app, { email: 'held@example.com' });
      const lease = await until('the first account to be claimed', () =>
        leaseOf(context.app, held.userId),
      );
      const since = new Date(lease.held_since ?? '').toISOString();
      const unheld = await trader(context.app, { email: 'unheld@example.com' });

      // The holder answers: its own name, and the engine's own reason (on, trading or waiting).
      const fromHolder = await until('the holder to trade the account', async () => {
        const data = dataOf(await getAllData(context.app, held.headers));
        return data.robot.idleReason === 'TRADING_HALTED' ? undefined : data;
      });
      expect(fromHolder.robot.holder).toEqual({ process: lease.owner, since });
      expect(fromHolder.robot.bot_on).toBe(true);
      expect(fromHolder.robot.idleReason).not.toBe('NOT_LINKED');

      // A process serving the API without a robot (ROBOT_ENABLED=false): the account trades in
      // the holder, so it is trading, not "halted" nor "not linked".
      web = await replica(context, { ROBOT_LEASES: 'true' }, undefined, { clock: context.clock });
      const fromWeb = dataOf(await getAllData(web, held.headers));
      expect(fromWeb.robot).toEqual({
        bot_on: true,
        trading: true,
        idleReason: null,
        holder: { process: lease.owner, since },
      });
      // Capacity 1: nobody holds the second account; nothing trades it until a process claims it.
      expect(await leaseOf(context.app, unheld.userId)).toBeUndefined();
      expect(dataOf(await getAllData(web, unheld.headers)).robot).toEqual({
        bot_on: true,
        trading: false,
        idleReason: 'TRADING_HALTED',
        holder: null,
      });
      expect(dataOf(await getAllData(context.app, unheld.headers)).robot).toMatchObject({
        idleReason: 'TRADING_HALTED',
        holder: null,
      });

      // The console says the same, whichever process answers.
      const headers = await signedInAdmin(
        context.app,
        context.clock,
        await createAdmin(context.app),
      );
      for (const app of [context.app, web]) {
        const detail = await app.inject({ url: `${v1}/admin/users/${held.userId}`, headers });
        expect(detail.statusCode).toBe(200);
        expect(detail.json<{ data: AdminUserDetail }>().data.robot.holder).toEqual({
          process: lease.owner,
          since,
        });
        const none = await app.inject({ url: `${v1}/admin/users/${unheld.userId}`, headers });
        expect(none.json<{ data: AdminUserDetail }>().data.robot.holder).toBeNull();
      }
    }, 60_000);
  },
);
