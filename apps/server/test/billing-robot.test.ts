import { eq, sql } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { brokerGifts, platformDeposits } from '../src/db/schema';
import { PromoCodesRepository } from '../src/repositories/promo-codes.repository';
import {
  bearer,
  getSettings,
  login,
  registeredToken,
  v1,
  validRegistration,
} from './helpers/accounts';
import {
  overview,
  pay,
  postWebhook,
  simSecret,
  simulatedEvents,
  submitCard,
  testCards,
} from './helpers/billing';
import { getAllData, robotOf, trader, useRobotApp } from './helpers/trading';

const dayMs = 86_400_000;

/** The robot and billing together: the yearly gift, and access that ends stopping the robot. */
const context = useRobotApp({ SIM_PAY_WEBHOOK_SECRET: simSecret }, { billingTimers: false });
beforeEach(async () => {
  await context.app.listen({ port: 0, host: '127.0.0.1' });
});

async function userIdOf(token: string): Promise<string> {
  return (await getSettings(context.app, token)).json<{ data: { user: { id: string } } }>().data
    .user.id;
}

async function deposits(userId: string): Promise<number[]> {
  const rows = await context.app.database.db
    .select({ cents: platformDeposits.cents })
    .from(platformDeposits)
    .where(eq(platformDeposits.accountId, userId))
    .orderBy(platformDeposits.depositedAt);
  return rows.map((row) => row.cents);
}

describe('the yearly plan’s $100 gift at the built-in platform', () => {
  it('is owed until the account opens, then granted exactly once (replays change nothing)', async () => {
    const { app } = context;
    const token = await registeredToken(app);
    const userId = await userIdOf(token);
    await pay(app, token, 'yearly');
    expect((await overview(app, token)).gift).toEqual({ cents: 10_000, status: 'owed' });

    // What the linking flow does: open the account, then ask for the gift.
    const robot = robotOf(app);
    await robot.openAccount(userId, 50_000);
    expect(await app.services.billing.grantPendingGift(userId)).toBe(true);
    expect(await app.services.billing.grantPendingGift(userId)).toBe(false);
    await Promise.all([
      app.services.billing.grantPendingGift(userId),
      app.services.billing.grantPendingGift(userId),
    ]);
    for (const event of await simulatedEvents(app)) {
      for (let replay = 0; replay < 3; replay++) {
        await postWebhook(
          app,
          JSON.stringify(event.payload),
          Math.floor(context.clock.now().getTime() / 1000),
        );
      }
    }
    await app.services.billing.runDue();
    expect(await deposits(userId)).toEqual([50_000, 10_000]);
    expect((await robot.account(userId))?.balanceCents).toBe(60_000);
    expect((await overview(app, token)).gift).toEqual({ cents: 10_000, status: 'granted' });
  });

  it('is granted at once when the account already exists', async () => {
    const { app } = context;
    const { token, userId } = await trader(app, { depositCents: 100_000 });
    await pay(app, token, 'yearly');
    expect(await deposits(userId)).toEqual([100_000, 10_000]);
    // A monthly plan has no gift.
    const monthly = await trader(app, { email: 'mensual@example.com', depositCents: 100_000 });
    await pay(app, monthly.token, 'monthly');
    expect(await deposits(monthly.userId)).toEqual([100_000]);
  });

  it('a grant cut between the deposit and its record is recognised, not repeated', async () => {
    const { app } = context;
    const robot = robotOf(app);
    const landed = await registeredToken(app, 'landed@example.com');
    const lost = await registeredToken(app, 'lost@example.com');
    for (const token of [landed, lost]) await pay(app, token, 'yearly');
    const landedId = await userIdOf(landed);
    const lostId = await userIdOf(lost);
    for (const userId of [landedId, lostId]) {
      await robot.openAccount(userId, 20_000);
      // The state a stop leaves when it comes after the grant started.
      await app.database.db
        .update(brokerGifts)
        .set({ status: 'granting', grantStartedAt: new Date(robot.now()) })
        .where(eq(brokerGifts.userId, userId));
    }
    // One deposit had reached the platform before the stop; the other had not.
    await robot.deposit(landedId, 10_000);

    await app.services.billing.grantPendingGifts();
    expect(await deposits(landedId)).toEqual([20_000, 10_000]);
    expect(await deposits(lostId)).toEqual([20_000, 10_000]);
    const statuses = await app.database.db
      .select({ status: brokerGifts.status })
      .from(brokerGifts)
      .where(sql`${brokerGifts.userId} in (${landedId}, ${lostId})`);
    expect(statuses.map((row) => row.status)).toEqual(['granted', 'granted']);
  });
});

