import type { FastifyInstance } from 'fastify';
import { simpleParser, type ParsedMail } from 'mailparser';
import { afterEach, describe, expect, it } from 'vitest';
import type { MailMessage, Mailer } from '../src/repositories/mail.repository';
import { DrizzleOncePerWindow } from '../src/repositories/once-per-window.repository';
import { replica, useTestApp } from './helpers/app';
import {
  bearer,
  login,
  manualClock,
  confirmRegistration,
  readMails,
  register,
  registeredToken,
  v1,
  validRegistration,
} from './helpers/accounts';
import {
  adminSecondStep,
  auditEntries,
  createAdmin,
  signedInAdmin,
  totpCode,
  type TestAdmin,
} from './helpers/admin';

const publicUrl = 'https://tradebot.example';
const owner = { email: validRegistration.email, password: validRegistration.password };
const wrong = { ...owner, password: 'mala12345' };

/** A sign-in as an attacker sends it: its own Host and X-Forwarded-Host, which must not count. */
function attackerLogin(app: FastifyInstance, address: string, body = wrong) {
  return app.inject({
    method: 'POST',
    url: `${v1}/login`,
    remoteAddress: address,
    headers: { host: 'evil.example', 'x-forwarded-host': 'evil.example' },
    payload: body,
  });
}

async function parsedMails(mailDir: string, atLeast = 1): Promise<ParsedMail[]> {
  return Promise.all((await readMails(mailDir, atLeast)).map((mail) => simpleParser(mail)));
}

/** The e-mails sent so far, once every warning under way is out. */
async function mailsSettled(app: FastifyInstance, mailDir: string): Promise<ParsedMail[]> {
  await app.services.signInAlerts.settled();
  return parsedMails(mailDir, 0);
}

describe('a sign-in from a device the owner has not used lately (decision 163)', () => {
  const context = useTestApp({ PUBLIC_URL: publicUrl });
  const windowsChrome =
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
  const iphoneSafari =
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
  const signIn = (userAgent: string) =>
    context.app.inject({
      method: 'POST',
      url: `${v1}/login`,
      headers: { 'user-agent': userAgent },
      payload: owner,
    });

  it('mails the owner from the second device on, once per new device, never for their own', async () => {
    // She registered on her computer: its session names the device.
    await registeredToken(
      context.app,
      validRegistration.email,
      { language: 'es' },
      { 'user-agent': windowsChrome },
    );
    expect((await signIn(windowsChrome)).statusCode).toBe(200);
    expect(await mailsSettled(context.app, context.mailDir)).toEqual([]);

    expect((await signIn(iphoneSafari)).statusCode).toBe(200);
    const mails = await mailsSettled(context.app, context.mailDir);
    expect(mails).toHaveLength(1);
    expect(mails[0]?.subject).toBe('Nuevo inicio de sesión en tu cuenta de Tradebot');
    expect(mails[0]?.text).toContain('Safari en iOS (un teléfono o tableta)');
    expect(mails[0]?.text).toContain(`${publicUrl}/forgot-password`);
    expect(mails[0]?.text).toContain(`${publicUrl}/account-settings`);

    // The phone is hers now: signing in on it again says nothing more.
    expect((await signIn(iphoneSafari)).statusCode).toBe(200);
    expect(await mailsSettled(context.app, context.mailDir)).toHaveLength(1);
  });
});

