import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { FixedSignalStrategy } from '@tradebot/robot';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { buildApp } from '../src/app';
import { notificationOutbox } from '../src/db/schema';
import { loadConfig } from '../src/config';
import { UsersRepository } from '../src/repositories/users.repository';
import { renewalSlackMs } from '../src/services/billing-rules';
import { useTestApp } from './helpers/app';
import { getSettings, manualClock, v1 } from './helpers/accounts';
import {
  customer,
  overview,
  pay,
  simSecret,
  simulatedEvents,
  startCheckout,
  submitCard,
  testCards,
} from './helpers/billing';
import { marketTickMs, robotOf, trader, useRobotApp } from './helpers/trading';

/**
 * Issue 18, finding 3: billing events made during start-up arrived about 67 s late (tried
 * before the server listened, then backed off), and meanwhile the robot traded for a
 * subscription already past due.
 */

async function userRow(app: FastifyInstance, userId: string) {
  const row = await new UsersRepository(app.database.db).findById(userId);
  if (!row) throw new Error(`no user ${userId}`);
  return row;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(check: () => Promise<boolean>, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return true;
    await sleep(50);
  }
  return check();
}

describe('events recorded before the server listens (SIM_PAY_WEBHOOK_URL behind a proxy)', () => {
  let target = '';
  let failNext = 0;
  const proxy = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      if (failNext > 0) {
        failNext -= 1;
        response.writeHead(503).end();
        return;
      }
      if (!target) {
        // The app behind the proxy is not up yet.
        response.writeHead(502).end();
        return;
      }
      const forwarded = http.request(
        `${target}${request.url ?? ''}`,
        { method: 'POST', headers: request.headers },
        (answer) => {
          response.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(response);
        },
      );
      forwarded.on('error', () => response.writeHead(502).end());
      forwarded.end(Buffer.concat(chunks));
    });
  });
  beforeAll(async () => {
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  });
  afterAll(async () => {
    await new Promise((resolve) => proxy.close(resolve));
  });
  const lines: string[] = [];
  const clock = manualClock(new Date('2026-11-21T12:00:00Z'));
  const context = useTestApp(
    () => ({
      SIM_PAY_WEBHOOK_SECRET: simSecret,
      SIM_PAY_WEBHOOK_URL: `http://127.0.0.1:${String((proxy.address() as AddressInfo).port)}${v1}/billing/webhooks/simulated`,
      LOG_LEVEL: 'warn',
    }),
    () => ({
      clock,
      // The timers as in production: the provider delivers by itself.
      billingTimers: true,
      logStream: { write: (line: string) => lines.push(line) },
    }),
  );

  it('are delivered as soon as it listens, not after a backoff; each retry is logged without secrets', async () => {
    const { app } = context;
    target = '';
    const user = await customer(app, clock);
    const { url } = await startCheckout(app, user, 'monthly');
    expect((await submitCard(app, url, testCards.pays)).statusCode).toBe(303);
    // The provider's own timer ticks every second: nothing is tried before the server listens.
    await sleep(1300);
    const before = await simulatedEvents(app);
    expect(before.length).toBeGreaterThan(0);
    expect(before.map((event) => event.attempts)).toEqual(before.map(() => 0));

    await app.listen({ port: 0, host: '127.0.0.1' });
    target = `http://127.0.0.1:${String((app.server.address() as AddressInfo).port)}`;
    failNext = 1;
    const delivered = () =>
      simulatedEvents(app).then((events) => events.every((event) => event.deliveredAt !== null));
    // One failure (logged), retried a second later on the provider's clock.
    await until(async () => (await simulatedEvents(app)).some((event) => event.attempts > 0), 3000);
    clock.advance(1000);
    expect(await until(delivered, 4000)).toBe(true);
    const settings = await getSettings(app, await user.token());
    expect(settings.json<{ data: { authorized: boolean } }>().data.authorized).toBe(true);

    const retries = lines
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((entry) => String(entry.msg).includes('webhook delivery failed'));
    expect(retries).toHaveLength(1);
    expect(retries[0]).toMatchObject({ attempts: 1, status: 503 });
    expect(typeof retries[0]?.eventId).toBe('string');
    expect(typeof retries[0]?.type).toBe('string');
    expect(lines.join('\n')).not.toContain(simSecret);
    expect(lines.join('\n')).not.toMatch(/signature|t=\d+,v1=/i);
  });
});

