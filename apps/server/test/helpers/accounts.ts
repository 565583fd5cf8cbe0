import fs from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Clock } from '../../src/repositories/clock';

export const v1 = '/core-api/public/api/v1';

export const validRegistration = {
  name: 'María',
  last_name: 'Gonçalves',
  email: 'maria@example.com',
  phone: '+54 11 5555-1234',
  password: 'segura123',
  confirm_password: 'segura123',
  accept_terms: true,
  promocode: '',
  partner_id: '77',
  client_source: 'newsletter',
  referral: 'utm_source=google|utm_campaign=Invierno 2026 |',
};

/** A clock the test moves by hand. */
export function manualClock(start = new Date('2026-11-21T12:00:00Z')) {
  let current = start.getTime();
  const clock: Clock & { advance(ms: number): void } = {
    now: () => new Date(current),
    advance: (ms) => {
      current += ms;
    },
  };
  return clock;
}

export async function register(
  app: FastifyInstance,
  overrides: Partial<typeof validRegistration> & Record<string, unknown> = {},
  headers: Record<string, string> = {},
) {
  return app.inject({
    method: 'POST',
    url: `${v1}/register`,
    payload: { ...validRegistration, ...overrides },
    headers,
  });
}

export async function registeredToken(app: FastifyInstance, email = validRegistration.email) {
  const response = await register(app, { email });
  if (response.statusCode !== 201) throw new Error(`register failed: ${response.body}`);
  return response.json<{ data: { token: string } }>().data.token;
}

export async function login(
  app: FastifyInstance,
  body: { email: string; password: string; rememberMe?: boolean },
  remoteAddress = '127.0.0.1',
) {
  return app.inject({ method: 'POST', url: `${v1}/login`, payload: body, remoteAddress });
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

export async function getSettings(app: FastifyInstance, token: string) {
  return app.inject({ url: `${v1}/get-settings`, headers: bearer(token) });
}

/** The .eml files written so far, oldest first. E-mail goes out after the answer: poll. */
export async function readMails(mailDir: string, atLeast = 1): Promise<string[]> {
  const deadline = Date.now() + 5000;
  for (;;) {
    const files = (await fs.readdir(mailDir).catch(() => []))
      .filter((file) => file.endsWith('.eml'))
      .sort();
    if (files.length >= atLeast || Date.now() > deadline) {
      return Promise.all(files.map((file) => fs.readFile(path.join(mailDir, file), 'utf8')));
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Registers the standard user, asks for a recovery code and answers it from the e-mail. */
export async function registeredWithRecoveryCode(app: FastifyInstance, mailDir: string) {
  await registeredToken(app);
  await app.inject({
    method: 'POST',
    url: `${v1}/forgot-password`,
    payload: { email: validRegistration.email },
  });
  return codeIn((await readMails(mailDir))[0] ?? '');
}

/** The six-digit code in a recovery e-mail (text part, possibly quoted-printable). */
export function codeIn(mail: string): string {
  const match = /^\s{4}(\d{6})\s*$/m.exec(mail);
  if (!match?.[1]) throw new Error(`no code in mail:\n${mail}`);
  return match[1];
}