describe('the owner hears of an attack on their account (issue 18, finding 8)', () => {
  const context = useTestApp({ PUBLIC_URL: publicUrl });

  it('mails the owner once, in their language, when one unknown address runs out of tries', async () => {
    await registeredToken(context.app, validRegistration.email, { language: 'pt' });
    // The owner signed in from home before.
    expect((await login(context.app, owner, '10.0.9.1')).statusCode).toBe(200);
    // The registration's e-mail was read (and removed): every mail below is the warning.
    for (let attempt = 1; attempt <= 10; attempt++) {
      expect((await attackerLogin(context.app, '203.0.113.7')).statusCode).toBe(401);
    }
    expect(await mailsSettled(context.app, context.mailDir)).toEqual([]);
    for (let attempt = 1; attempt <= 3; attempt++) {
      expect((await attackerLogin(context.app, '203.0.113.7')).statusCode).toBe(429);
    }
    // Others go on from elsewhere until the account's budget for unknown addresses runs out.
    for (let attempt = 1; attempt <= 25; attempt++) {
      await attackerLogin(context.app, `198.51.100.${attempt}`);
    }
    expect((await attackerLogin(context.app, '198.51.100.200')).statusCode).toBe(429);

    const mails = await mailsSettled(context.app, context.mailDir);
    expect(mails).toHaveLength(1);
    const [mail] = mails;
    expect(mail?.to).toMatchObject({ text: validRegistration.email });
    expect(mail?.subject).toBe('Vimos tentativas malsucedidas de entrar na sua conta');
    expect(mail?.text).toContain('Olá, María:');
    expect(mail?.text).toContain('sua senha continua funcionando nos seus dispositivos de sempre');
    // The link is built on the configured origin, in the account's language.
    expect(mail?.text).toContain(`${publicUrl}/pt/forgot-password`);
    // No support address was configured: the contact form, never a made-up address (decision 156).
    expect(mail?.text).toContain(`pelo formulário de contato: ${publicUrl}/pt/contact`);
    expect(mail?.text).not.toContain('tradebot.local');
    for (const part of [mail?.text, mail?.html]) {
      expect(part).not.toContain('evil.example');
      expect(part).not.toContain('203.0.113');
      expect(part).not.toContain('198.51.100');
      expect(part).not.toContain('mala12345');
    }
    // The owner is not locked out at home.
    expect((await login(context.app, owner, '10.0.9.1')).statusCode).toBe(200);
  });

  it('mails nobody for an unknown e-mail, nor for the owner mistyping at a known address', async () => {
    await registeredToken(context.app);
    expect((await login(context.app, owner, '10.0.9.1')).statusCode).toBe(200);
    // The owner's own address, known to the account: ten typos, then a refusal.
    for (let attempt = 1; attempt <= 11; attempt++) await login(context.app, wrong, '10.0.9.1');
    expect((await login(context.app, wrong, '10.0.9.1')).statusCode).toBe(429);
    // An e-mail with no account, from one address.
    for (let attempt = 1; attempt <= 12; attempt++) {
      await attackerLogin(context.app, '203.0.113.9', { ...wrong, email: 'nadie@example.com' });
    }
    expect(await mailsSettled(context.app, context.mailDir)).toEqual([]);
  });
});

/** Mail of every process, in one list. */
function recordingMailer(sent: MailMessage[]): Mailer {
  return {
    send: (message) => {
      sent.push(message);
      return Promise.resolve();
    },
    close: () => Promise.resolve(),
  };
}

describe('with two processes on one database', () => {
  const sent: MailMessage[] = [];
  const context = useTestApp({ PUBLIC_URL: publicUrl }, () => ({ mailer: recordingMailer(sent) }));
  let other: FastifyInstance | undefined;
  afterEach(async () => {
    await other?.close();
    other = undefined;
    sent.length = 0;
  });

  it('the owner still gets one e-mail a day, whichever process refused the sign-ins', async () => {
    other = await replica(context, { PUBLIC_URL: publicUrl }, undefined, {
      mailer: recordingMailer(sent),
    });
    // The account, confirmed through the link in the recorded e-mail.
    const registered = await register(context.app);
    await context.app.services.registration.settled();
    const link = sent
      .map((mail) => /confirmation_token=([\w-]+)/.exec(mail.text)?.[1])
      .find(Boolean);
    const confirmed = await confirmRegistration(context.app, {
      token: link ?? '',
      nonce: registered.json<{ data: { nonce: string } }>().data.nonce,
    });
    expect(confirmed.statusCode).toBe(201);
    // The welcome e-mail (issue 23) goes out after the answer: let it, then forget it.
    await context.app.services.registration.settled();
    sent.length = 0;
    // Each process counts its own (no Redis): each refuses its attacker after ten tries.
    for (const [app, address] of [
      [context.app, '203.0.113.7'],
      [other, '203.0.113.8'],
    ] as const) {
      for (let attempt = 1; attempt <= 11; attempt++) await attackerLogin(app, address);
      expect((await attackerLogin(app, address)).statusCode).toBe(429);
      await app.services.signInAlerts.settled();
    }
    expect(sent.map((mail) => [mail.to, mail.subject])).toEqual([
      [validRegistration.email, 'Vimos intentos fallidos de entrar en tu cuenta'],
    ]);
  });
});

describe('once per window, on the database clock (decision 079)', () => {
  const context = useTestApp();

  it('takes an item once per window, across owners, and again once given back or over', async () => {
    const first = new DrizzleOncePerWindow(context.app.database.db, 'process-a');
    const second = new DrizzleOncePerWindow(context.app.database.db, 'process-b');
    const taken = await Promise.all([
      first.take('sign-in-alert', 'user:1', 60_000),
      second.take('sign-in-alert', 'user:1', 60_000),
    ]);
    expect(taken.filter(Boolean)).toHaveLength(1);
    expect(await first.take('sign-in-alert', 'user:2', 60_000)).toBeDefined();

    // Given back (the mail failed): anyone may take it at once.
    const held = taken.find(Boolean);
    await held?.release();
    const again = await second.take('sign-in-alert', 'user:1', 300);
    expect(again).toBeDefined();
    expect(await first.take('sign-in-alert', 'user:1', 300)).toBeUndefined();
    // The window is over.
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(await first.take('sign-in-alert', 'user:1', 300)).toBeDefined();
  });
});