describe('a period that ended while the server was down', () => {
  const context = useRobotApp({ SIM_PAY_WEBHOOK_SECRET: simSecret }, { billingTimers: false });

  /** A paying trader whose renewal will be declined; the server is down `past` beyond the period's end. */
  async function downPastPeriodEnd(past: number) {
    await context.app.listen({ port: 0, host: '127.0.0.1' });
    const { token, userId } = await trader(context.app, { authorized: false });
    await pay(context.app, token, 'monthly', testCards.renewalsDeclined);
    expect((await robotOf(context.app).accountStatus(userId)).idleReason).not.toBe('ROBOT_OFF');
    const periodEnd = Date.parse(
      (await overview(context.app, token)).subscription?.currentPeriodEnd ?? '',
    );
    await context.app.close();

    context.clock.advance(periodEnd - context.clock.now().getTime() + past);
    const again = await buildApp(
      loadConfig({
        NODE_ENV: 'test',
        LOG_LEVEL: 'silent',
        WEB_DIST_DIR: path.join(os.tmpdir(), 'tradebot-no-web-build'),
        MARKET_TICK_MS: String(marketTickMs),
        MARKET_SEED: '12',
        TRACK_RECORD_ENABLED: 'false',
        SIM_PAY_WEBHOOK_SECRET: simSecret,
      }),
      {
        database: context.testDatabase.database,
        clock: context.clock,
        robotTimers: false,
        billingTimers: false,
        notificationTimers: false,
        robotStrategy: new FixedSignalStrategy(0.999, ['buy']),
      },
    );
    context.app = again;
    // What the user is told (issue 22: "the robot stopped … access ended").
    const told = async () => {
      await again.services.notifications.settled();
      const rows = await again.database.db
        .select({ payload: notificationOutbox.payload })
        .from(notificationOutbox)
        .where(
          and(eq(notificationOutbox.userId, userId), eq(notificationOutbox.kind, 'robot_stopped')),
        );
      return rows.map((row) => row.payload);
    };
    return { again, userId, told };
  }

  it('gives no access from the first moment of the next start: the robot does not trade on it', async () => {
    // Down across the period's end: the renewal (declined) has not been tried, no event sent.
    const { again, userId, told } = await downPastPeriodEnd(3_600_000);
    // Billing's first run, before the server listens: no event can have come yet.
    await again.services.billing.runDue();
    expect(await again.services.billing.overview(await userRow(again, userId))).toMatchObject({
      authorized: false,
      subscription: { status: 'past_due' },
    });
    // The robot is off for this user, and the user is told so, once.
    expect((await robotOf(again).accountStatus(userId)).idleReason).toBe('ROBOT_OFF');
    expect(await told()).toEqual([{ reason: 'access_ended' }]);
    await again.services.billing.runDue();
    expect(await told()).toEqual([{ reason: 'access_ended' }]);
  });

  it('tells the user when access ran out while it was down, before billing runs', async () => {
    // Down past the renewal's slack: access is taken away while the server starts, before
    // billing's clock (or the robot) runs; the user hears of it as from billing's run.
    const { again, userId, told } = await downPastPeriodEnd(renewalSlackMs + 3_600_000);
    expect((await robotOf(again).accountStatus(userId)).idleReason).toBe('ROBOT_OFF');
    expect(await told()).toEqual([{ reason: 'access_ended' }]);
    await again.services.billing.runDue();
    expect(await told()).toEqual([{ reason: 'access_ended' }]);
  });
});
