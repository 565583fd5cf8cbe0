import { eq } from 'drizzle-orm';
import { privacyPolicyVersion } from '@tradebot/contract';
import { describe, expect, it } from 'vitest';
import { registrationConfirmations, userConsents, users } from '../src/db/schema';
import { translator } from '../src/i18n';
import type { Mailer, MailMessage } from '../src/repositories/mail.repository';
import { useTestApp } from './helpers/app';
import {
  confirmationTokenFor,
  confirmRegistration,
  getSettings,
  manualClock,
  register,
  registeredToken,
  validRegistration,
  welcomeMailFor,
} from './helpers/accounts';

/** Registers in `language` and confirms from the same browser; answers the session token. */
async function registerAndConfirm(
  context: ReturnType<typeof useTestApp>,
  overrides: Record<string, unknown>,
  between?: () => void,
) {
  const response = await register(context.app, overrides);
  expect(response.statusCode).toBe(202);
  const { nonce } = response.json<{ data: { nonce: string } }>().data;
  const token = await confirmationTokenFor(context.app, validRegistration.email, { consume: true });
  between?.();
  const confirmed = await confirmRegistration(context.app, { token, nonce });
  expect(confirmed.statusCode).toBe(201);
  return confirmed.json<{ data: { token: string } }>().data.token;
}

async function newsletterOf(context: ReturnType<typeof useTestApp>, token: string) {
  const settings = await getSettings(context.app, token);
  return settings.json<{ data: { user: { subscribed_newsletter: boolean } } }>().data.user
    .subscribed_newsletter;
}

async function consentsOf(context: ReturnType<typeof useTestApp>) {
  const db = context.app.database.db;
  const [user] = await db.select().from(users).where(eq(users.email, validRegistration.email));
  if (!user) throw new Error('no account');
  const rows = await db.select().from(userConsents).where(eq(userConsents.userId, user.id));
  return rows.sort((a, b) => a.purpose.localeCompare(b.purpose));
}