describe('the support console (issue 18, finding 8)', () => {
  const clock = manualClock();
  const context = useTestApp({ PUBLIC_URL: publicUrl }, () => ({ clock }));

  /** The password step; the clock moves a second after it, so the log's order is the test's. */
  const passwordStep = async (admin: Pick<TestAdmin, 'email' | 'password'>, address: string) => {
    const response = await context.app.inject({
      method: 'POST',
      url: `${v1}/admin/login`,
      remoteAddress: address,
      headers: { host: 'evil.example' },
      payload: { email: admin.email, password: admin.password },
    });
    clock.advance(1000);
    return response;
  };

  it('audits every failed sign-in: wrong password, unknown e-mail, wrong code, and the limits', async () => {
    const admin = await createAdmin(context.app);
    expect(
      (await passwordStep({ ...admin, password: 'clave-ajena-2026' }, '203.0.113.7')).statusCode,
    ).toBe(401);
    // Someone typing a password where the e-mail goes.
    const typed = 'Secreta2026@clave.example';
    expect((await passwordStep({ email: typed, password: 'x' }, '203.0.113.8')).statusCode).toBe(
      401,
    );
    const first = await passwordStep(admin, '10.0.0.5');
    const { token } = first.json<{ data: { token: string } }>().data;
    const code = await totpCode(admin.secret, clock.now());
    const wrongCode = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
    expect(
      (
        await context.app.inject({
          method: 'POST',
          url: `${v1}/admin/login/second-factor`,
          remoteAddress: '10.0.0.5',
          headers: bearer(token),
          payload: { code: wrongCode },
        })
      ).statusCode,
    ).toBe(401);
    clock.advance(1000);
    expect((await adminSecondStep(context.app, token, code)).statusCode).toBe(200);
    clock.advance(30_000);
    // Five wrong passwords from one address, then the limits: the refusal is audited once.
    for (let attempt = 1; attempt <= 5; attempt++) {
      await passwordStep({ ...admin, password: 'clave-ajena-2026' }, '203.0.113.9');
    }
    for (let attempt = 1; attempt <= 3; attempt++) {
      expect((await passwordStep(admin, '203.0.113.9')).statusCode).toBe(429);
    }

    const headers = bearer(token);
    const failures = (await auditEntries(context.app, headers)).filter(
      (entry) => entry.action === 'admin.sign_in_failed',
    );
    const summary = failures
      .map((entry) => [entry.after?.reason, entry.after?.address, entry.admin?.email ?? null])
      .reverse();
    expect(summary).toEqual([
      ['wrong_password', '203.0.113.7', admin.email],
      ['unknown_email', '203.0.113.8', null],
      ['wrong_code', '10.0.0.5', admin.email],
      ...Array<unknown>(5).fill(['wrong_password', '203.0.113.9', admin.email]),
      ['rate_limited', '203.0.113.9', admin.email],
    ]);
    const unknown = failures.find((entry) => entry.after?.reason === 'unknown_email');
    expect(unknown?.after?.emailDigest).toMatch(/^[0-9a-f]{16}$/);
    expect(unknown?.targetType).toBe('admin_sign_in');
    const stored = JSON.stringify(failures);
    for (const secret of [typed.toLowerCase(), 'Secreta2026', 'clave-ajena-2026', wrongCode]) {
      expect(stored.toLowerCase()).not.toContain(secret.toLowerCase());
    }
    // The same unknown e-mail shows the same digest.
    await passwordStep({ email: typed.toUpperCase(), password: 'y' }, '203.0.113.10');
    const digests = (await auditEntries(context.app, headers))
      .filter((entry) => entry.after?.reason === 'unknown_email')
      .map((entry) => entry.after?.emailDigest);
    expect(new Set(digests).size).toBe(1);

    // The admin is told, once, in the operator's language, with the console's configured address.
    await context.app.services.signInAlerts.settled();
    const mails = await parsedMails(context.mailDir, 0);
    expect(mails.map((mail) => mail.subject)).toEqual([
      '[Consola] Intentos fallidos de entrar con tu cuenta',
    ]);
    expect(mails[0]?.text).toContain(`${publicUrl}/admin`);
    expect(mails[0]?.text).toContain(
      'tu contraseña sigue funcionando desde tus equipos habituales',
    );
    expect(mails[0]?.text).not.toContain('evil.example');
    expect(mails[0]?.text).not.toContain('203.0.113');
  });

  it('the console still reads the log with a failed sign-in of no admin in it', async () => {
    const admin = await createAdmin(context.app);
    await passwordStep({ email: 'nadie@example.com', password: 'x' }, '203.0.113.8');
    const headers = await signedInAdmin(context.app, clock, admin);
    const response = await context.app.inject({ url: `${v1}/admin/audit-log`, headers });
    expect(response.statusCode).toBe(200);
    const [signedIn, failed] = response.json<{
      data: { entries: { action: string; admin: unknown }[] };
    }>().data.entries;
    expect(signedIn?.action).toBe('admin.signed_in');
    expect(failed).toMatchObject({ action: 'admin.sign_in_failed', admin: null });
  });
});
