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
  accept_privacy: true,
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
  remoteAddress = '127.0.0.1',
) {
  return app.inject({
    method: 'POST',
    url: `${v1}/register`,
    payload: { ...validRegistration, ...overrides },
    headers,
    remoteAddress,
  });
}

/** The e-mails (.eml) sent so far to `to` by this app, oldest first (embedded mode). */
async function mailFilesTo(app: FastifyInstance, to: string) {
  const directory = path.join(app.config.dataDir, 'mail');
  const names = (await fs.readdir(directory).catch(() => [] as string[]))
    .filter((name) => name.endsWith('.eml'))
    .sort();
  const mails = await Promise.all(
    names.map(async (name) => ({
      file: path.join(directory, name),
      text: await fs.readFile(path.join(directory, name), 'utf8'),
    })),
  );
  const recipient = new RegExp(`^To: .*${to.replace(/[.+]/g, '\\$&')}`, 'mi');
  return mails.filter((mail) => recipient.test(mail.text));
}

export async function mailsTo(app: FastifyInstance, to: string): Promise<string[]> {
  return (await mailFilesTo(app, to)).map((mail) => mail.text);
}

/** An e-mail's text with quoted-printable's soft breaks and escaped `=` undone. */
const quotedPrintable = (mail: string) => mail.replace(/=\r?\n/g, '').replaceAll('=3D', '=');

/**
 * The token of the newest confirmation link mailed to `to`, waiting for it (5 s at most).
 * With `consume`, its e-mail is removed once read, as a user deals with their inbox, so suites
 * that count the e-mails they cause see only theirs.
 */
export async function confirmationTokenFor(
  app: FastifyInstance,
  to: string,
  { consume = false } = {},
): Promise<string> {
  const deadline = Date.now() + 5000;
  for (;;) {
    await app.services.registration.settled();
    const links = (await mailFilesTo(app, to)).flatMap((mail) => {
      const token = /confirmation_token=([\w-]+)/.exec(quotedPrintable(mail.text))?.[1];
      return token ? [{ token, file: mail.file }] : [];
    });
    const newest = links.at(-1);
    if (newest) {
      if (consume) await fs.rm(newest.file);
      return newest.token;
    }
    if (Date.now() > deadline) throw new Error(`no confirmation link mailed to ${to}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

export async function confirmRegistration(
  app: FastifyInstance,
  body: { token: string; nonce?: string; password?: string },
  headers: Record<string, string> = {},
  remoteAddress = '127.0.0.1',
) {
  return app.inject({
    method: 'POST',
    url: `${v1}/register/confirm`,
    payload: body,
    headers,
    remoteAddress,
  });
}

/** Quoted-printable fully undone, its =XX bytes read as UTF-8 (accented words compare). */
const utf8QuotedPrintable = (mail: string) =>
  Buffer.from(
    mail
      .replace(/=\r?\n/g, '')
      .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))),
    'latin1',
  ).toString('utf8');

/**
 * The welcome e-mail mailed to `to` once its account was created (issue 23), as text with
 * quoted-printable undone; with `consume`, its file is removed once read.
 */
export async function welcomeMailFor(
  app: FastifyInstance,
  to: string,
  { consume = false } = {},
): Promise<string | undefined> {
  await app.services.registration.settled();
  const welcome = (await mailFilesTo(app, to)).find((mail) =>
    quotedPrintable(mail.text).includes('/link-account'),
  );
  if (welcome && consume) await fs.rm(welcome.file);
  return welcome && utf8QuotedPrintable(welcome.text);
}

/**
 * Registers, follows the link mailed to the address from the same browser (its nonce) and
 * answers the new account's session token. The confirmation and welcome e-mails are consumed,
 * so suites that count e-mails see only the ones they cause.
 */
export async function registeredToken(
  app: FastifyInstance,
  email = validRegistration.email,
  overrides: Partial<typeof validRegistration> & Record<string, unknown> = {},
  /** The browser's headers, on both calls (its User-Agent names the session). */
  headers: Record<string, string> = {},
  /** The browser's address: suites registering many users give each its own (rate limits). */
  remoteAddress = '127.0.0.1',
) {
  const response = await register(app, { ...overrides, email }, headers, remoteAddress);
  if (response.statusCode !== 202) throw new Error(`register failed: ${response.body}`);
  const { nonce } = response.json<{ data: { nonce: string } }>().data;
  const token = await confirmationTokenFor(app, email, { consume: true });
  const confirmed = await confirmRegistration(app, { token, nonce }, headers, remoteAddress);
  if (confirmed.statusCode !== 201) throw new Error(`confirmation failed: ${confirmed.body}`);
  await welcomeMailFor(app, email, { consume: true });
  return confirmed.json<{ data: { token: string } }>().data.token;
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

/**
 * The newest token a link mailed to `to` carries in its `param` query parameter (the e-mail
 * change's `token` or `undo_token`, decision 089), or undefined when none was mailed.
 */
export async function mailedLinkToken(
  app: FastifyInstance,
  to: string,
  param: string,
): Promise<string | undefined> {
  await app.services.emailChange.settled();
  const pattern = new RegExp(`[?&]${param}=([\\w-]+)`);
  const tokens = (await mailFilesTo(app, to)).flatMap((mail) => {
    const token = pattern.exec(quotedPrintable(mail.text))?.[1];
    return token ? [token] : [];
  });
  return tokens.at(-1);
}
