import { eq, sql } from 'drizzle-orm';
import { beforeEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { emailSubscriptions, promoCodes, users } from '../src/db/schema';
import { PromoCodesRepository } from '../src/repositories/promo-codes.repository';
import { sessionLifetimeMs } from '../src/services/auth.service';
import { useTestApp } from './helpers/app';
import {
  bearer,
  confirmationTokenFor,
  confirmRegistration,
  getSettings,
  mailsTo,
  login,
  manualClock,
  register,
  registeredToken,
  v1,
  validRegistration,
} from './helpers/accounts';

async function userCount(context: ReturnType<typeof useTestApp>) {
  const [row] = await context.app.database.db.select({ n: sql<number>`count(*)::int` }).from(users);
  return row?.n ?? -1;
}

async function addPromo(
  context: ReturnType<typeof useTestApp>,
  code: string,
  options: { maxUses?: number; validUntil?: Date; validFrom?: Date } = {},
) {
  await new PromoCodesRepository(context.app.database.db).upsert({
    code,
    benefit: 'free_month',
    validFrom: options.validFrom ?? new Date('2026-01-01T00:00:00Z'),
    validUntil: options.validUntil ?? null,
    maxUses: options.maxUses ?? null,
  });
}

describe('register', () => {
  const clock = manualClock();
  const context = useTestApp({}, () => ({ clock }));

  it('creates the account once its e-mail is confirmed from the same browser, and stores tracking verbatim', async () => {
    const response = await register(context.app);
    expect(response.statusCode).toBe(202);
    const { sent, nonce } = response.json<{ data: { sent: true; nonce: string } }>().data;
    expect(sent).toBe(true);
    // Nothing exists until the address's owner opens the link.
    await context.app.services.registration.settled();
    expect(await userCount(context)).toBe(0);
    const [mail] = await mailsTo(context.app, 'maria@example.com');
    expect(mail).toContain('Subject: Confirma tu correo para crear tu cuenta de Tradebot');
    const link = await confirmationTokenFor(context.app, 'maria@example.com');
    const confirmed = await confirmRegistration(context.app, { token: link, nonce });
    expect(confirmed.statusCode).toBe(201);
    const { token, promocode } = confirmed.json<{
      data: { token: string; promocode: string | null };
    }>().data;
    expect(promocode).toBeNull();
    expect(token.length).toBeGreaterThanOrEqual(40);

    const settings = await getSettings(context.app, token);
    expect(settings.statusCode).toBe(200);
    expect(settings.json()).toEqual({
      data: {
        user: {
          id: expect.any(String) as string,
          name: 'María',
          last_name: 'Gonçalves',
          email: 'maria@example.com',
          subscribed_newsletter: false,
        },
        settings: {
          bot_on: false,
          risk: 1,
          categories_enabled: {
            forex: true,
            cripto: true,
            stocks: true,
            index: true,
            commodities: true,
            all: true,
          },
        },
        linked: false,
        login_tradear: false,
        authorized: false,
      },
    });

    const [row] = await context.app.database.db
      .select()
      .from(users)
      .where(eq(users.email, 'maria@example.com'));
    expect(row).toMatchObject({
      partnerId: '77',
      clientSource: 'newsletter',
      referral: 'utm_source=google|utm_campaign=Invierno 2026 |',
      phone: '+54 11 5555-1234',
      promocode: null,
      language: 'es',
    });
    // Never the password itself, and never the token.
    expect(row?.passwordHash).toMatch(/^\$argon2id\$/);
  });

  it.each([
    [{ email: 'nope' }, 'email', 'Correo electrónico inválido'],
    [{ name: 'R2D2' }, 'name', 'Solo se permiten letras latinas'],
    [{ last_name: 'X' }, 'last_name', 'Mínimo 2 caracteres'],
    [
      { password: 'sololetras', confirm_password: 'sololetras' },
      'password',
      'La contraseña debe contener al menos una letra y un número',
    ],
    [{ confirm_password: 'otra12345' }, 'confirm_password', 'Las contraseñas no coinciden'],
    [{ accept_terms: false }, 'accept_terms', 'Debes aceptar los términos y condiciones'],
    [
      { accept_privacy: false },
      'accept_privacy',
      'Para crear tu cuenta debes aceptar el tratamiento de tus datos según la política de privacidad',
    ],
    [{ phone: 'llámame' }, 'phone', 'Solo se permiten números'],
    [{ promocode: 'NOEXISTE' }, 'promocode', 'El código promocional es inválido'],
  ])('refuses %j with a field error and writes nothing', async (change, field, message) => {
    const response = await register(context.app, change);
    expect(response.statusCode).toBe(422);
    const body = response.json<{ code: string; errors: Record<string, string[]> }>();
    expect(body.code).toBe('VALIDATION_FAILED');
    expect(body.errors[field]).toEqual([message]);
    expect(await userCount(context)).toBe(0);
  });

  it('reports every missing field as required, in Portuguese when the body asks', async () => {
    const response = await register(context.app, {
      name: undefined,
      email: undefined,
      password: undefined,
      language: 'pt',
    });
    expect(response.statusCode).toBe(422);
    const body = response.json<{ message: string; errors: Record<string, string[]> }>();
    expect(body.message).toBe('Verifique os dados enviados.');
    expect(body.errors.name).toEqual(['Este campo é obrigatório']);
    expect(body.errors.email).toEqual(['Por favor, informe seu e-mail']);
    expect(body.errors.password).toEqual(['Este campo é obrigatório']);
  });

  it('answers an address that has an account as it answers a new one, and tells its owner by e-mail (issue 18, finding 9)', async () => {
    await registeredToken(context.app);
    const fresh = await register(context.app, { email: 'nueva@example.com' });
    const again = await register(context.app, {
      email: 'MARIA@Example.com',
      password: 'otra12345',
      confirm_password: 'otra12345',
    });
    expect(again.statusCode).toBe(fresh.statusCode);
    expect(Object.keys(again.json<{ data: object }>().data)).toEqual(
      Object.keys(fresh.json<{ data: object }>().data),
    );
    expect(again.headers['content-length']).toBe(fresh.headers['content-length']);
    await context.app.services.registration.settled();
    // (The confirmation e-mail was read and removed by registeredToken.)
    const mails = await mailsTo(context.app, 'maria@example.com');
    expect(mails).toHaveLength(1);
    const told = (mails[0] ?? '').replace(/=\r?\n/g, '').replaceAll('=3D', '=');
    expect(told).toContain('Subject: Ya tienes una cuenta de Tradebot');
    expect(told).toMatch(/http:\/\/[^/\s]+\/login/);
    expect(told).toMatch(/http:\/\/[^/\s]+\/forgot-password/);
    expect(told).not.toContain('confirmation_token');
    expect(await userCount(context)).toBe(1);
    // The account and its password are as they were.
    const signIn = await login(context.app, {
      email: validRegistration.email,
      password: validRegistration.password,
    });
    expect(signIn.statusCode).toBe(200);
  });

  it('from another browser, the link needs the password chosen at registration', async () => {
    expect((await register(context.app)).statusCode).toBe(202);
    const link = await confirmationTokenFor(context.app, 'maria@example.com');
    const withoutPassword = await confirmRegistration(context.app, { token: link });
    expect(withoutPassword.statusCode).toBe(422);
    expect(withoutPassword.json<{ errors: Record<string, string[]> }>().errors.password).toEqual([
      'Abriste el enlace en otro navegador: escribe la contraseña que elegiste al crear tu cuenta.',
    ]);
    const wrongNonce = await confirmRegistration(context.app, {
      token: link,
      nonce: 'x'.repeat(43),
    });
    expect(wrongNonce.statusCode).toBe(422);
    const wrong = await confirmRegistration(context.app, { token: link, password: 'otra12345' });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json<{ message: string }>().message).toBe(
      'No es la contraseña que elegiste al crear tu cuenta.',
    );
    expect(await userCount(context)).toBe(0);
    const right = await confirmRegistration(context.app, {
      token: link,
      password: validRegistration.password,
    });
    expect(right.statusCode).toBe(201);
    expect(await userCount(context)).toBe(1);
  });

  it('carries the plan chosen before registering to the browser that confirms (decision 089)', async () => {
    const invalid = await register(context.app, { plan: 'lifetime' });
    expect(invalid.statusCode).toBe(422);
    expect((await register(context.app, { plan: 'yearly' })).statusCode).toBe(202);
    const link = await confirmationTokenFor(context.app, 'maria@example.com');
    // Another browser: no nonce, the password instead, and no plan of its own.
    const confirmed = await confirmRegistration(context.app, {
      token: link,
      password: validRegistration.password,
    });
    expect(confirmed.statusCode).toBe(201);
    expect(confirmed.json()).toMatchObject({ data: { promocode: null, plan: 'yearly' } });
  });

  it('answers no plan when none was chosen', async () => {
    const token = await registeredToken(context.app);
    expect(token).toBeTruthy();
    expect((await register(context.app, { email: 'otra@example.com' })).statusCode).toBe(202);
    const link = await confirmationTokenFor(context.app, 'otra@example.com');
    const confirmed = await confirmRegistration(context.app, {
      token: link,
      password: validRegistration.password,
    });
    expect(confirmed.json()).toMatchObject({ data: { plan: null } });
  });

  it('a link works once, one at a time, and for a day', async () => {
    const first = await register(context.app);
    const { nonce } = first.json<{ data: { nonce: string } }>().data;
    const link = await confirmationTokenFor(context.app, 'maria@example.com');
    const racing = await Promise.all([
      confirmRegistration(context.app, { token: link, nonce }),
      confirmRegistration(context.app, { token: link, nonce }),
    ]);
    expect(racing.map((response) => response.statusCode).sort()).toEqual([201, 404]);
    const used = await confirmRegistration(context.app, { token: link, nonce });
    expect(used.statusCode).toBe(404);
    expect(used.json()).toEqual({
      message:
        'El enlace de confirmación no es válido o venció. Vuelve a crear tu cuenta: te enviaremos uno nuevo.',
      code: 'NOT_FOUND',
    });
    expect(await userCount(context)).toBe(1);

    const later = await register(context.app, { email: 'tarde@example.com' });
    const late = await confirmationTokenFor(context.app, 'tarde@example.com');
    clock.advance(24 * 3_600_000 + 1000);
    const expired = await confirmRegistration(context.app, {
      token: late,
      nonce: later.json<{ data: { nonce: string } }>().data.nonce,
    });
    expect(expired.statusCode).toBe(404);
    expect(await userCount(context)).toBe(1);
  });

  it('a newer registration for an address replaces the one waiting', async () => {
    const older = await register(context.app);
    const olderLink = await confirmationTokenFor(context.app, 'maria@example.com');
    const newer = await register(context.app, { name: 'Mariana' });
    await context.app.services.registration.settled();
    const newerLink = await confirmationTokenFor(context.app, 'maria@example.com');
    expect(newerLink).not.toBe(olderLink);
    const stale = await confirmRegistration(context.app, {
      token: olderLink,
      nonce: older.json<{ data: { nonce: string } }>().data.nonce,
    });
    expect(stale.statusCode).toBe(404);
    const fresh = await confirmRegistration(context.app, {
      token: newerLink,
      nonce: newer.json<{ data: { nonce: string } }>().data.nonce,
    });
    expect(fresh.statusCode).toBe(201);
    const [row] = await context.app.database.db.select().from(users);
    expect(row?.name).toBe('Mariana');
  });

  it('mails a Portuguese registration in Portuguese, with a link to the Portuguese page', async () => {
    expect((await register(context.app, { language: 'pt' })).statusCode).toBe(202);
    await context.app.services.registration.settled();
    const [mail] = await mailsTo(context.app, 'maria@example.com');
    const text = (mail ?? '').replace(/=\r?\n/g, '').replaceAll('=3D', '=');
    expect(text).toContain('Subject: Confirme seu e-mail para criar sua conta no Tradebot');
    expect(text).toMatch(/http:\/\/[^/\s]+\/pt\/register\?confirmation_token=[\w-]+/);
  });

  it('redeems a valid promo code once, atomically with the account', async () => {
    await addPromo(context, 'ULTIMO', { maxUses: 1 });
    await registeredToken(context.app, validRegistration.email, { promocode: 'ultimo' });
    const second = await register(context.app, { email: 'otra@example.com', promocode: 'ULTIMO' });
    expect(second.statusCode).toBe(422);
    expect(second.json<{ errors: Record<string, string[]> }>().errors.promocode).toEqual([
      'El código promocional es inválido',
    ]);
    expect(await userCount(context)).toBe(1);
    const [promo] = await context.app.database.db
      .select()
      .from(promoCodes)
      .where(eq(promoCodes.code, 'ULTIMO'));
    expect(promo?.uses).toBe(1);
  });

  it('creates the account without a code that ran out between registering and confirming', async () => {
    await addPromo(context, 'ULTIMO', { maxUses: 1 });
    const first = await register(context.app, { promocode: 'ultimo' });
    const second = await register(context.app, { email: 'otra@example.com', promocode: 'ULTIMO' });
    expect([first.statusCode, second.statusCode]).toEqual([202, 202]);
    const link = await confirmationTokenFor(context.app, 'otra@example.com');
    const applied = await confirmRegistration(context.app, {
      token: link,
      nonce: second.json<{ data: { nonce: string } }>().data.nonce,
    });
    expect(applied.json<{ data: { promocode: string } }>().data.promocode).toBe('applied');
    const late = await confirmRegistration(context.app, {
      token: await confirmationTokenFor(context.app, 'maria@example.com'),
      nonce: first.json<{ data: { nonce: string } }>().data.nonce,
    });
    expect(late.statusCode).toBe(201);
    expect(late.json<{ data: { promocode: string } }>().data.promocode).toBe('expired');
    const rows = await context.app.database.db.select().from(users);
    expect(rows.map((row) => [row.email, row.promocode]).sort()).toEqual([
      ['maria@example.com', null],
      ['otra@example.com', 'ULTIMO'],
    ]);
  });

  it('refuses an expired or not-yet-valid promo code', async () => {
    await addPromo(context, 'VIEJO', { validUntil: new Date('2026-06-01T00:00:00Z') });
    await addPromo(context, 'FUTURO', { validFrom: new Date('2027-01-01T00:00:00Z') });
    expect((await register(context.app, { promocode: 'VIEJO' })).statusCode).toBe(422);
    expect((await register(context.app, { promocode: 'FUTURO' })).statusCode).toBe(422);
  });
});

