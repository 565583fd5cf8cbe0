import { simpleParser } from 'mailparser';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  bearer,
  getSettings,
  login,
  readMails,
  registeredToken,
  v1,
  validRegistration,
} from './helpers/accounts';
import { adminPasswordStep, auditEntries, createAdmin, signedInAdmin } from './helpers/admin';
import { overview, pay, simSecret } from './helpers/billing';
import { getAllData, robotOf, trader, useRobotApp } from './helpers/trading';

const dayMs = 86_400_000;

/**
 * The 30-day guarantee honoured from the console (decisions 048 and 059): the real app with
 * the simulated provider and the robot, on a clock the test moves.
 */
describe('support refunds a user under the 30-day guarantee', () => {
  const context = useRobotApp({ SIM_PAY_WEBHOOK_SECRET: simSecret }, { billingTimers: false });
  beforeEach(async () => {
    await context.app.listen({ port: 0, host: '127.0.0.1' });
  });

  const refund = (userId: string, headers: Record<string, string>) =>
    context.app.inject({
      method: 'POST',
      url: `${v1}/admin/users/${userId}/guarantee-refund`,
      headers,
    });

  /** A fresh session: the clock moved past the one opened at registration. */
  const signIn = async (email: string) => {
    const answer = await login(context.app, {
      email,
      password: validRegistration.password,
      rememberMe: true,
    });
    return answer.json<{ data: { token: string } }>().data.token;
  };

  it('refunds the first payment, ends access, stops the robot, mails the user, audits it', async () => {
    const { app, clock } = context;
    const { token, userId } = await trader(app);
    await pay(app, token, 'monthly');
    const until = new Date(clock.now().getTime() + 30 * dayMs).toISOString();
    clock.advance(20 * dayMs);
    const robot = robotOf(app);
    expect((await robot.accountStatus(userId)).idleReason).not.toBe('ROBOT_OFF');
    const admin = await createAdmin(app);
    const headers = await signedInAdmin(app, clock, admin);

    const before = await app.inject({ url: `${v1}/admin/users/${userId}`, headers });
    expect(before.json()).toMatchObject({
      data: {
        user: { authorized: true },
        subscription: { plan: 'monthly', status: 'active', freeMonth: false },
        firstPayment: { amountCents: 2_900, currency: 'USD', refundedAt: null },
        guarantee: { eligible: true, until, reason: null },
      },
    });

    const refunded = await refund(userId, headers);
    expect(refunded.statusCode).toBe(200);
    expect(refunded.json()).toMatchObject({
      data: {
        user: { authorized: false },
        subscription: { status: 'refunded', accessUntil: null },
        firstPayment: { refundedAt: clock.now().toISOString() },
        guarantee: { eligible: false, reason: 'refunded' },
      },
    });
    // Access ended: the user's own view, the robot and the live data all say so. The live
    // account stays readable, with the kill switch (decision 063).
    const user = await signIn('trader@example.com');
    expect((await overview(app, user)).subscription?.status).toBe('refunded');
    expect(
      (await getSettings(app, user)).json<{ data: { authorized: boolean } }>().data.authorized,
    ).toBe(false);
    expect((await robot.accountStatus(userId)).idleReason).toBe('ROBOT_OFF');
    const live = await getAllData(app, bearer(user));
    expect(live.statusCode).toBe(200);
    expect(live.json<{ data: { robot: { idleReason: string } } }>().data.robot.idleReason).toBe(
      'NOT_AUTHORIZED',
    );
    const mails = await Promise.all(
      (await readMails(context.mailDir, 2)).map((mail) => simpleParser(mail)),
    );
    expect(mails.map((mail) => mail.subject)).toContain('Te devolvimos el pago de tu suscripción');

    const entries = await auditEntries(app, headers);
    const requested = entries.find((item) => item.action === 'guarantee.refund_requested');
    const entry = entries.find((item) => item.action === 'guarantee.refunded');
    // Written before the provider was called, with the same state before and nothing after.
    expect(requested).toMatchObject({ admin: { email: admin.email }, after: null });
    expect(requested?.before).toEqual(entry?.before);
    expect(entry).toMatchObject({
      action: 'guarantee.refunded',
      targetType: 'user',
      targetId: userId,
      admin: { email: admin.email },
      before: {
        authorized: true,
        subscription: { status: 'active', plan: 'monthly' },
        firstPayment: { amountCents: 2_900, refundedAt: null },
        guaranteeUntil: until,
      },
      after: {
        authorized: false,
        subscription: { status: 'refunded', accessUntil: null },
        firstPayment: { amountCents: 2_900, refundedAt: clock.now().toISOString() },
      },
    });

    // Once only: a second refund is a conflict, in the admin's language, and is not audited.
    const again = await refund(userId, { ...headers, 'accept-language': 'pt-BR' });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({
      code: 'CONFLICT',
      message: 'O primeiro pagamento deste usuário já foi reembolsado.',
    });
    const actions = (await auditEntries(app, headers)).map((item) => item.action);
    expect(actions.filter((action) => action === 'guarantee.refunded')).toHaveLength(1);
    expect(actions.filter((action) => action === 'guarantee.refund_requested')).toHaveLength(1);
  });

  it('refuses after 30 days and without a payment, saying why', async () => {
    const { app, clock } = context;
    const late = await trader(app, { email: 'late@example.com' });
    await pay(app, late.token, 'monthly');
    const until = new Date(clock.now().getTime() + 30 * dayMs).toISOString();
    const unpaid = await trader(app, { email: 'unpaid@example.com' });
    clock.advance(30 * dayMs);
    const headers = await signedInAdmin(app, clock, await createAdmin(app));

    const detail = await app.inject({ url: `${v1}/admin/users/${late.userId}`, headers });
    expect(detail.json()).toMatchObject({
      data: { guarantee: { eligible: false, until, reason: 'expired' } },
    });
    const expired = await refund(late.userId, headers);
    expect(expired.statusCode).toBe(409);
    expect(expired.json<{ message: string }>().message).toBe(
      'Pasaron más de 30 días desde el primer pago: la garantía ya no se aplica.',
    );
    expect((await overview(app, await signIn('late@example.com'))).payments[0]?.status).toBe(
      'paid',
    );

    const none = await refund(unpaid.userId, headers);
    expect(none.statusCode).toBe(409);
    expect(none.json<{ message: string }>().message).toBe(
      'Este usuario no tiene pagos: no hay nada que reembolsar con la garantía de 30 días.',
    );
    const missing = await refund('00000000-0000-4000-8000-000000000000', headers);
    expect(missing.statusCode).toBe(404);
    // A refusal is not a request: neither entry is written.
    const actions = (await auditEntries(app, headers)).map((item) => item.action);
    expect(actions).not.toContain('guarantee.refunded');
    expect(actions).not.toContain('guarantee.refund_requested');
  });

  it("is the console's alone: a user's token gets 403, a session without its code 401", async () => {
    const { app } = context;
    const { token, userId } = await trader(app);
    await pay(app, token, 'monthly');
    const asUser = await refund(userId, bearer(await registeredToken(app, 'other@example.com')));
    expect(asUser.statusCode).toBe(403);
    const admin = await createAdmin(app);
    const passwordOnly = (await adminPasswordStep(app, admin)).json<{ data: { token: string } }>()
      .data.token;
    const halfway = await refund(userId, bearer(passwordOnly));
    expect(halfway.statusCode).toBe(401);
    expect(halfway.json<{ message: string }>().message).toBe(
      'Falta el segundo factor: ingresa el código de tu aplicación de autenticación.',
    );
    expect((await refund(userId, {})).statusCode).toBe(401);
    // Nothing was refunded by any of them.
    expect((await overview(app, token)).subscription?.status).toBe('active');
  });
});
