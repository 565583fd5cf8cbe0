import { eq } from 'drizzle-orm';
import { simpleParser } from 'mailparser';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  notificationOutbox,
  operations,
  passwordResetCodes,
  payments,
  platformUsers,
  pushSubscriptions,
  sessions,
  simPayCheckouts,
  subscriptions,
  tradingPlatformLinks,
  users,
  userSettings,
} from '../src/db/schema';
import { anonymisedEmail } from '../src/services/account-deletion.service';
import { useTestApp } from './helpers/app';
import {
  bearer,
  getSettings,
  login,
  manualClock,
  readMails,
  registeredToken,
  v1,
  validRegistration,
} from './helpers/accounts';
import { customer, pay, simSecret } from './helpers/billing';
import { linkAccount, paidUser } from './helpers/linking';
import {
  openCount,
  postSettings,
  robotSettingsPayload,
  runMarket,
  storedTrades,
  useRobotApp,
} from './helpers/trading';

const publicUrl = 'https://app.tradebot.example';
const chromeOnWindows =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36';
const safariOnIphone =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
const forgedHost = { host: 'attacker.test', 'x-forwarded-host': 'evil.example' };
const newPassword = 'otraClave987';

describe('account settings', () => {
  let clock = manualClock();
  const context = useTestApp({ PUBLIC_URL: publicUrl, TRUST_PROXY: '1' }, () => {
    clock = manualClock(new Date('2026-11-21T12:00:00Z'));
    return { clock };
  });

  const signIn = async (userAgent: string, password = validRegistration.password) => {
    const answer = await context.app.inject({
      method: 'POST',
      url: `${v1}/login`,
      payload: { email: validRegistration.email, password },
      headers: { 'user-agent': userAgent },
    });
    expect(answer.statusCode).toBe(200);
    return answer.json<{ data: { token: string } }>().data.token;
  };
  const registered = async (overrides: Record<string, unknown> = {}) =>
    registeredToken(
      context.app,
      typeof overrides.email === 'string' ? overrides.email : validRegistration.email,
      overrides,
      { 'user-agent': chromeOnWindows },
    );
  const call = (
    token: string,
    method: 'GET' | 'POST' | 'PUT',
    path: string,
    payload?: Record<string, unknown>,
  ) =>
    context.app.inject({
      method,
      url: `${v1}${path}`,
      headers: { ...bearer(token), ...forgedHost },
      ...(payload ? { payload } : {}),
    });

  it('refuses every route without a session', async () => {
    for (const [method, path] of [
      ['GET', '/account'],
      ['POST', '/account/password'],
      ['PUT', '/account/phone'],
      ['GET', '/account/sessions'],
      ['POST', '/account/sessions/sign-out-others'],
      ['POST', '/account/delete'],
    ] as const) {
      const answer = await context.app.inject({ method, url: `${v1}${path}`, payload: {} });
      expect(answer.statusCode, path).toBe(401);
    }
  });

  it("shows the user's details and changes the phone, validated as at registration", async () => {
    const token = await registered();
    const details = await call(token, 'GET', '/account');
    expect(details.json()).toEqual({
      data: {
        name: 'María',
        last_name: 'Gonçalves',
        email: validRegistration.email,
        phone: validRegistration.phone,
        language: 'es',
      },
    });

    const letters = await call(token, 'PUT', '/account/phone', { phone: 'llámame' });
    expect(letters.statusCode).toBe(422);
    expect(letters.json()).toMatchObject({ errors: { phone: ['Solo se permiten números'] } });
    const short = await call(token, 'PUT', '/account/phone', { phone: '123' });
    expect(short.statusCode).toBe(422);

    const changed = await call(token, 'PUT', '/account/phone', { phone: ' +55 11 91234-5678 ' });
    expect(changed.json()).toEqual({ data: { phone: '+55 11 91234-5678' } });
    expect((await call(token, 'GET', '/account')).json()).toMatchObject({
      data: { phone: '+55 11 91234-5678' },
    });
    const removed = await call(token, 'PUT', '/account/phone', { phone: '' });
    expect(removed.json()).toEqual({ data: { phone: null } });
  });

  it('changes the password with the current one, ends the other sessions and mails the owner', async () => {
    const token = await registered({ language: 'pt' });
    const other = await signIn(safariOnIphone);

    const wrong = await call(token, 'POST', '/account/password', {
      current_password: 'no-es-esta-1',
      password: newPassword,
      confirm_password: newPassword,
    });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json()).toMatchObject({
      errors: { current_password: ['A senha atual não está correta'] },
    });
    expect((await getSettings(context.app, other)).statusCode).toBe(200);

    const mismatch = await call(token, 'POST', '/account/password', {
      current_password: validRegistration.password,
      password: newPassword,
      confirm_password: 'otraCosa123',
    });
    expect(mismatch.statusCode).toBe(422);

    const changed = await call(token, 'POST', '/account/password', {
      current_password: validRegistration.password,
      password: newPassword,
      confirm_password: newPassword,
    });
    expect(changed.json()).toEqual({ data: { changed: true, signedOut: 1 } });
    expect((await getSettings(context.app, other)).statusCode).toBe(401);
    expect((await getSettings(context.app, token)).statusCode).toBe(200);
    expect(
      (await login(context.app, { email: validRegistration.email, password: newPassword }))
        .statusCode,
    ).toBe(200);
    expect(
      (
        await login(context.app, {
          email: validRegistration.email,
          password: validRegistration.password,
        })
      ).statusCode,
    ).toBe(401);

    // Besides the password's e-mail, the phone and this test's client were devices new to the
    // owner: each was told (decision 163).
    await context.app.services.signInAlerts.settled();
    const mails = await readMails(context.mailDir, 3);
    const subjects = await Promise.all(mails.map(async (raw) => (await simpleParser(raw)).subject));
    expect(
      subjects.filter((subject) => subject === 'Novo acesso à sua conta da Tradebot'),
    ).toHaveLength(2);
    const mail = mails[subjects.indexOf('Você alterou a senha da Tradebot')] ?? '';
    const parsed = await simpleParser(mail);
    expect(parsed.subject).toBe('Você alterou a senha da Tradebot');
    expect(parsed.to).toMatchObject({ text: validRegistration.email });
    expect(parsed.text).toContain(`${publicUrl}/pt/forgot-password`);
    expect(parsed.html).toContain(`href="${publicUrl}/pt/forgot-password"`);
    expect(mail).not.toContain('attacker.test');
    expect(mail).not.toContain('evil.example');
    expect(mail).not.toContain(newPassword);
  });

  it('voids a recovery code asked before the change', async () => {
    const token = await registered();
    await context.app.inject({
      method: 'POST',
      url: `${v1}/forgot-password`,
      payload: { email: validRegistration.email },
    });
    await context.app.services.passwordRecovery.settled();
    await call(token, 'POST', '/account/password', {
      current_password: validRegistration.password,
      password: newPassword,
      confirm_password: newPassword,
    });
    const codes = await context.app.database.db.select().from(passwordResetCodes);
    expect(codes).toHaveLength(1);
    expect(codes[0]?.usedAt).not.toBeNull();
  });

  it('refuses the same password as the new one', async () => {
    const token = await registered();
    const same = await call(token, 'POST', '/account/password', {
      current_password: validRegistration.password,
      password: validRegistration.password,
      confirm_password: validRegistration.password,
    });
    expect(same.statusCode).toBe(422);
    expect(same.json()).toMatchObject({ errors: { password: [expect.any(String)] } });
  });

  it('lists the live sessions with their device, this one first, and signs out one or all others', async () => {
    const token = await registered();
    clock.advance(60_000);
    const phone = await signIn(safariOnIphone);
    clock.advance(60_000);
    const bare = await signIn('');
    const listed = await call(token, 'GET', '/account/sessions');
    const list = listed.json<{
      data: { id: string; current: boolean; device: unknown; lastUsedAt: string }[];
    }>().data;
    expect(list).toHaveLength(3);
    expect(list[0]).toMatchObject({
      current: true,
      device: { browser: 'Chrome', os: 'Windows', mobile: false },
      // In use now: "last used" moved with it (issue 39, decision 156).
      lastUsedAt: '2026-11-21T12:02:00.000Z',
    });
    expect(list.slice(1).map((row) => row.device)).toEqual([
      { browser: null, os: null, mobile: false },
      { browser: 'Safari', os: 'iOS', mobile: true },
    ]);
    const [current, bareSession, phoneSession] = list;

    expect(
      (await call(token, 'POST', `/account/sessions/${String(current?.id)}/sign-out`)).statusCode,
    ).toBe(409);
    const unknown = await call(
      token,
      'POST',
      '/account/sessions/00000000-0000-4000-8000-000000000000/sign-out',
    );
    expect(unknown.statusCode).toBe(404);
    expect((await call(token, 'POST', '/account/sessions/nope/sign-out')).statusCode).toBe(422);

    // Someone else's session is not found for this user.
    const stranger = await registered({ email: 'otra@example.com' });
    expect(
      (await call(stranger, 'POST', `/account/sessions/${String(phoneSession?.id)}/sign-out`))
        .statusCode,
    ).toBe(404);
    expect((await getSettings(context.app, phone)).statusCode).toBe(200);

    const one = await call(token, 'POST', `/account/sessions/${String(phoneSession?.id)}/sign-out`);
    expect(one.json()).toEqual({ data: { signedOut: 1 } });
    expect((await getSettings(context.app, phone)).statusCode).toBe(401);
    expect((await getSettings(context.app, bare)).statusCode).toBe(200);
    expect(bareSession).toBeDefined();

    const others = await call(token, 'POST', '/account/sessions/sign-out-others');
    expect(others.json()).toEqual({ data: { signedOut: 1 } });
    expect((await getSettings(context.app, bare)).statusCode).toBe(401);
    expect((await getSettings(context.app, token)).statusCode).toBe(200);
    expect((await call(token, 'GET', '/account/sessions')).json()).toMatchObject({
      data: [{ current: true }],
    });
    expect((await getSettings(context.app, stranger)).statusCode).toBe(200);
  });

  it('writes "last used" once it is a minute old, not on every request (decision 156)', async () => {
    const token = await registered();
    const lastUsed = async () =>
      (await context.app.database.db.select({ at: sessions.lastUsedAt }).from(sessions))[0]?.at;
    expect(await lastUsed()).toEqual(new Date('2026-11-21T12:00:00Z'));
    // A change of the user's row drops the cached session: the next request reads it again.
    const readAgain = async () => {
      await call(token, 'PUT', '/account/phone', { phone: '' });
      await getSettings(context.app, token);
    };
    clock.advance(30_000);
    await readAgain();
    expect(await lastUsed()).toEqual(new Date('2026-11-21T12:00:00Z'));
    clock.advance(90_000);
    await readAgain();
    expect(await lastUsed()).toEqual(new Date('2026-11-21T12:02:00Z'));
    clock.advance(20_000);
    await readAgain();
    expect(await lastUsed()).toEqual(new Date('2026-11-21T12:02:00Z'));
  });

  it('limits password checks per user', async () => {
    const token = await registered();
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 6; attempt++) {
      const answer = await call(token, 'POST', '/account/delete', { password: 'mala-clave-1' });
      statuses.push(answer.statusCode);
    }
    expect(statuses).toEqual([422, 422, 422, 422, 422, 429]);
    expect((await getSettings(context.app, token)).statusCode).toBe(200);
  });
});