describe('register from Uruguay', () => {
  const context = useTestApp({ TRUST_PROXY: '1' });

  it('is refused with 403 and "not available in your region"', async () => {
    const response = await register(context.app, {}, { 'x-forwarded-for': '167.56.0.1' });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({ message: 'No disponible en tu región', code: 'FORBIDDEN' });
    expect(await userCount(context)).toBe(0);

    const fromBrazil = await register(context.app, {}, { 'x-forwarded-for': '200.147.67.142' });
    expect(fromBrazil.statusCode).toBe(202);
  });
});

describe('login, sessions and logout', () => {
  const clock = manualClock();
  const context = useTestApp({}, () => ({ clock }));
  const credentials = { email: validRegistration.email, password: validRegistration.password };

  it('answers a token that get-settings accepts, for any case of the e-mail', async () => {
    await registeredToken(context.app);
    const response = await login(context.app, { ...credentials, email: 'Maria@EXAMPLE.com' });
    expect(response.statusCode).toBe(200);
    const { token } = response.json<{ data: { token: string } }>().data;
    expect((await getSettings(context.app, token)).statusCode).toBe(200);
  });

  it('answers an unknown e-mail and a wrong password identically', async () => {
    await registeredToken(context.app);
    const unknown = await login(context.app, { email: 'nadie@example.com', password: 'segura123' });
    const wrong = await login(context.app, { ...credentials, password: 'incorrecta1' });
    expect(unknown.statusCode).toBe(401);
    expect(wrong.statusCode).toBe(401);
    expect(unknown.body).toBe(wrong.body);
    expect(wrong.json()).toEqual({
      message: 'Correo electrónico o contraseña incorrectos',
      code: 'UNAUTHENTICATED',
    });
  });

  it('expires a session after 24 h without rememberMe and 30 days with it', async () => {
    await registeredToken(context.app);
    const short = (await login(context.app, credentials)).json<{ data: { token: string } }>().data
      .token;
    const long = (await login(context.app, { ...credentials, rememberMe: true })).json<{
      data: { token: string };
    }>().data.token;

    clock.advance(sessionLifetimeMs.default - 1000);
    expect((await getSettings(context.app, short)).statusCode).toBe(200);
    clock.advance(2000);
    expect((await getSettings(context.app, short)).statusCode).toBe(401);
    expect((await getSettings(context.app, long)).statusCode).toBe(200);

    clock.advance(sessionLifetimeMs.remembered - sessionLifetimeMs.default);
    expect((await getSettings(context.app, long)).statusCode).toBe(401);
  });

  it('revokes the token at logout, and only that one', async () => {
    const first = await registeredToken(context.app);
    const second = (await login(context.app, credentials)).json<{ data: { token: string } }>().data
      .token;
    const logout = await context.app.inject({
      method: 'POST',
      url: `${v1}/logout`,
      headers: bearer(first),
    });
    expect(logout.statusCode).toBe(200);
    expect(logout.json()).toEqual({ data: { loggedOut: true } });
    expect((await getSettings(context.app, first)).statusCode).toBe(401);
    expect((await getSettings(context.app, second)).statusCode).toBe(200);
  });

  it.each([
    ['no header', {}],
    ['a made-up token', bearer('x'.repeat(43))],
    ['a malformed header', { authorization: 'Token abc' }],
  ])('refuses get-settings with %s', async (_case, headers) => {
    const response = await context.app.inject({ url: `${v1}/get-settings`, headers });
    expect(response.statusCode).toBe(401);
    expect(response.json<{ code: string }>().code).toBe('UNAUTHENTICATED');
  });

  it('ten wrong passwords from elsewhere no longer lock the owner out (issue 18, finding 8)', async () => {
    await registeredToken(context.app);
    for (let attempt = 1; attempt <= 10; attempt++) {
      const response = await login(
        context.app,
        { ...credentials, password: 'mala12345' },
        `10.0.3.${attempt}`,
      );
      expect(response.statusCode, `attempt ${attempt}`).toBe(401);
    }
    // The owner, from an address never seen before, with the right password.
    expect((await login(context.app, credentials, '10.0.4.1')).statusCode).toBe(200);
  });

  it('brute force from one address stops after 10 tries on the account', async () => {
    await registeredToken(context.app);
    for (let attempt = 1; attempt <= 10; attempt++) {
      const response = await login(
        context.app,
        { ...credentials, password: 'mala12345' },
        '10.0.5.1',
      );
      expect(response.statusCode, `attempt ${attempt}`).toBe(401);
    }
    // Even the right password from that address waits now: the guess is not tested.
    expect((await login(context.app, credentials, '10.0.5.1')).statusCode).toBe(429);
    expect((await login(context.app, credentials, '10.0.5.2')).statusCode).toBe(200);
  });

  it('brute force from many addresses is stopped; the owner at a known address still gets in (issue 18)', async () => {
    await registeredToken(context.app);
    // The owner signed in before from home: that address is known for the account.
    expect((await login(context.app, credentials, '10.0.9.1')).statusCode).toBe(200);
    // The limits count in wall-clock time (@fastify/rate-limit): the test moves Date.
    vi.useFakeTimers({ toFake: ['Date'] });
    onTestFinished(() => {
      vi.useRealTimers();
    });
    // Thirty wrong passwords, each from another address: the account's budget for unknown
    // addresses, 30 failures an hour (the owner's sign-in cleared what it had counted).
    for (let attempt = 1; attempt <= 30; attempt++) {
      const response = await login(
        context.app,
        { ...credentials, password: 'mala12345' },
        `10.0.0.${attempt}`,
      );
      expect(response.statusCode, `attempt ${attempt}`).toBe(401);
    }
    const blocked = await login(context.app, credentials, '10.0.1.1');
    expect(blocked.statusCode).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(50 * 60);
    expect(blocked.json()).toEqual({
      // The wait its Retry-After gives, in words (issue 39).
      message: expect.stringMatching(
        /^Demasiados intentos\. Vuelve a intentarlo en \d+ minutos\.$/,
      ) as string,
      code: 'RATE_LIMITED',
    });
    // The owner's correct password from the known address is not locked out.
    expect((await login(context.app, credentials, '10.0.9.1')).statusCode).toBe(200);
    vi.setSystemTime(Date.now() + 60 * 60 * 1000);
    expect((await login(context.app, credentials, '10.0.1.1')).statusCode).toBe(200);
  });

  it('limits attempts per IP across accounts', async () => {
    for (let attempt = 1; attempt <= 30; attempt++) {
      const response = await login(
        context.app,
        { email: `u${attempt}@example.com`, password: 'x1234567' },
        '10.9.9.9',
      );
      expect(response.statusCode).toBe(401);
    }
    expect(
      (await login(context.app, { email: 'u31@example.com', password: 'x1234567' }, '10.9.9.9'))
        .statusCode,
    ).toBe(429);
    expect(
      (await login(context.app, { email: 'u31@example.com', password: 'x1234567' }, '10.9.9.8'))
        .statusCode,
    ).toBe(401);
  });
});

