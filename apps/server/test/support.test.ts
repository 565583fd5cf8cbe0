import { simpleParser } from 'mailparser';
import { describe, expect, it } from 'vitest';
import {
  bearer,
  getSettings,
  manualClock,
  readMails,
  registeredToken,
  v1,
} from './helpers/accounts';
import {
  adminPasswordStep,
  adminSecondStep,
  auditEntries,
  createAdmin,
  signedInAdmin,
  totpCode,
} from './helpers/admin';
import { useTestApp } from './helpers/app';

// Friday 20 November 2026, 15:00 in Buenos Aires (UTC-3).
const friday3pm = new Date('2026-11-20T18:00:00Z');
const message = {
  kind: 'customer_service',
  subject: 'No veo mis operaciones',
  message: 'Desde ayer el panel no me muestra las operaciones cerradas.',
};

describe('contact (spec §2, decision 056)', () => {
  const clock = manualClock(friday3pm);
  const context = useTestApp(
    { SUPPORT_EMAIL: 'ayuda@tradebot.test', PUBLIC_URL: 'https://tradebot.test' },
    () => ({ clock }),
  );
  const send = (headers: Record<string, string>, payload: Record<string, unknown> = message) =>
    context.app.inject({ method: 'POST', url: `${v1}/contact`, headers, payload });

  it('requires login', async () => {
    const response = await send({});
    expect(response.statusCode).toBe(401);
    expect(response.json()).toMatchObject({ code: 'UNAUTHENTICATED' });
  });

  it('stores the message, due 24 working hours later, skipping the weekend', async () => {
    const token = await registeredToken(context.app);
    const response = await send(bearer(token));
    expect(response.statusCode).toBe(201);
    const { data } = response.json<{ data: { id: string; dueAt: string } }>();
    expect(data).toMatchObject({ dueAt: '2026-11-23T18:00:00.000Z', replyWorkingHours: 24 });
    expect(data.id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('e-mails support, and acknowledges to the user in their language with the due time', async () => {
    const token = await registeredToken(context.app);
    await send(
      { ...bearer(token), 'accept-language': 'pt-BR' },
      { ...message, kind: 'suggestion' },
    );
    const mails = await Promise.all(
      (await readMails(context.mailDir, 2)).map((m) => simpleParser(m)),
    );
    const toSupport = mails.find(
      (mail) => mail.to && 'text' in mail.to && mail.to.text === 'ayuda@tradebot.test',
    );
    const toUser = mails.find(
      (mail) => mail.to && 'text' in mail.to && mail.to.text === 'maria@example.com',
    );
    expect(toSupport?.subject).toBe(`[Contacto] ${message.subject}`);
    expect(toSupport?.text).toContain('De: María Gonçalves <maria@example.com>');
    expect(toSupport?.text).toContain('Tipo: comentarios y sugerencias');
    expect(toSupport?.text).toMatch(
      /Consola: https:\/\/tradebot\.test\/admin\/messages\/[0-9a-f-]{36}/,
    );
    expect(toSupport?.text).toContain(message.message);
    expect(toUser?.subject).toBe(`Recebemos sua mensagem: ${message.subject}`);
    expect(toUser?.text).toContain('Respondemos em até 24 horas úteis');
    // Monday 23 November, 15:00 in the operator's zone.
    expect(toUser?.text).toMatch(/segunda-feira, 23 de novembro de 2026.*15:00/);
    expect(toUser?.html).toContain('<html dir="ltr" lang="pt">');
  });

  it('validates every field with localized messages and stores nothing', async () => {
    const token = await registeredToken(context.app);
    const response = await send(bearer(token), {
      kind: 'complaint',
      subject: 'x'.repeat(151),
      message: 'corto',
      extra: true,
    });
    expect(response.statusCode).toBe(422);
    expect(response.json()).toMatchObject({
      code: 'VALIDATION_FAILED',
      errors: {
        subject: ['Máximo 150 caracteres'],
        message: ['Mínimo 10 caracteres'],
      },
    });
    expect(Object.keys(response.json<{ errors: object }>().errors)).toContain('kind');
    expect(await readMails(context.mailDir, 0)).toEqual([]);
  });

  it('is rate-limited per account', async () => {
    const token = await registeredToken(context.app);
    for (let sent = 0; sent < 5; sent++) expect((await send(bearer(token))).statusCode).toBe(201);
    const refused = await send(bearer(token));
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toBeDefined();
  });
});

describe('admin access (decision 057)', () => {
  const clock = manualClock(friday3pm);
  const context = useTestApp({}, () => ({ clock }));
  const inbox = (headers: Record<string, string>) =>
    context.app.inject({ url: `${v1}/admin/messages`, headers });

  it("refuses a user's token with 403 and no token with 401", async () => {
    const token = await registeredToken(context.app);
    const asUser = await inbox(bearer(token));
    expect(asUser.statusCode).toBe(403);
    expect(asUser.json()).toMatchObject({
      code: 'FORBIDDEN',
      message: 'Esta sección es solo para el equipo de soporte.',
    });
    expect((await inbox({})).statusCode).toBe(401);
    expect((await inbox(bearer('x'.repeat(43)))).statusCode).toBe(401);
  });

  it('a password without its second factor gets 401 everywhere in the console', async () => {
    const admin = await createAdmin(context.app);
    const first = await adminPasswordStep(context.app, admin);
    expect(first.statusCode).toBe(200);
    const { data } = first.json<{ data: { token: string; secondFactor: string } }>();
    expect(data.secondFactor).toBe('required');
    for (const url of ['/admin/messages', '/admin/me', '/admin/audit-log', '/admin/promo-codes']) {
      const response = await context.app.inject({
        url: `${v1}${url}`,
        headers: bearer(data.token),
      });
      expect(response.statusCode).toBe(401);
      expect(response.json()).toMatchObject({
        message: 'Falta el segundo factor: ingresa el código de tu aplicación de autenticación.',
      });
    }
  });

  it('signs in with the TOTP code, once; a wrong password or code is refused', async () => {
    const admin = await createAdmin(context.app);
    const wrong = await adminPasswordStep(context.app, { ...admin, password: 'otra-clave-2026' });
    expect(wrong.statusCode).toBe(401);

    const { token } = (await adminPasswordStep(context.app, admin)).json<{
      data: { token: string };
    }>().data;
    const code = await totpCode(admin.secret, clock.now());
    const wrongCode = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
    expect((await adminSecondStep(context.app, token, wrongCode)).statusCode).toBe(401);
    const signedIn = await adminSecondStep(context.app, token, code);
    expect(signedIn.statusCode).toBe(200);
    expect(signedIn.json()).toMatchObject({
      data: {
        admin: { email: admin.email, name: 'Sofía Soporte' },
        expiresAt: new Date(clock.now().getTime() + 8 * 3_600_000).toISOString(),
      },
    });
    expect((await inbox(bearer(token))).statusCode).toBe(200);
    // An admin's token is nothing on the users' side.
    expect((await getSettings(context.app, token)).statusCode).toBe(401);

    // The same code cannot open a second session.
    const again = (await adminPasswordStep(context.app, admin)).json<{ data: { token: string } }>()
      .data;
    expect((await adminSecondStep(context.app, again.token, code)).statusCode).toBe(401);
  });

  it('ends a half-open session after five wrong codes, and after five minutes', async () => {
    const admin = await createAdmin(context.app);
    const { token } = (await adminPasswordStep(context.app, admin)).json<{
      data: { token: string };
    }>().data;
    for (let tries = 0; tries < 5; tries++) await adminSecondStep(context.app, token, '000000');
    const right = await adminSecondStep(
      context.app,
      token,
      await totpCode(admin.secret, clock.now()),
    );
    expect(right.statusCode).toBe(401);

    const late = (await adminPasswordStep(context.app, admin)).json<{ data: { token: string } }>()
      .data;
    clock.advance(5 * 60_000 + 1);
    const expired = await adminSecondStep(
      context.app,
      late.token,
      await totpCode(admin.secret, clock.now()),
    );
    expect(expired.statusCode).toBe(401);
  });

  it('signs out: the token stops working, and both are in the audit log', async () => {
    const admin = await createAdmin(context.app);
    const headers = await signedInAdmin(context.app, clock, admin);
    const out = await context.app.inject({ method: 'POST', url: `${v1}/admin/logout`, headers });
    expect(out.statusCode).toBe(200);
    expect((await inbox(headers)).statusCode).toBe(401);
    const other = await signedInAdmin(context.app, clock, admin);
    const actions = (await auditEntries(context.app, other)).map((entry) => entry.action);
    expect(actions.filter((action) => action === 'admin.signed_in')).toHaveLength(2);
    expect(actions).toContain('admin.signed_out');
  });
});

describe('the inbox (decision 057)', () => {
  const clock = manualClock(friday3pm);
  const context = useTestApp({}, () => ({ clock }));

  async function messageFromUser(email = 'maria@example.com', language = 'es') {
    const token = await registeredToken(context.app, email);
    const response = await context.app.inject({
      method: 'POST',
      url: `${v1}/contact`,
      headers: { ...bearer(token), 'accept-language': language },
      payload: message,
    });
    return response.json<{ data: { id: string } }>().data.id;
  }

  it('lists open messages by due time and marks the overdue ones', async () => {
    const first = await messageFromUser('primero@example.com');
    clock.advance(60 * 60_000);
    const second = await messageFromUser('segundo@example.com');
    const admin = await createAdmin(context.app);
    let headers = await signedInAdmin(context.app, clock, admin);
    const list = async () =>
      (await context.app.inject({ url: `${v1}/admin/messages`, headers })).json<{
        data: {
          messages: { id: string; overdue: boolean; user: { email: string } }[];
          total: number;
          overdue: number;
        };
      }>().data;
    const before = await list();
    expect(before.messages.map((entry) => entry.id)).toEqual([first, second]);
    expect(before).toMatchObject({ total: 2, overdue: 0 });
    expect(before.messages[0]?.user.email).toBe('primero@example.com');
    // Monday 15:30 (a new shift, a new session): the first one is late, the second not yet.
    clock.advance(3 * 24 * 60 * 60_000 - 30 * 60_000);
    headers = await signedInAdmin(context.app, clock, admin);
    const after = await list();
    expect(after.messages.map((entry) => entry.overdue)).toEqual([true, false]);
    expect(after.overdue).toBe(1);
  });

  it('a reply is kept in the thread, e-mailed to the user in their language, and audited', async () => {
    const id = await messageFromUser('maria@example.com', 'pt');
    const admin = await createAdmin(context.app);
    const headers = await signedInAdmin(context.app, clock, admin);
    const reply = 'Olá, María. Já corrigimos o painel:\nrecarregue a página.';
    const answered = await context.app.inject({
      method: 'POST',
      url: `${v1}/admin/messages/${id}/replies`,
      headers,
      payload: { body: reply },
    });
    expect(answered.statusCode).toBe(201);
    expect(answered.json()).toMatchObject({
      data: {
        id,
        status: 'answered',
        replies: 1,
        thread: [{ body: reply, admin: { name: 'Sofía Soporte' } }],
      },
    });
    clock.advance(60_000);
    const second = await context.app.inject({
      method: 'POST',
      url: `${v1}/admin/messages/${id}/replies`,
      headers,
      payload: { body: 'Algo mais?' },
    });
    const detail = second.json<{ data: { thread: { body: string }[]; answeredAt: string } }>().data;
    expect(detail.thread.map((entry) => entry.body)).toEqual([reply, 'Algo mais?']);

    const mails = await Promise.all(
      (await readMails(context.mailDir, 6)).map((m) => simpleParser(m)),
    );
    const replies = mails.filter((mail) => mail.subject === `Re: ${message.subject}`);
    expect(replies).toHaveLength(2);
    const first = replies.find((mail) => mail.text?.includes('recarregue a página.'));
    expect(first?.to).toMatchObject({ text: 'maria@example.com' });
    expect(first?.text).toContain('Esta é a resposta da equipe de suporte');
    expect(first?.text).toContain(`> ${message.message}`);

    const entries = (await auditEntries(context.app, headers)).filter(
      (entry) => entry.action === 'message.replied',
    );
    expect(entries).toHaveLength(2);
    expect(
      entries.map((entry) => [entry.before, entry.targetId, entry.admin?.email]),
    ).toContainEqual([{ status: 'open', replies: 0 }, id, admin.email]);
  });

  it('closes and reopens a message, audited; an unknown message is a 404', async () => {
    const id = await messageFromUser();
    const headers = await signedInAdmin(context.app, clock, await createAdmin(context.app));
    const closed = await context.app.inject({
      method: 'PUT',
      url: `${v1}/admin/messages/${id}/status`,
      headers,
      payload: { status: 'closed' },
    });
    expect(closed.json()).toMatchObject({ data: { status: 'closed' } });
    const entries = await auditEntries(context.app, headers);
    expect(entries[0]).toMatchObject({
      action: 'message.status_changed',
      targetId: id,
      before: { status: 'open' },
      after: { status: 'closed' },
    });
    const missing = await context.app.inject({
      url: `${v1}/admin/messages/00000000-0000-4000-8000-000000000000`,
      headers,
    });
    expect(missing.statusCode).toBe(404);
    const invalid = await context.app.inject({ url: `${v1}/admin/messages/nope`, headers });
    expect(invalid.statusCode).toBe(422);
  });
});
