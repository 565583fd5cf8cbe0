import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { promoCodeUses, users } from '../src/db/schema';
import { PromoCodesRepository } from '../src/repositories/promo-codes.repository';
import { UsersRepository } from '../src/repositories/users.repository';
import { PromoCodesService } from '../src/services/promo-codes.service';
import { bearer, manualClock, register, registeredToken, v1 } from './helpers/accounts';
import { auditEntries, createAdmin, signedInAdmin } from './helpers/admin';
import { useTestApp } from './helpers/app';
import { getAllData, robotOf, runMarket, trader, useRobotApp } from './helpers/trading';

describe('users in the console (decision 057)', () => {
  const clock = manualClock();
  const context = useTestApp({}, () => ({ clock }));

  it('finds users by e-mail or name and shows their tracking, subscription and robot', async () => {
    await registeredToken(context.app, 'maria@example.com');
    await registeredToken(context.app, 'joao@example.com', { name: 'João', last_name: 'Silva' });
    const headers = await signedInAdmin(context.app, clock, await createAdmin(context.app));
    const search = async (q: string) =>
      (
        await context.app.inject({ url: `${v1}/admin/users?q=${encodeURIComponent(q)}`, headers })
      ).json<{
        data: { users: { id: string; email: string; authorized: boolean }[]; more: boolean };
      }>().data;
    expect((await search('JOAO@')).users.map((user) => user.email)).toEqual(['joao@example.com']);
    expect((await search('joão silva')).users.map((user) => user.email)).toEqual([
      'joao@example.com',
    ]);
    expect((await search('gonçalves')).users.map((user) => user.email)).toEqual([
      'maria@example.com',
    ]);
    expect((await search('%_')).users).toEqual([]);
    const [maria] = (await search('maria')).users;
    expect(maria).toMatchObject({ authorized: false });

    const detail = await context.app.inject({
      url: `${v1}/admin/users/${maria?.id ?? ''}`,
      headers,
    });
    expect(detail.statusCode).toBe(200);
    expect(detail.json()).toMatchObject({
      data: {
        user: {
          email: 'maria@example.com',
          partner_id: '77',
          client_source: 'newsletter',
          referral: 'utm_source=google|utm_campaign=Invierno 2026 |',
          authorized: false,
          linked: false,
          bot_on: false,
        },
        robot: { bot_on: false, trading: false, idleReason: 'ROBOT_OFF' },
        account: null,
        accountCurrency: 'USD',
        openOperations: [],
        recentClosed: [],
        messages: [],
      },
    });
    const tooShort = await context.app.inject({ url: `${v1}/admin/users?q=a`, headers });
    expect(tooShort.statusCode).toBe(422);
  });

  // Issue 37, point 12: reading a user's personal data in the console left no trace.
  it('audits an admin opening a user\u2019s page and a message thread, naming both', async () => {
    const token = await registeredToken(context.app, 'lucia@example.com');
    const sent = await context.app.inject({
      method: 'POST',
      url: `${v1}/contact`,
      headers: bearer(token),
      payload: {
        kind: 'customer_service',
        subject: 'No veo mis operaciones',
        message: 'Desde ayer el panel no me muestra las operaciones cerradas.',
      },
    });
    expect(sent.statusCode).toBe(201);
    const messageId = sent.json<{ data: { id: string } }>().data.id;
    const [lucia] = await context.app.database.db
      .select({ id: users.id })
      .from(users)
      .where(eq(users.email, 'lucia@example.com'));
    const userId = lucia?.id ?? '';
    const admin = await createAdmin(context.app);
    const headers = await signedInAdmin(context.app, clock, admin);

    const page = await context.app.inject({ url: `${v1}/admin/users/${userId}`, headers });
    expect(page.statusCode).toBe(200);
    const audited = async (action: string) =>
      (await auditEntries(context.app, headers)).filter((entry) => entry.action === action);
    expect(await audited('user.viewed')).toMatchObject([
      { targetType: 'user', targetId: userId, admin: { email: admin.email } },
    ]);

    const thread = await context.app.inject({ url: `${v1}/admin/messages/${messageId}`, headers });
    expect(thread.statusCode).toBe(200);
    expect(await audited('message.viewed')).toMatchObject([
      { targetType: 'user', targetId: userId, after: { messageId }, admin: { email: admin.email } },
    ]);

    // Nothing read, nothing audited: an unknown user or message is a 404 and no entry.
    const before = (await auditEntries(context.app, headers)).length;
    const unknown = '00000000-0000-4000-8000-000000000000';
    expect(
      (await context.app.inject({ url: `${v1}/admin/users/${unknown}`, headers })).statusCode,
    ).toBe(404);
    expect(
      (await context.app.inject({ url: `${v1}/admin/messages/${unknown}`, headers })).statusCode,
    ).toBe(404);
    expect(await auditEntries(context.app, headers)).toHaveLength(before);
  });

  it('will not pull the kill switch of a user with no linked account', async () => {
    await registeredToken(context.app);
    const headers = await signedInAdmin(context.app, clock, await createAdmin(context.app));
    const found = (await context.app.inject({ url: `${v1}/admin/users?q=maria`, headers })).json<{
      data: { users: { id: string }[] };
    }>().data.users[0];
    const response = await context.app.inject({
      method: 'POST',
      url: `${v1}/admin/users/${found?.id ?? ''}/robot/kill`,
      headers,
    });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toMatchObject({ code: 'CONFLICT' });
    expect((await auditEntries(context.app, headers)).map((entry) => entry.action)).not.toContain(
      'robot.killed',
    );
  });
});

