import { describe, expect, it } from 'vitest';
import { v1 } from './helpers/accounts';
import { createAdmin, signedInAdmin } from './helpers/admin';
import { billingAction, pay, simSecret } from './helpers/billing';
import {
  getAllData,
  openCount,
  postSettings,
  robotOf,
  robotSettingsPayload,
  runMarket,
  storedTrades,
  trader,
  useRobotApp,
} from './helpers/trading';

/**
 * Issue 18, finding 2 (docs/decisions/063-open-operations-when-access-ends.md): once access
 * ends with operations open, the robot opens nothing new and cannot be turned on, and the user
 * (and support) still see the operations and close them all.
 */
const context = useRobotApp(
  { SIM_PAY_WEBHOOK_SECRET: simSecret, LOG_LEVEL: 'error' },
  { billingTimers: false },
);

const settings = (botOn: boolean) => robotSettingsPayload({ bot_on: botOn, risk: 2 });

async function refundedTraderWithOpenOperations(language: 'es' | 'pt' = 'es') {
  const { app } = context;
  await app.listen({ port: 0, host: '127.0.0.1' });
  const who = await trader(app, { authorized: false });
  await pay(app, who.token, 'monthly');
  expect(await runMarket(context, async () => (await openCount(app, who.userId)) >= 2)).toBe(true);
  expect((await billingAction(app, who.token, 'refund')).statusCode).toBe(200);
  return { ...who, headers: { ...who.headers, 'accept-language': language } };
}

describe('a linked user whose access ended, with operations open', () => {
  it('reads them, cannot turn the robot on, gets nothing new opened, and closes them all', async () => {
    const { app } = context;
    const { userId, headers } = await refundedTraderWithOpenOperations();
    const open = await openCount(app, userId);
    expect(open).toBeGreaterThanOrEqual(2);

    const data = await getAllData(app, headers);
    expect(data.statusCode).toBe(200);
    const body = data.json<{
      data: {
        trades: unknown[];
        account: { balance: number } | null;
        robot: { idleReason: string };
      };
    }>().data;
    expect(body.trades).toHaveLength(open);
    expect(body.account).not.toBeNull();
    expect(body.robot.idleReason).toBe('NOT_AUTHORIZED');
    expect((await app.inject({ url: `${v1}/equity-curve?period=all`, headers })).statusCode).toBe(
      200,
    );

    // The robot opens nothing new.
    const before = (await storedTrades(app, userId)).length;
    await runMarket(context, () => false, 30);
    expect((await storedTrades(app, userId)).length).toBe(before);

    // It cannot be turned on; saved off, it may be.
    const on = await postSettings(app, headers, settings(true));
    expect(on.statusCode).toBe(403);
    expect(on.json<{ message: string }>().message).toBe(
      'Tu acceso terminó: el robot no abre operaciones nuevas y no puede encenderse hasta que pagues. Puedes ver tus operaciones abiertas y cerrarlas todas.',
    );
    expect((await postSettings(app, headers, settings(false))).statusCode).toBe(200);

    const killed = await app.inject({ method: 'POST', url: `${v1}/robot/kill`, headers });
    expect(killed.statusCode).toBe(200);
    expect(killed.json<{ data: { closed: number } }>().data.closed).toBe(open);
    expect(await openCount(app, userId)).toBe(0);
    expect(
      (await getAllData(app, headers)).json<{ data: { trades: unknown[] } }>().data.trades,
    ).toEqual([]);
  });

  it('in Portuguese too', async () => {
    const { app } = context;
    const { headers } = await refundedTraderWithOpenOperations('pt');
    const on = await postSettings(app, headers, settings(true));
    expect(on.statusCode).toBe(403);
    expect(on.json<{ message: string }>().message).toContain('Seu acesso terminou');
  });

  it("support pulls the user's kill switch whatever the billing state", async () => {
    const { app } = context;
    const { userId } = await refundedTraderWithOpenOperations();
    const open = await openCount(app, userId);
    const admin = await signedInAdmin(app, context.clock, await createAdmin(app));
    const killed = await app.inject({
      method: 'POST',
      url: `${v1}/admin/users/${userId}/robot/kill`,
      headers: admin,
    });
    expect(killed.statusCode).toBe(200);
    expect(killed.json()).toEqual({ data: { bot_on: false, closed: open } });
    expect(await openCount(app, userId)).toBe(0);
    expect(robotOf(app).running()).toBe(true);
  });
});