describe('deleting an account', () => {
  let clock = manualClock();
  const context = useTestApp(
    () => ({ SIM_PAY_WEBHOOK_SECRET: simSecret, PUBLIC_URL: publicUrl }),
    () => {
      clock = manualClock(new Date('2026-11-21T12:00:00Z'));
      return { clock, billingTimers: false };
    },
  );
  beforeEach(async () => {
    await context.app.listen({ port: 0, host: '127.0.0.1' });
  });

  it('refuses a wrong password and changes nothing', async () => {
    const user = await customer(context.app, clock);
    const token = await user.token();
    const answer = await context.app.inject({
      method: 'POST',
      url: `${v1}/account/delete`,
      headers: bearer(token),
      payload: { password: 'no-es-esta-1' },
    });
    expect(answer.statusCode).toBe(422);
    expect(answer.json()).toMatchObject({
      errors: { password: ['La contraseña actual no es correcta'] },
    });
    expect((await getSettings(context.app, token)).statusCode).toBe(200);
  });

  it('ends the subscription without refund, erases the person, keeps the payments and mails a confirmation', async () => {
    const user = await customer(context.app, clock, { language: 'pt' });
    await pay(context.app, user, 'monthly');
    const token = await user.token();
    const other = (
      await login(context.app, { email: user.email, password: validRegistration.password })
    ).json<{ data: { token: string } }>().data.token;
    const config = (await getSettings(context.app, token)).json<{
      data: { user: { id: string }; authorized: boolean };
    }>().data;
    expect(config.authorized).toBe(true);
    const userId = config.user.id;
    // A browser allowed push, and a notice waits in the outbox (decision 088).
    const db = context.app.database.db;
    await db.insert(pushSubscriptions).values({
      endpoint: 'https://push.example/send/abc',
      userId,
      p256dh: 'BPublicKeyOfTheBrowser',
      auth: 'authSecret',
    });
    await db.insert(notificationOutbox).values({
      userId,
      kind: 'robotStopped',
      eventKey: `robot-stopped:${userId}`,
      payload: { reason: 'margin' },
    });
    expect(
      await db.select().from(simPayCheckouts).where(eq(simPayCheckouts.email, user.email)),
    ).toHaveLength(1);

    const answer = await context.app.inject({
      method: 'POST',
      url: `${v1}/account/delete`,
      headers: bearer(token),
      payload: { password: validRegistration.password },
    });
    expect(answer.json()).toEqual({ data: { deleted: true } });

    expect((await getSettings(context.app, token)).statusCode).toBe(401);
    expect((await getSettings(context.app, other)).statusCode).toBe(401);
    expect(
      (await login(context.app, { email: user.email, password: validRegistration.password }))
        .statusCode,
    ).toBe(401);

    const [row] = await db.select().from(users).where(eq(users.id, userId));
    expect(row).toMatchObject({
      name: '-',
      lastName: '-',
      email: anonymisedEmail(userId),
      phone: null,
      referral: null,
    });
    expect(row?.deletedAt).toEqual(clock.now());
    expect(await db.select().from(sessions).where(eq(sessions.userId, userId))).toEqual([]);
    // Erased with the person (issue 37, point 8): push endpoints and keys, the outbox's notices,
    // and the e-mail on the simulated provider's checkout.
    expect(
      await db.select().from(pushSubscriptions).where(eq(pushSubscriptions.userId, userId)),
    ).toEqual([]);
    expect(
      await db.select().from(notificationOutbox).where(eq(notificationOutbox.userId, userId)),
    ).toEqual([]);
    const checkouts = await db
      .select()
      .from(simPayCheckouts)
      .where(eq(simPayCheckouts.clientReference, userId));
    expect(checkouts.map((checkout) => checkout.email)).toEqual([anonymisedEmail(userId)]);
    const [settings] = await db.select().from(userSettings).where(eq(userSettings.userId, userId));
    expect(settings).toMatchObject({ botOn: false, linked: false, authorized: false });

    // The payment stays (tax law), the subscription is over and nothing was refunded.
    const kept = await db.select().from(payments).where(eq(payments.userId, userId));
    expect(kept).toHaveLength(1);
    expect(kept[0]?.refundedAt).toBeNull();
    const [subscription] = await db
      .select()
      .from(subscriptions)
      .where(eq(subscriptions.userId, userId));
    expect(subscription?.status).toBe('canceled');

    const mails = await readMails(context.mailDir, 2);
    const deleted = await Promise.all(mails.map((mail) => simpleParser(mail)));
    const confirmation = deleted.find((mail) => mail.subject === 'Excluímos sua conta da Tradebot');
    expect(confirmation?.to).toMatchObject({ text: user.email });
    expect(confirmation?.text).toContain('10 anos');

    // The address is free again: the same person may come back.
    expect(await registeredToken(context.app, user.email)).toBeTruthy();
  });

  it('is repeatable after a failure at the provider: nothing is erased until it succeeds', async () => {
    const user = await customer(context.app, clock);
    await pay(context.app, user, 'monthly');
    const token = await user.token();
    const billing = context.app.services.billing;
    const original = billing.endSubscriptionsNow.bind(billing);
    billing.endSubscriptionsNow = () => Promise.reject(new Error('provider down'));
    const failed = await context.app.inject({
      method: 'POST',
      url: `${v1}/account/delete`,
      headers: bearer(token),
      payload: { password: validRegistration.password },
    });
    expect(failed.statusCode).toBe(500);
    expect((await getSettings(context.app, token)).statusCode).toBe(200);
    billing.endSubscriptionsNow = original;
    const again = await context.app.inject({
      method: 'POST',
      url: `${v1}/account/delete`,
      headers: bearer(token),
      payload: { password: validRegistration.password },
    });
    expect(again.statusCode).toBe(200);
  });
});

