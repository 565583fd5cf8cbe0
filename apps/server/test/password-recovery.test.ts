import { simpleParser } from 'mailparser';
import { describe, expect, it } from 'vitest';
import { recoveryPolicy } from '../src/services/password-recovery.service';
import { useTestApp } from './helpers/app';
import {
  codeIn,
  getSettings,
  login,
  manualClock,
  readMails,
  registeredToken,
  v1,
  validRegistration,
} from './helpers/accounts';

const email = validRegistration.email;
const newPassword = 'nueva4567';

describe('password recovery by e-mailed code', () => {
  const clock = manualClock();
  const context = useTestApp({}, () => ({ clock }));

  const forgot = (body: Record<string, unknown>, remoteAddress = '127.0.0.1') =>
    context.app.inject({
      method: 'POST',
      url: `${v1}/forgot-password`,
      payload: body,
      remoteAddress,
    });
  const setPassword = (otp: string, overrides: Record<string, unknown> = {}) =>
    context.app.inject({
      method: 'POST',
      url: `${v1}/set-password`,
      payload: { email, otp, password: newPassword, confirm_password: newPassword, ...overrides },
    });
  const wrongCodeFor = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

  it('answers the same whether or not the e-mail has an account, and mails only real ones', async () => {
    await registeredToken(context.app);
    const known = await forgot({ email, language: 'es' });
    const unknown = await forgot({ email: 'nadie@example.com', language: 'es' });
    expect(known.statusCode).toBe(200);
    expect(unknown.statusCode).toBe(200);
    expect(known.body).toBe(unknown.body);
    expect(known.json()).toEqual({ data: { sent: true } });
    const mails = await readMails(context.mailDir);
    expect(mails).toHaveLength(1);
    expect(mails[0]).toContain(`To: ${email}`);
  });

  it('writes an RFC 822 message in the request language, with text and HTML parts', async () => {
    await registeredToken(context.app);
    await forgot({ email, language: 'pt' });
    const [mail = ''] = await readMails(context.mailDir);
    const parsed = await simpleParser(mail);
    expect(parsed.subject).toBe('Seu código para recuperar a senha');
    expect(parsed.to).toMatchObject({ text: email });
    expect(parsed.html).toContain('<html dir="ltr" lang="pt">');
    expect(codeIn(mail)).toMatch(/^\d{6}$/);
  });

  it('sets the new password with the code, ends every session, and the code works once', async () => {
    const oldToken = await registeredToken(context.app);
    await forgot({ email, language: 'es' });
    const code = codeIn((await readMails(context.mailDir))[0] ?? '');

    const changed = await setPassword(code);
    expect(changed.statusCode).toBe(200);
    expect(changed.json()).toEqual({ data: { changed: true } });

    expect((await getSettings(context.app, oldToken)).statusCode).toBe(401);
    expect(
      (await login(context.app, { email, password: validRegistration.password })).statusCode,
    ).toBe(401);
    expect((await login(context.app, { email, password: newPassword })).statusCode).toBe(200);

    const reused = await setPassword(code, {
      password: 'otra98765',
      confirm_password: 'otra98765',
    });
    expect(reused.statusCode).toBe(422);
    expect(reused.json()).toEqual({
      message: 'Código incorrecto o vencido',
      code: 'VALIDATION_FAILED',
      errors: { otp: ['Código incorrecto o vencido'] },
    });
  });

  it(`allows ${recoveryPolicy.maxTries} wrong tries, then not even the right code`, async () => {
    await registeredToken(context.app);
    await forgot({ email, language: 'es' });
    const code = codeIn((await readMails(context.mailDir))[0] ?? '');
    for (let attempt = 1; attempt <= recoveryPolicy.maxTries; attempt++) {
      expect((await setPassword(wrongCodeFor(code))).statusCode).toBe(422);
    }
    expect((await setPassword(code)).statusCode).toBe(422);
    expect(
      (await login(context.app, { email, password: validRegistration.password })).statusCode,
    ).toBe(200);
  });

  it('expires the code after 15 minutes', async () => {
    await registeredToken(context.app);
    await forgot({ email, language: 'es' });
    const code = codeIn((await readMails(context.mailDir))[0] ?? '');
    clock.advance(recoveryPolicy.validMinutes * 60_000 + 1000);
    expect((await setPassword(code)).statusCode).toBe(422);
  });

  it('a new code replaces the previous one', async () => {
    await registeredToken(context.app);
    await forgot({ email, language: 'es' });
    const first = codeIn((await readMails(context.mailDir, 1))[0] ?? '');
    await forgot({ email, language: 'es' });
    const second = codeIn((await readMails(context.mailDir, 2))[1] ?? '');
    if (first !== second) expect((await setPassword(first)).statusCode).toBe(422);
    expect((await setPassword(second)).statusCode).toBe(200);
  });

  it('validates the new password and the code format', async () => {
    const response = await setPassword('12a', { password: 'corta', confirm_password: 'distinta' });
    expect(response.statusCode).toBe(422);
    expect(response.json<{ errors: Record<string, string[]> }>().errors).toEqual({
      otp: ['Solo se permiten números'],
      password: [
        'Mínimo 8 caracteres',
        'La contraseña debe contener al menos una letra y un número',
      ],
      confirm_password: ['Las contraseñas no coinciden'],
    });
  });

  it('rate-limits requests per account and per IP', async () => {
    await registeredToken(context.app);
    for (let attempt = 1; attempt <= 3; attempt++) {
      expect((await forgot({ email, language: 'es' }, `10.1.0.${attempt}`)).statusCode).toBe(200);
    }
    expect((await forgot({ email, language: 'es' }, '10.1.0.9')).statusCode).toBe(429);

    for (let attempt = 1; attempt <= 10; attempt++) {
      await forgot({ email: `x${attempt}@example.com`, language: 'es' }, '10.2.0.1');
    }
    expect(
      (await forgot({ email: 'x11@example.com', language: 'es' }, '10.2.0.1')).statusCode,
    ).toBe(429);
  });
});
