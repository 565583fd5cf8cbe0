import type { AddressInfo } from 'node:net';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from './helpers/app';
import { confirmRegistration, register, v1, validRegistration } from './helpers/accounts';

interface Received {
  from: string;
  to: string[];
  raw: string;
}

/** A real SMTP server, in process, that keeps what it receives. */
const received: Received[] = [];
const smtp = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS'],
  onData(stream, session, callback) {
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('end', () => {
      received.push({
        from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
        to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
        raw: Buffer.concat(chunks).toString('utf8'),
      });
      callback();
    });
  },
});
let smtpPort = 0;

beforeAll(async () => {
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  smtpPort = (smtp.server.address() as AddressInfo).port;
});
afterAll(
  () =>
    new Promise<void>((resolve) => {
      smtp.close(resolve);
    }),
);

/** The first message received whose subject matches, waiting for it (5 s at most). */
async function mailMatching(subject: RegExp): Promise<Received> {
  const deadline = Date.now() + 5000;
  for (;;) {
    for (const message of received) {
      if (subject.test((await simpleParser(message.raw)).subject ?? '')) return message;
    }
    if (Date.now() > deadline) throw new Error(`none of ${received.length} messages matched`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('with SMTP_URL set', () => {
  const context = useTestApp(() => ({
    SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
    MAIL_FROM: 'Tradebot <no-reply@tradebot.test>',
  }));

  it('sends the registration link and the recovery code over SMTP, in the requested language, as text and HTML', async () => {
    // Registration's link (decision 085), followed from the browser that registered.
    const registered = await register(context.app);
    expect(registered.statusCode).toBe(202);
    const confirmation = await simpleParser((await mailMatching(/^Confirma tu correo/)).raw);
    expect(confirmation.subject).toBe('Confirma tu correo para crear tu cuenta de Tradebot');
    const token = /confirmation_token=([\w-]+)/.exec(confirmation.text ?? '')?.[1] ?? '';
    const confirmed = await confirmRegistration(context.app, {
      token,
      nonce: registered.json<{ data: { nonce: string } }>().data.nonce,
    });
    expect(confirmed.statusCode).toBe(201);

    const response = await context.app.inject({
      method: 'POST',
      url: `${v1}/forgot-password`,
      payload: { email: validRegistration.email, language: 'pt' },
    });
    expect(response.statusCode).toBe(200);

    const mail = await mailMatching(/^Seu código/);
    expect(mail.from).toBe('no-reply@tradebot.test');
    expect(mail.to).toEqual([validRegistration.email]);
    const parsed = await simpleParser(mail.raw);
    expect(parsed.subject).toBe('Seu código para recuperar a senha');
    expect(parsed.text).toMatch(/^Olá, María:/);
    expect(parsed.text).toMatch(/^\s{4}\d{6}$/m);
    expect(parsed.html).toContain('<html dir="ltr" lang="pt">');
  });
});
