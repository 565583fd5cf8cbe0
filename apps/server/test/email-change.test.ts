import { inArray } from 'drizzle-orm';
import { simpleParser, type ParsedMail } from 'mailparser';
import { describe, expect, it } from 'vitest';
import { emailChanges, users } from '../src/db/schema';
import { useTestApp } from './helpers/app';
import {
  bearer,
  getSettings,
  login,
  mailedLinkToken,
  manualClock,
  readMails,
  registeredToken,
  v1,
  validRegistration,
} from './helpers/accounts';

const publicUrl = 'https://app.tradebot.example';
const forgedHost = { host: 'attacker.test', 'x-forwarded-host': 'evil.example' };
const oldEmail = validRegistration.email;
const newEmail = 'maria.nueva@example.com';

describe('changing the e-mail address (decision 089)', () => {
  let clock = manualClock();
  const context = useTestApp({ PUBLIC_URL: publicUrl }, () => {
    clock = manualClock(new Date('2026-11-21T12:00:00Z'));
    return { clock };
  });

  const ask = (token: string, payload: Record<string, unknown>) =>
    context.app.inject({
      method: 'POST',
      url: `${v1}/account/email`,
      headers: { ...bearer(token), ...forgedHost },
      payload,
    });
  const useLink = (kind: 'confirm' | 'undo', token: string) =>
    context.app.inject({
      method: 'POST',
      url: `${v1}/account/email/${kind}`,
      payload: { token },
    });
  const signIn = async (email: string, password = validRegistration.password) => {
    const answer = await login(context.app, { email, password });
    return answer.statusCode === 200
      ? answer.json<{ data: { token: string } }>().data.token
      : undefined;
  };
  const parsedMailsTo = async (to: string, atLeast: number): Promise<ParsedMail[]> => {
    await context.app.services.emailChange.settled();
    const parsed = await Promise.all(
      (await readMails(context.mailDir, atLeast)).map((mail) => simpleParser(mail)),
    );
    return parsed.filter((mail) => mail.to && 'text' in mail.to && mail.to.text === to);
  };
  const storedEmail = async () => {
    const rows = await context.app.database.db
      .select({ email: users.email })
      .from(users)
      .where(inArray(users.email, [oldEmail, newEmail]));
    return rows.map((row) => row.email).join(',');
  };

  it('refuses without a session, a wrong password, the same address and a malformed one', async () => {
    const anonymous = await context.app.inject({
      method: 'POST',
      url: `${v1}/account/email`,
      payload: { email: newEmail, current_password: validRegistration.password },
    });
    expect(anonymous.statusCode).toBe(401);

    const token = await registeredToken(context.app, oldEmail, { language: 'pt' });
    const wrong = await ask(token, { email: newEmail, current_password: 'no-es-esta-1' });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json()).toMatchObject({
      errors: { current_password: ['A senha atual não está correta'] },
    });
    const same = await ask(token, {
      email: oldEmail.toUpperCase(),
      current_password: validRegistration.password,
    });
    expect(same.statusCode).toBe(422);
    expect(same.json()).toMatchObject({ errors: { email: ['Esse já é o e-mail da sua conta'] } });
    const malformed = await ask(token, {
      email: 'no-es-un-correo',
      current_password: validRegistration.password,
    });
    expect(malformed.statusCode).toBe(422);
    expect(Object.keys(malformed.json<{ errors: object }>().errors)).toEqual(['email']);

    await context.app.services.emailChange.settled();
    expect(await readMails(context.mailDir, 0)).toEqual([]);
    expect(await context.app.database.db.select().from(emailChanges)).toEqual([]);
  });

  it('changes the address only when the link mailed to it is used, once; other sessions end', async () => {
    const token = await registeredToken(context.app, oldEmail);
    const phone = await signIn(oldEmail);
    expect(phone).toBeDefined();

    const asked = await ask(token, {
      email: ` ${newEmail} `,
      current_password: validRegistration.password,
    });
    expect(asked.statusCode).toBe(202);
    expect(asked.json()).toEqual({ data: { sent: true, validHours: 24 } });

    const [confirmation] = await parsedMailsTo(newEmail, 2);
    expect(confirmation?.subject).toBe('Confirma tu nuevo correo de Tradebot');
    expect(confirmation?.text).toContain(`${publicUrl}/confirm-email?token=`);
    const [notice] = await parsedMailsTo(oldEmail, 2);
    expect(notice?.subject).toBe('Pidieron cambiar el correo de tu cuenta de Tradebot');
    expect(notice?.text).toContain(newEmail);
    expect(notice?.text).toContain(`${publicUrl}/confirm-email?undo_token=`);
    for (const mail of await readMails(context.mailDir, 2)) {
      expect(mail).not.toContain('attacker.test');
      expect(mail).not.toContain('evil.example');
    }

    // Nothing changed yet: the old address still signs in, the new one does not.
    expect(await storedEmail()).toBe(oldEmail);
    expect(await signIn(newEmail)).toBeUndefined();

    const link = await mailedLinkToken(context.app, newEmail, 'token');
    expect(link).toBeDefined();
    const confirmed = await useLink('confirm', link ?? '');
    expect(confirmed.statusCode).toBe(200);
    expect(confirmed.json()).toEqual({ data: { email: newEmail } });
    expect(await storedEmail()).toBe(newEmail);
    expect(await signIn(newEmail)).toBeDefined();
    expect(await signIn(oldEmail)).toBeUndefined();

    // The session that asked stays; the phone's ended.
    expect((await getSettings(context.app, token)).statusCode).toBe(200);
    expect((await getSettings(context.app, phone ?? '')).statusCode).toBe(401);
    const details = await context.app.inject({ url: `${v1}/account`, headers: bearer(token) });
    expect(details.json()).toMatchObject({ data: { email: newEmail } });

    const again = await useLink('confirm', link ?? '');
    expect(again.statusCode).toBe(404);
    expect(again.json()).toMatchObject({
      message: expect.stringContaining('El enlace no es válido') as unknown,
    });
  });

  it('a link expires after 24 hours, and a newer request replaces the one waiting', async () => {
    const token = await registeredToken(context.app, oldEmail);
    await ask(token, {
      email: 'primera@example.com',
      current_password: validRegistration.password,
    });
    const first = await mailedLinkToken(context.app, 'primera@example.com', 'token');
    await ask(token, { email: newEmail, current_password: validRegistration.password });
    const second = await mailedLinkToken(context.app, newEmail, 'token');
    expect((await useLink('confirm', first ?? '')).statusCode).toBe(404);

    clock.advance(24 * 3_600_000 + 1000);
    expect((await useLink('confirm', second ?? '')).statusCode).toBe(404);
    expect(await storedEmail()).toBe(oldEmail);
  });

  it('answers the same for an address that has an account, whose owner is told nothing changed', async () => {
    const taken = 'otra@example.com';
    await registeredToken(context.app, taken);
    const token = await registeredToken(context.app, oldEmail);
    const free = await ask(token, {
      email: 'libre@example.com',
      current_password: validRegistration.password,
    });
    const existing = await ask(token, {
      email: taken,
      current_password: validRegistration.password,
    });
    expect(existing.statusCode).toBe(free.statusCode);
    expect(existing.json()).toEqual(free.json());

    const [told] = await parsedMailsTo(taken, 4);
    expect(told?.subject).toBe('Alguien quiso usar tu correo en otra cuenta de Tradebot');
    expect(told?.text).not.toContain('token=');
    // The owner of the old address is told the same way in both cases.
    const notices = await parsedMailsTo(oldEmail, 4);
    expect(notices.map((mail) => mail.subject)).toEqual([
      'Pidieron cambiar el correo de tu cuenta de Tradebot',
      'Pidieron cambiar el correo de tu cuenta de Tradebot',
    ]);
  });

  it('409 when the new address got an account between asking and confirming', async () => {
    const token = await registeredToken(context.app, oldEmail);
    await ask(token, { email: newEmail, current_password: validRegistration.password });
    const link = await mailedLinkToken(context.app, newEmail, 'token');
    await registeredToken(context.app, newEmail);
    const confirmed = await useLink('confirm', link ?? '');
    expect(confirmed.statusCode).toBe(409);
    expect(confirmed.json()).toMatchObject({
      message: 'Ese correo ya pertenece a otra cuenta de Tradebot: tu correo no cambió.',
    });
    expect(await signIn(oldEmail)).toBeDefined();
  });

  it('"it was not me" cancels a waiting change and ends every session', async () => {
    const token = await registeredToken(context.app, oldEmail);
    await ask(token, { email: newEmail, current_password: validRegistration.password });
    const link = await mailedLinkToken(context.app, newEmail, 'token');
    const undo = await mailedLinkToken(context.app, oldEmail, 'undo_token');

    const undone = await useLink('undo', undo ?? '');
    expect(undone.statusCode).toBe(200);
    expect(undone.json()).toEqual({ data: { restored: false, signedOut: 1 } });
    expect((await getSettings(context.app, token)).statusCode).toBe(401);
    expect((await useLink('confirm', link ?? '')).statusCode).toBe(404);
    expect(await signIn(oldEmail)).toBeDefined();
  });

  it('"it was not me" puts the old address back after a confirmed change, for a week', async () => {
    const token = await registeredToken(context.app, oldEmail);
    await ask(token, { email: newEmail, current_password: validRegistration.password });
    const link = await mailedLinkToken(context.app, newEmail, 'token');
    const undo = await mailedLinkToken(context.app, oldEmail, 'undo_token');
    expect((await useLink('confirm', link ?? '')).statusCode).toBe(200);
    const newSession = await signIn(newEmail);

    clock.advance(6 * 86_400_000);
    const undone = await useLink('undo', undo ?? '');
    expect(undone.json()).toEqual({ data: { restored: true, signedOut: 2 } });
    expect(await storedEmail()).toBe(oldEmail);
    expect((await getSettings(context.app, newSession ?? '')).statusCode).toBe(401);
    expect(await signIn(oldEmail)).toBeDefined();

    clock.advance(86_400_000);
    expect((await useLink('undo', undo ?? '')).statusCode).toBe(404);
  });

  it('limits requests per user as register does', async () => {
    const token = await registeredToken(context.app, oldEmail);
    const codes: number[] = [];
    for (let attempt = 0; attempt < 6; attempt += 1) {
      const answer = await ask(token, {
        email: `n${String(attempt)}@example.com`,
        current_password: validRegistration.password,
      });
      codes.push(answer.statusCode);
    }
    expect(codes).toEqual([202, 202, 202, 202, 202, 429]);
  });
});