describe('newsletter', () => {
  const context = useTestApp();

  it('toggles the subscription and get-settings reflects it', async () => {
    const token = await registeredToken(context.app);
    const on = await context.app.inject({
      method: 'POST',
      url: `${v1}/newsletter`,
      headers: bearer(token),
    });
    expect(on.json()).toEqual({ data: { subscribed_newsletter: true } });
    const settings = (await getSettings(context.app, token)).json<{
      data: { user: { subscribed_newsletter: boolean } };
    }>();
    expect(settings.data.user.subscribed_newsletter).toBe(true);
    const off = await context.app.inject({
      method: 'POST',
      url: `${v1}/newsletter`,
      headers: bearer(token),
    });
    expect(off.json()).toEqual({ data: { subscribed_newsletter: false } });
  });

  it('needs a session', async () => {
    expect((await context.app.inject({ method: 'POST', url: `${v1}/newsletter` })).statusCode).toBe(
      401,
    );
  });
});

describe('promo codes', () => {
  const context = useTestApp();

  it('validates without a session, case-insensitively', async () => {
    await addPromo(context, 'MESGRATIS');
    const valid = await context.app.inject({
      method: 'POST',
      url: `${v1}/validate-promocode`,
      payload: { promocode: 'mesgratis' },
    });
    expect(valid.json()).toEqual({ data: { valid: true, benefit: 'free_month' } });
    const invalid = await context.app.inject({
      method: 'POST',
      url: `${v1}/validate-promocode`,
      payload: { promocode: 'OTRO' },
    });
    expect(invalid.json()).toEqual({ data: { valid: false, benefit: null } });
    const empty = await context.app.inject({
      method: 'POST',
      url: `${v1}/validate-promocode`,
      payload: { promocode: ' ' },
    });
    expect(empty.statusCode).toBe(422);
  });

  it('rate-limits validation per IP', async () => {
    for (let attempt = 1; attempt <= 30; attempt++) {
      await context.app.inject({
        method: 'POST',
        url: `${v1}/validate-promocode`,
        payload: { promocode: `C${attempt}` },
      });
    }
    const blocked = await context.app.inject({
      method: 'POST',
      url: `${v1}/validate-promocode`,
      payload: { promocode: 'C31' },
      headers: { 'accept-language': 'pt' },
    });
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json<{ message: string }>().message).toMatch(
      /^Muitas tentativas\. Tente novamente em \d+ segundos\.$/,
    );
  });

  it("applies a code to the signed-in user's account, once", async () => {
    await addPromo(context, 'MESGRATIS', { maxUses: 5 });
    const token = await registeredToken(context.app);
    const update = (promocode: string) =>
      context.app.inject({
        method: 'PUT',
        url: `${v1}/update-promocode`,
        headers: bearer(token),
        payload: { promocode, language: 'es' },
      });
    // A free-month code starts the month at once (issue 10): it says until when.
    expect((await update('mesgratis')).json()).toEqual({
      data: {
        promocode: 'MESGRATIS',
        benefit: 'free_month',
        trialEndsAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) as string,
      },
    });
    expect((await update('MESGRATIS')).statusCode).toBe(200);
    const [promo] = await context.app.database.db
      .select()
      .from(promoCodes)
      .where(eq(promoCodes.code, 'MESGRATIS'));
    expect(promo?.uses).toBe(1);

    const invalid = await update('NADA');
    expect(invalid.statusCode).toBe(422);
    expect(invalid.json<{ errors: Record<string, string[]> }>().errors.promocode).toEqual([
      'El código promocional es inválido',
    ]);
    const [row] = await context.app.database.db
      .select()
      .from(users)
      .where(eq(users.email, validRegistration.email));
    expect(row?.promocode).toBe('MESGRATIS');
  });
});