describe('consent at registration (decision 087)', () => {
  const clock = manualClock(new Date('2026-11-25T10:00:00Z'));
  const context = useTestApp({ PUBLIC_URL: 'https://app.example.com' }, () => ({ clock }));

  it.each([
    ['pt', 'Para criar sua conta, você precisa consentir'],
    ['es', 'Para crear tu cuenta debes aceptar el tratamiento de tus datos'],
  ])(
    'refuses a %s registration without the privacy consent, and mails nothing',
    async (language, message) => {
      for (const accept_privacy of [false, undefined]) {
        const response = await register(context.app, { language, accept_privacy });
        expect(response.statusCode).toBe(422);
        const body = response.json<{ errors: Record<string, string[]> }>();
        expect(body.errors.accept_privacy?.[0]).toContain(message);
      }
      await context.app.services.registration.settled();
      expect(await context.app.database.db.select().from(registrationConfirmations)).toHaveLength(
        0,
      );
    },
  );

  it('records what was agreed, when the form was sent, the policy version and the language, with the account', async () => {
    const token = await registerAndConfirm(
      context,
      { language: 'pt', subscribe_newsletter: true },
      // The link is opened two hours later: consent dates from the form.
      () => {
        clock.advance(2 * 3_600_000);
      },
    );
    expect(await newsletterOf(context, token)).toBe(true);
    const rows = await consentsOf(context);
    expect(
      rows.map(({ purpose, granted, policyVersion, language, source, givenAt }) => ({
        purpose,
        granted,
        policyVersion,
        language,
        source,
        givenAt: givenAt.toISOString(),
      })),
    ).toEqual(
      (['marketing', 'privacy', 'terms'] as const).map((purpose) => ({
        purpose,
        granted: true,
        policyVersion: privacyPolicyVersion,
        language: 'pt',
        source: 'registration',
        givenAt: '2026-11-25T10:00:00.000Z',
      })),
    );
  });

  it('leaves the newsletter off unless it was ticked, and records the refusal', async () => {
    const token = await registerAndConfirm(context, { language: 'es' });
    expect(await newsletterOf(context, token)).toBe(false);
    const rows = await consentsOf(context);
    expect(rows.map(({ purpose, granted, language }) => [purpose, granted, language])).toEqual([
      ['marketing', false, 'es'],
      ['privacy', true, 'es'],
      ['terms', true, 'es'],
    ]);
  });

  it('records the newsletter toggled in settings as a consent given or withdrawn, with its time and policy version (decision 089)', async () => {
    const token = await registerAndConfirm(context, { language: 'pt' });
    const toggle = () =>
      context.app.inject({
        method: 'POST',
        url: '/core-api/public/api/v1/newsletter',
        headers: { authorization: `Bearer ${token}` },
      });
    clock.advance(60_000);
    const on = await toggle();
    expect(on.json()).toEqual({ data: { subscribed_newsletter: true } });
    clock.advance(60_000);
    const off = await toggle();
    expect(off.json()).toEqual({ data: { subscribed_newsletter: false } });
    expect(await newsletterOf(context, token)).toBe(false);

    const marketing = (await consentsOf(context))
      .filter((row) => row.purpose === 'marketing')
      .sort((a, b) => a.givenAt.getTime() - b.givenAt.getTime());
    expect(
      marketing.map(({ granted, source, policyVersion, language, givenAt }) => ({
        granted,
        source,
        policyVersion,
        language,
        givenAt: givenAt.toISOString(),
      })),
    ).toEqual([
      {
        granted: false,
        source: 'registration',
        policyVersion: privacyPolicyVersion,
        language: 'pt',
        givenAt: expect.any(String) as unknown,
      },
      {
        granted: true,
        source: 'settings',
        policyVersion: privacyPolicyVersion,
        language: 'pt',
        givenAt: new Date(clock.now().getTime() - 60_000).toISOString(),
      },
      {
        granted: false,
        source: 'settings',
        policyVersion: privacyPolicyVersion,
        language: 'pt',
        givenAt: clock.now().toISOString(),
      },
    ]);
  });

  it('creates no account from a registration stored before consent was asked for', async () => {
    const response = await register(context.app);
    const { nonce } = response.json<{ data: { nonce: string } }>().data;
    const token = await confirmationTokenFor(context.app, validRegistration.email, {
      consume: true,
    });
    const db = context.app.database.db;
    const [row] = await db.select().from(registrationConfirmations);
    if (!row) throw new Error('no pending registration');
    const { consent: _dropped, ...before087 } = row.registration;
    await db
      .update(registrationConfirmations)
      .set({ registration: before087 })
      .where(eq(registrationConfirmations.id, row.id));
    const confirmed = await confirmRegistration(context.app, { token, nonce });
    expect(confirmed.statusCode).toBe(404);
    expect(await db.select().from(users)).toHaveLength(0);
  });
});

describe('welcome e-mail without a support address (decision 156)', () => {
  const context = useTestApp({ PUBLIC_URL: 'https://app.example.com' });

  it('points to the contact form in the account’s language instead of making an address up', async () => {
    const response = await register(context.app, { language: 'pt' });
    const { nonce } = response.json<{ data: { nonce: string } }>().data;
    const token = await confirmationTokenFor(context.app, validRegistration.email, {
      consume: true,
    });
    expect((await confirmRegistration(context.app, { token, nonce })).statusCode).toBe(201);
    const mail = await welcomeMailFor(context.app, validRegistration.email);
    expect(mail).toContain('pelo formulário de contato, https://app.example.com/pt/contact');
    expect(mail).not.toContain('soporte@tradebot.local');
  });
});

