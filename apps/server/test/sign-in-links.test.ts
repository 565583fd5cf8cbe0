import type { FastifyInstance } from 'fastify';
import { simpleParser } from 'mailparser';
import { describe, expect, it } from 'vitest';
import { signInLinkLifetimeMs } from '../src/services/auth.service';
import { useTestApp } from './helpers/app';
import {
  getSettings,
  login,
  manualClock,
  readMails,
  registeredToken,
  v1,
  validRegistration,
} from './helpers/accounts';

const publicUrl = 'https://tradebot.example';
const owner = { email: validRegistration.email, password: validRegistration.password };
const wrong = { ...owner, password: 'mala12345' };

function signIn(
  app: FastifyInstance,
  address: string,
  body: { email: string; password: string; signInToken?: string; language?: 'es' | 'pt' },
) {
  return app.inject({ method: 'POST', url: `${v1}/login`, remoteAddress: address, payload: body });
}

/**
 * Issue 37, point 7: 36 wrong passwords from 4 addresses use up the account's budget for
 * unknown addresses, and the owner's right password from a new address is refused (429).
 * Returns the token of the sign-in link the alert e-mail carries (decision 130).
 */
async function lockOut(app: FastifyInstance, mailDir: string): Promise<string> {
  await registeredToken(app, owner.email, { language: 'pt' });
  // The owner signed in from home before: that address stays known.
  expect((await login(app, owner, '10.0.9.1')).statusCode).toBe(200);
  for (let address = 1; address <= 4; address++) {
    for (let attempt = 1; attempt <= 9; attempt++) {
      await signIn(app, `203.0.113.${String(address)}`, wrong);
    }
  }
  expect((await signIn(app, '198.51.100.1', owner)).statusCode).toBe(429);
  await app.services.signInAlerts.settled();
  const mails = await Promise.all((await readMails(mailDir)).map((mail) => simpleParser(mail)));
  expect(mails).toHaveLength(1);
  const text = mails[0]?.text ?? '';
  expect(text).toContain('abra este link nele nas próximas 24 horas');
  const token = new RegExp(`${publicUrl}/pt/login\\?sign_in_token=([\\w-]+)`).exec(text)?.[1];
  expect(token).toBeDefined();
  return token ?? '';
}

describe('the owner gets in from a new address past an attack (issue 37, point 7)', () => {
  const clock = manualClock(new Date('2026-11-21T12:00:00Z'));
  const context = useTestApp({ PUBLIC_URL: publicUrl }, () => ({ clock }));

  it("the alert's link and the right password sign in from a new address, once", async () => {
    const token = await lockOut(context.app, context.mailDir);
    // The owner, on a phone at a new address, with the link: in.
    const signedIn = await signIn(context.app, '198.51.100.2', { ...owner, signInToken: token });
    expect(signedIn.statusCode).toBe(200);
    const session = signedIn.json<{ data: { token: string } }>().data.token;
    expect((await getSettings(context.app, session)).statusCode).toBe(200);
    // Single use: from another new address the link is refused, in the user's language.
    const again = await signIn(context.app, '198.51.100.3', {
      ...owner,
      signInToken: token,
      language: 'pt',
    });
    expect(again.statusCode).toBe(404);
    expect(again.json()).toMatchObject({
      message: expect.stringContaining(
        'O link para entrar por este dispositivo não é válido',
      ) as unknown,
    });
    // The phone's address is now known to the account: it signs in without a link.
    expect((await login(context.app, owner, '198.51.100.2')).statusCode).toBe(200);
  });

  it('two sign-ins racing with one link open one session', async () => {
    const token = await lockOut(context.app, context.mailDir);
    const answers = await Promise.all(
      ['198.51.100.8', '198.51.100.9'].map((address) =>
        signIn(context.app, address, { ...owner, signInToken: token }),
      ),
    );
    expect(answers.map((answer) => answer.statusCode).toSorted()).toEqual([200, 404]);
  });

  it('the link does not help a wrong password, and is kept for the right one', async () => {
    const token = await lockOut(context.app, context.mailDir);
    for (let attempt = 1; attempt <= 3; attempt++) {
      const guess = await signIn(context.app, '198.51.100.4', { ...wrong, signInToken: token });
      expect(guess.statusCode).toBe(401);
    }
    // Another account's e-mail with this link: refused, the link is bound to its user.
    await registeredToken(context.app, 'otra@example.com', {}, {}, '10.0.9.2');
    const other = await signIn(context.app, '198.51.100.4', {
      email: 'otra@example.com',
      password: validRegistration.password,
      signInToken: token,
    });
    expect(other.statusCode).toBe(404);
    expect(other.json()).toMatchObject({
      message: expect.stringContaining('El enlace para entrar desde este dispositivo') as unknown,
    });
    // The per-address limit still holds for guesses carrying the link.
    for (let attempt = 4; attempt <= 29; attempt++) {
      await signIn(context.app, '198.51.100.4', { ...wrong, signInToken: token });
    }
    expect(
      (await signIn(context.app, '198.51.100.4', { ...owner, signInToken: token })).statusCode,
    ).toBe(429);
    // From elsewhere, the right password with the link still gets in.
    expect(
      (await signIn(context.app, '198.51.100.5', { ...owner, signInToken: token })).statusCode,
    ).toBe(200);
  });

  it(`the link expires after ${String(signInLinkLifetimeMs / 3_600_000)} hours`, async () => {
    const token = await lockOut(context.app, context.mailDir);
    clock.advance(signInLinkLifetimeMs);
    const late = await signIn(context.app, '198.51.100.6', {
      ...owner,
      signInToken: token,
      language: 'pt',
    });
    expect(late.statusCode).toBe(404);
    expect(late.json()).toMatchObject({
      message: expect.stringContaining('já foi usado ou expirou') as unknown,
    });
  });

  it('a made-up link is refused before any password is checked, and still counted', async () => {
    await registeredToken(context.app);
    const made = { ...owner, signInToken: 'x'.repeat(43) };
    for (let attempt = 1; attempt <= 30; attempt++) {
      expect((await signIn(context.app, '198.51.100.7', made)).statusCode).toBe(404);
    }
    expect((await signIn(context.app, '198.51.100.7', owner)).statusCode).toBe(429);
  });
});