describe("support pulls a user's kill switch", () => {
  const context = useRobotApp({ LOG_LEVEL: 'error' });

  it('stops the robot, closes every open operation, and audits it', async () => {
    const { headers: userHeaders, userId } = await trader(context.app);
    const robot = robotOf(context.app);
    const openCount = async () => (await robot.projection(userId))?.trades.length ?? 0;
    expect(await runMarket(context, async () => (await openCount()) >= 2)).toBe(true);
    const open = await openCount();
    const admin = await createAdmin(context.app);
    const headers = await signedInAdmin(context.app, context.clock, admin);

    const detail = await context.app.inject({ url: `${v1}/admin/users/${userId}`, headers });
    expect(
      detail.json<{ data: { openOperations: unknown[]; robot: { bot_on: boolean } } }>().data,
    ).toMatchObject({
      robot: { bot_on: true },
    });
    expect(detail.json<{ data: { openOperations: unknown[] } }>().data.openOperations).toHaveLength(
      open,
    );

    const killed = await context.app.inject({
      method: 'POST',
      url: `${v1}/admin/users/${userId}/robot/kill`,
      headers,
    });
    expect(killed.statusCode).toBe(200);
    expect(killed.json()).toEqual({ data: { bot_on: false, closed: open } });
    const data = (await getAllData(context.app, userHeaders)).json<{
      data: { trades: unknown[]; robot: { bot_on: boolean } };
    }>().data;
    expect(data.trades).toEqual([]);
    expect(data.robot.bot_on).toBe(false);

    // Opening the user's page above is audited too (decision 117), at the same clock instant.
    const entry = (await auditEntries(context.app, headers)).find(
      (audited) => audited.action === 'robot.killed',
    );
    expect(entry).toMatchObject({
      action: 'robot.killed',
      targetType: 'user',
      targetId: userId,
      before: { bot_on: true, openOperations: open },
      after: { bot_on: false, closed: open },
      admin: { email: admin.email },
    });
  });
});