describe('deleting a trading account', () => {
  const context = useRobotApp({ LOG_LEVEL: 'error' });

  it('stops the robot, closes the open operations first, then erases the credentials and history', async () => {
    const { headers, userId } = await paidUser(context.app, 'trader@example.com');
    expect((await linkAccount(context.app, headers)).statusCode).toBe(201);
    await postSettings(context.app, headers, robotSettingsPayload({ bot_on: true }));
    expect(await runMarket(context, async () => (await openCount(context.app, userId)) >= 2)).toBe(
      true,
    );
    const db = context.app.database.db;
    const linked = () =>
      db.select().from(tradingPlatformLinks).where(eq(tradingPlatformLinks.userId, userId));
    const logins = () => db.select().from(platformUsers).where(eq(platformUsers.accountId, userId));
    expect(await linked()).toHaveLength(1);
    expect(await logins()).toHaveLength(1);

    const answer = await context.app.inject({
      method: 'POST',
      url: `${v1}/account/delete`,
      headers,
      payload: { password: validRegistration.password },
    });
    expect(answer.json()).toEqual({ data: { deleted: true } });
    expect(await openCount(context.app, userId)).toBe(0);
    await runMarket(context, () => false, 5);
    expect(await openCount(context.app, userId)).toBe(0);
    expect(await storedTrades(context.app, userId)).toEqual([]);
    expect(await db.select().from(operations).where(eq(operations.accountId, userId))).toEqual([]);
    expect(await linked()).toEqual([]);
    expect(await logins()).toEqual([]);
  });
});