describe('when access ends, the robot stops', () => {
  it('a refund within 7 days: no new operations; the live account stays readable (decision 063)', async () => {
    const { app } = context;
    const { token, userId, headers } = await trader(app);
    await pay(app, token, 'monthly');
    const robot = robotOf(app);
    expect((await robot.accountStatus(userId)).idleReason).not.toBe('ROBOT_OFF');
    expect((await getAllData(app, headers)).statusCode).toBe(200);

    const refund = await app.inject({
      method: 'POST',
      url: `${v1}/billing/refund`,
      headers: bearer(token),
      payload: {},
    });
    expect(refund.statusCode).toBe(200);
    expect((await robot.accountStatus(userId)).idleReason).toBe('ROBOT_OFF');
    // Read-only, with the kill switch: see test/access-ended.test.ts.
    const readable = await getAllData(app, headers);
    expect(readable.statusCode).toBe(200);
    expect(readable.json<{ data: { robot: { idleReason: string } } }>().data.robot.idleReason).toBe(
      'NOT_AUTHORIZED',
    );
  });

  it('the free month ends on the clock: the robot stops with it', async () => {
    const { app } = context;
    await new PromoCodesRepository(app.database.db).upsert({
      code: 'MESGRATIS',
      benefit: 'free_month',
      validFrom: new Date('2026-01-01T00:00:00Z'),
    });
    const { userId } = await trader(app, { authorized: false });
    const robot = robotOf(app);
    expect((await robot.accountStatus(userId)).idleReason).toBe('ROBOT_OFF');
    const session = await login(app, {
      email: 'trader@example.com',
      password: validRegistration.password,
      rememberMe: true,
    });
    const token = session.json<{ data: { token: string } }>().data.token;
    const applied = await app.inject({
      method: 'PUT',
      url: `${v1}/update-promocode`,
      headers: bearer(token),
      payload: { promocode: 'MESGRATIS' },
    });
    expect(applied.statusCode).toBe(200);
    expect((await robot.accountStatus(userId)).idleReason).not.toBe('ROBOT_OFF');

    context.clock.advance(30 * dayMs + 1000);
    await app.services.billing.runDue();
    expect((await robot.accountStatus(userId)).idleReason).toBe('ROBOT_OFF');
  });

  it('a declined renewal (past_due) stops the robot; paying with a new card starts it again', async () => {
    const { app } = context;
    const { token, userId, headers } = await trader(app);
    await pay(app, token, 'monthly', testCards.renewalsDeclined);
    const robot = robotOf(app);
    expect((await robot.accountStatus(userId)).idleReason).not.toBe('ROBOT_OFF');

    // Just past the period's end: the renewal is declined.
    const periodEnd = (await overview(app, token)).subscription?.currentPeriodEnd ?? '';
    context.clock.advance(Date.parse(periodEnd) - context.clock.now().getTime() + 60_000);
    await app.services.billing.runDue();
    const login1 = await login(app, {
      email: 'trader@example.com',
      password: validRegistration.password,
      rememberMe: true,
    });
    const fresh = login1.json<{ data: { token: string } }>().data.token;
    expect((await overview(app, fresh)).subscription?.status).toBe('past_due');
    expect((await robot.accountStatus(userId)).idleReason).toBe('ROBOT_OFF');
    const readable = await getAllData(app, { ...headers, ...bearer(fresh) });
    expect(readable.statusCode).toBe(200);
    expect(readable.json<{ data: { robot: { idleReason: string } } }>().data.robot.idleReason).toBe(
      'NOT_AUTHORIZED',
    );

    const portal = await app.inject({
      method: 'POST',
      url: `${v1}/billing/portal`,
      headers: bearer(fresh),
      payload: {},
    });
    const url = portal.json<{ data: { url: string } }>().data.url;
    expect((await submitCard(app, url, testCards.pays)).statusCode).toBe(303);
    await app.services.billing.runDue();
    expect((await overview(app, fresh)).subscription?.status).toBe('active');
    expect((await robot.accountStatus(userId)).idleReason).not.toBe('ROBOT_OFF');
  });
});