describe('email-subscription', () => {
  const context = useTestApp();
  // The landing's promotion must have a usable code to mail (docs/decisions/049).
  beforeEach(async () => {
    await new PromoCodesRepository(context.app.database.db).upsert({
      code: 'MESGRATIS',
      benefit: 'free_month',
      validFrom: new Date('2026-01-01T00:00:00Z'),
    });
  });
  const subscribe = (payload: unknown) =>
    context.app.inject({
      method: 'POST',
      url: `${v1}/email-subscription`,
      payload: payload as Record<string, unknown>,
    });

  it('stores an e-mail once, case-insensitively', async () => {
    const first = await subscribe({ email: 'Ana@Example.com', promo: 'mesgratis' });
    expect(first.statusCode).toBe(201);
    expect(first.json()).toEqual({ data: { status: 'subscribed' } });
    const again = await subscribe({ email: 'ana@example.com', promo: 'mesgratis' });
    // The same answer as a first subscription: it tells nobody who is subscribed (issue 18).
    expect(again.statusCode).toBe(201);
    expect(again.json()).toEqual({ data: { status: 'subscribed' } });
    expect(await context.app.database.db.select().from(emailSubscriptions)).toHaveLength(1);
  });

  it('validates the e-mail', async () => {
    const response = await subscribe({ email: 'ana@', promo: 'mesgratis' });
    expect(response.statusCode).toBe(422);
    expect(response.json<{ errors: Record<string, string[]> }>().errors.email).toEqual([
      'Correo electrónico inválido',
    ]);
  });
});