describe('promo codes in the console (decision 057)', () => {
  const clock = manualClock(new Date('2026-11-21T12:00:00Z'));
  const context = useTestApp({}, () => ({ clock }));
  const newCode = {
    code: 'verano26',
    benefit: 'free_month',
    validFrom: '2026-11-01T00:00:00-03:00',
    validUntil: '2027-03-01T00:00:00-03:00',
    maxUses: 2,
  };

  it('creates a code that registrations can use, counts its uses and lists who carries it', async () => {
    const headers = await signedInAdmin(context.app, clock, await createAdmin(context.app));
    const created = await context.app.inject({
      method: 'POST',
      url: `${v1}/admin/promo-codes`,
      headers,
      payload: newCode,
    });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({
      data: {
        code: 'VERANO26',
        validFrom: '2026-11-01T03:00:00.000Z',
        maxUses: 2,
        uses: 0,
        state: 'active',
      },
    });
    const duplicate = await context.app.inject({
      method: 'POST',
      url: `${v1}/admin/promo-codes`,
      headers,
      payload: { ...newCode, code: 'VERANO26' },
    });
    expect(duplicate.statusCode).toBe(409);
    expect(duplicate.json()).toMatchObject({
      errors: { code: ['Ya existe un código promocional con ese nombre'] },
    });

    await registeredToken(context.app, 'a@example.com', { promocode: 'Verano26' });
    await registeredToken(context.app, 'b@example.com', { promocode: 'verano26' });
    expect(
      (await register(context.app, { email: 'c@example.com', promocode: 'verano26' })).statusCode,
    ).toBe(422);

    const uses = await context.app.inject({
      url: `${v1}/admin/promo-codes/VERANO26/uses`,
      headers,
    });
    expect(uses.json()).toMatchObject({ data: { uses: 2 } });
    expect(
      uses
        .json<{
          data: { history: { user: { email: string }; source: string; usedAt: string }[] };
        }>()
        .data.history.map(({ user, source, usedAt }) => ({ email: user.email, source, usedAt }))
        .sort((a, b) => a.email.localeCompare(b.email)),
    ).toEqual([
      { email: 'a@example.com', source: 'registration', usedAt: clock.now().toISOString() },
      { email: 'b@example.com', source: 'registration', usedAt: clock.now().toISOString() },
    ]);
    const list = await context.app.inject({ url: `${v1}/admin/promo-codes`, headers });
    expect(list.json()).toMatchObject({
      data: { promoCodes: [{ code: 'VERANO26', uses: 2, state: 'exhausted' }] },
    });

    const [entry] = (await auditEntries(context.app, headers)).filter(
      (e) => e.action === 'promo_code.created',
    );
    expect(entry).toMatchObject({
      targetType: 'promo_code',
      targetId: 'VERANO26',
      before: null,
      after: { benefit: 'free_month', maxUses: 2, uses: 0, state: 'active' },
    });
  });

  it('keeps every use as history, also after the account applies another code', async () => {
    const { db } = context.app.database;
    const headers = await signedInAdmin(context.app, clock, await createAdmin(context.app));
    for (const code of ['VERANO26', 'OTONO27']) {
      await context.app.inject({
        method: 'POST',
        url: `${v1}/admin/promo-codes`,
        headers,
        payload: { ...newCode, code, maxUses: null },
      });
    }
    const registeredAt = clock.now().toISOString();
    const token = await registeredToken(context.app, 'a@example.com', { promocode: 'verano26' });
    const [user] = await db.select().from(users).where(eq(users.email, 'a@example.com'));
    if (!user) throw new Error('no user');
    // A second free month is refused: the refused application leaves no use behind.
    const refused = await context.app.inject({
      method: 'PUT',
      url: `${v1}/update-promocode`,
      headers: bearer(token),
      payload: { promocode: 'OTONO27' },
    });
    expect(refused.statusCode).toBe(409);
    // The same application where codes carry no benefit (the service as billing-less set-ups
    // build it): the account changes code, and the first use stays in the history.
    clock.advance(3_600_000);
    const promoCodes = new PromoCodesService(
      new PromoCodesRepository(db),
      new UsersRepository(db),
      (work) => db.transaction(work),
      clock,
    );
    await promoCodes.applyToUser(user, 'otono27');
    const history = async (code: string) =>
      (await context.app.inject({ url: `${v1}/admin/promo-codes/${code}/uses`, headers })).json<{
        data: { uses: number; history: Record<string, unknown>[] };
      }>().data;
    expect(await history('VERANO26')).toMatchObject({
      uses: 1,
      history: [
        {
          usedAt: registeredAt,
          benefit: 'free_month',
          source: 'registration',
          user: { id: user.id, email: 'a@example.com' },
          current: false,
        },
      ],
    });
    expect(await history('OTONO27')).toMatchObject({
      uses: 1,
      history: [
        {
          usedAt: clock.now().toISOString(),
          source: 'profile',
          user: { id: user.id },
          current: true,
        },
      ],
    });
    expect(await db.select().from(promoCodeUses)).toHaveLength(2);
  });

  it('retires a code: it stops validating at once, and retiring it again is a conflict', async () => {
    const headers = await signedInAdmin(context.app, clock, await createAdmin(context.app));
    await context.app.inject({
      method: 'POST',
      url: `${v1}/admin/promo-codes`,
      headers,
      payload: { ...newCode, validUntil: null, maxUses: null },
    });
    const validate = async () =>
      (
        await context.app.inject({
          method: 'POST',
          url: `${v1}/validate-promocode`,
          payload: { promocode: 'VERANO26' },
        })
      ).json<{ data: { valid: boolean } }>().data.valid;
    expect(await validate()).toBe(true);
    const retired = await context.app.inject({
      method: 'POST',
      url: `${v1}/admin/promo-codes/verano26/retire`,
      headers,
    });
    expect(retired.statusCode).toBe(200);
    expect(retired.json()).toMatchObject({
      data: { state: 'ended', validUntil: clock.now().toISOString() },
    });
    expect(await validate()).toBe(false);
    const again = await context.app.inject({
      method: 'POST',
      url: `${v1}/admin/promo-codes/VERANO26/retire`,
      headers,
    });
    expect(again.statusCode).toBe(409);
    const missing = await context.app.inject({
      method: 'POST',
      url: `${v1}/admin/promo-codes/NADA/retire`,
      headers,
    });
    expect(missing.statusCode).toBe(404);

    const entries = (await auditEntries(context.app, headers)).filter(
      (e) => e.action === 'promo_code.retired',
    );
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      targetId: 'VERANO26',
      before: { validUntil: null, state: 'active' },
      after: { validUntil: clock.now().toISOString(), state: 'ended' },
    });
  });

  it('validates a new code: characters, dates in order, positive use cap', async () => {
    const headers = await signedInAdmin(context.app, clock, await createAdmin(context.app));
    const response = await context.app.inject({
      method: 'POST',
      url: `${v1}/admin/promo-codes`,
      headers,
      payload: { ...newCode, code: 'verano 26!', maxUses: 0 },
    });
    expect(response.statusCode).toBe(422);
    expect(response.json()).toMatchObject({
      errors: {
        code: ['Usa solo letras sin acentos, números, guiones y guiones bajos'],
        maxUses: ['Valor no válido'],
      },
    });
    const reversed = await context.app.inject({
      method: 'POST',
      url: `${v1}/admin/promo-codes`,
      headers,
      payload: { ...newCode, validUntil: '2026-10-01T00:00:00Z' },
    });
    expect(reversed.json()).toMatchObject({
      errors: { validUntil: ['El fin de la vigencia debe ser posterior a su inicio'] },
    });
    const token = await registeredToken(context.app, 'user@example.com');
    const asUser = await context.app.inject({
      method: 'POST',
      url: `${v1}/admin/promo-codes`,
      headers: bearer(token),
      payload: newCode,
    });
    expect(asUser.statusCode).toBe(403);
  });
});