describe('welcome e-mail with the operator’s address only (decision 156)', () => {
  const context = useTestApp({
    PUBLIC_URL: 'https://app.example.com',
    OPERATOR_EMAIL: 'operador@example.com',
  });

  it('names OPERATOR_EMAIL, as the public pages do', async () => {
    const response = await register(context.app, { language: 'es' });
    const { nonce } = response.json<{ data: { nonce: string } }>().data;
    const token = await confirmationTokenFor(context.app, validRegistration.email, {
      consume: true,
    });
    expect((await confirmRegistration(context.app, { token, nonce })).statusCode).toBe(201);
    const mail = await welcomeMailFor(context.app, validRegistration.email);
    expect(mail).toContain('operador@example.com');
    expect(mail).not.toContain('/contact');
  });
});

describe('welcome e-mail (issue 23)', () => {
  const context = useTestApp({
    PUBLIC_URL: 'https://app.example.com',
    SUPPORT_EMAIL: 'ayuda@example.com',
  });

  it.each([
    {
      language: 'pt',
      words: ['Escolher um plano', 'O robô não garante lucro', 'ayuda@example.com'],
      prefix: 'https://app.example.com/pt',
    },
    {
      language: 'es',
      words: ['Elegir un plan', 'El robot no garantiza ganancias', 'ayuda@example.com'],
      prefix: 'https://app.example.com',
    },
  ])(
    'is mailed in $language once the account exists, with next steps, the risk and support',
    async ({ language, words, prefix }) => {
      const response = await register(context.app, { language });
      const { nonce } = response.json<{ data: { nonce: string } }>().data;
      const token = await confirmationTokenFor(context.app, validRegistration.email, {
        consume: true,
      });
      // Not before the account exists.
      expect(await welcomeMailFor(context.app, validRegistration.email)).toBeUndefined();
      const confirmed = await confirmRegistration(context.app, { token, nonce });
      expect(confirmed.statusCode).toBe(201);
      const mail = await welcomeMailFor(context.app, validRegistration.email);
      expect(mail).toBeDefined();
      for (const word of words) expect(mail).toContain(word);
      for (const path of ['/payment', '/link-account', '/profile-config']) {
        expect(mail).toContain(`${prefix}${path}`);
      }
      // Every link comes from the configured origin; nothing secret is in it.
      const links = [...(mail ?? '').matchAll(/https?:\/\/[^\s"<>]+/g)].map((match) => match[0]);
      expect(links.length).toBeGreaterThan(0);
      for (const link of links) {
        if (link.startsWith('http://www.w3.org')) continue;
        expect(link.startsWith('https://app.example.com/')).toBe(true);
      }
      expect(mail).not.toContain('confirmation_token');
      expect(mail).not.toContain(nonce);
    },
  );

  it('is consumed by registeredToken, so suites counting e-mails see only theirs', async () => {
    await registeredToken(context.app);
    expect(await welcomeMailFor(context.app, validRegistration.email)).toBeUndefined();
  });
});

describe('a welcome e-mail that cannot be sent', () => {
  const welcomeSubject = translator('es')('registration.welcomeSubject');
  const sent: MailMessage[] = [];
  const mailer: Mailer = {
    send: (message) => {
      if (message.subject === welcomeSubject) return Promise.reject(new Error('smtp down'));
      sent.push(message);
      return Promise.resolve();
    },
    close: () => Promise.resolve(),
  };
  const context = useTestApp({}, () => ({ mailer }));

  it('does not undo the account or its answer', async () => {
    const response = await register(context.app);
    const { nonce } = response.json<{ data: { nonce: string } }>().data;
    await context.app.services.registration.settled();
    const link = /confirmation_token=([\w-]+)/.exec(sent[0]?.text ?? '')?.[1];
    if (!link) throw new Error('no confirmation mailed');
    const confirmed = await confirmRegistration(context.app, { token: link, nonce });
    expect(confirmed.statusCode).toBe(201);
    await context.app.services.registration.settled();
    expect(sent.map((message) => message.subject)).toEqual([
      'Confirma tu correo para crear tu cuenta de Tradebot',
    ]);
    expect(await context.app.database.db.select().from(users)).toHaveLength(1);
  });
});
