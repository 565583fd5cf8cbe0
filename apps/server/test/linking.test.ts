import fs from 'node:fs/promises';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import { platformAccounts, platformUsers, tradingPlatformLinks } from '../src/db/schema';
import { CredentialsCipher, parseCredentialsKeys } from '../src/repositories/credentials-cipher';
import { TradingPlatformLinksRepository } from '../src/repositories/trading-platform-links.repository';
import { resealCredentials } from '../src/services/credentials-rotation.service';
import { argon2PasswordHasher } from '../src/repositories/password-hasher';
import { DrizzleExecutionStore } from '../src/robot/worker/drizzle-execution-store';
import { v1Paths } from '@tradebot/contract';
import {
  getSettings,
  mailedLinkToken,
  manualClock,
  v1,
  validRegistration,
} from './helpers/accounts';
import { useTestApp } from './helpers/app';
import { linkAccount, paidUser, platformLogin, platformPassword } from './helpers/linking';
import { robotOf, robotSettingsPayload, runMarket, useRobotApp } from './helpers/trading';

interface Config {
  linked: boolean;
  login_tradear: boolean;
  authorized: boolean;
}
const configOf = async (app: Parameters<typeof getSettings>[0], token: string) =>
  (await getSettings(app, token)).json<{ data: Config }>().data;

const key = (id: string) => `${id}:${randomBytes(32).toString('base64')}`;

/** The platform already knows the e-mail (e.g. a linking cut short): the user logs in there. */
async function platformKnows(
  app: Parameters<typeof getSettings>[0],
  userId: string,
  email: string,
): Promise<void> {
  await app.database.db.insert(platformUsers).values({
    accountId: userId,
    email,
    passwordHash: await argon2PasswordHasher.hash(platformPassword),
    startingBalanceCents: 1_000_000,
  });
}

describe('link-account and trading-platform-login, with the robot in this process', () => {
  const context = useRobotApp();

  it('opens an account at the built-in platform with its starting balance; linked and login_tradear become true in one step', async () => {
    const { app } = context;
    const unpaid = await paidUser(app, 'sinpago@example.com', false);
    const refused = await linkAccount(app, unpaid.headers);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({
      code: 'FORBIDDEN',
      message: 'Debes pagar tu suscripción para vincular tu cuenta de bróker.',
    });

    const { token, userId, headers } = await paidUser(app, 'ana@example.com');
    const linked = await linkAccount(app, headers);
    expect(linked.statusCode).toBe(201);
    expect(linked.json()).toEqual({
      data: {
        linked: true,
        platform: 'tradebot-demo',
        login_tradear: true,
        email: 'ana@example.com',
        startingBalance: 10_000,
      },
    });
    // One password for one step (issue 23): the platform just accepted it, no second login.
    expect(await configOf(app, token)).toMatchObject({ linked: true, login_tradear: true });
    // The credentials are kept sealed as a login keeps them: neither the password nor the
    // e-mail in clear, and the API never returns them.
    const [link] = await app.database.db
      .select()
      .from(tradingPlatformLinks)
      .where(eq(tradingPlatformLinks.userId, userId));
    expect(link?.credentialsKeyId).toBeTruthy();
    expect(link?.credentialsCiphertext).toBeTruthy();
    expect(JSON.stringify(link)).not.toContain(platformPassword);
    expect(link?.credentialsCiphertext).not.toContain('ana@');
    expect(linked.body + (await getSettings(app, token)).body).not.toContain(platformPassword);
    // Logged in already: the platform login is not asked again (guard 5 on the screen).
    expect((await platformLogin(app, headers)).statusCode).toBe(409);
    expect((await robotOf(app).account(userId))?.balanceCents).toBe(1_000_000);
    const [stored] = await app.database.db
      .select()
      .from(platformAccounts)
      .where(eq(platformAccounts.accountId, userId));
    expect(stored?.balanceCents).toBe(1_000_000);
    // The platform keeps its password as a platform would: a hash, never the password.
    const [login] = await app.database.db
      .select()
      .from(platformUsers)
      .where(eq(platformUsers.accountId, userId));
    expect(login?.passwordHash).toMatch(/^\$argon2id\$/);
    expect(JSON.stringify(login)).not.toContain(platformPassword);

    const again = await linkAccount(app, headers);
    expect(again.statusCode).toBe(409);
    expect(again.json<{ message: string }>().message).toBe('Tu cuenta de bróker ya está vinculada');
  });

  it('validates the platform password, in the language asked for', async () => {
    const { headers } = await paidUser(context.app, 'bea@example.com');
    const response = await linkAccount(context.app, headers, {
      password: 'corta1',
      confirm_password: 'otra',
      language: 'pt',
    });
    expect(response.statusCode).toBe(422);
    expect(response.json<{ errors: Record<string, string[]> }>().errors).toEqual({
      password: ['Mínimo de 8 caracteres'],
      confirm_password: ['As senhas não coincidem'],
    });
  });

  it('logs in with the platform password: a wrong one is refused, the right one sets login_tradear', async () => {
    const { app } = context;
    const { token, userId, headers } = await paidUser(app, 'carla@example.com');
    await platformKnows(app, userId, 'carla@example.com');

    const wrong = await platformLogin(app, { ...headers, 'accept-language': 'pt' }, 'Incorreta1');
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json()).toMatchObject({
      message: 'A senha da plataforma de trading está incorreta',
      errors: { password: ['A senha da plataforma de trading está incorreta'] },
    });
    expect((await configOf(app, token)).login_tradear).toBe(false);

    const right = await platformLogin(app, headers);
    expect(right.statusCode).toBe(200);
    expect(right.json()).toEqual({ data: { linked: true, login_tradear: true } });
    expect(await configOf(app, token)).toMatchObject({ linked: true, login_tradear: true });
    // The API never returns the credentials: not here, not in the settings.
    expect(right.body + (await getSettings(app, token)).body).not.toContain(platformPassword);

    // Encrypted at rest: the row holds neither the password nor the e-mail in clear.
    const [link] = await app.database.db
      .select()
      .from(tradingPlatformLinks)
      .where(eq(tradingPlatformLinks.userId, userId));
    expect(link?.credentialsKeyId).toBeTruthy();
    expect(link?.credentialsCiphertext).toBeTruthy();
    expect(JSON.stringify(link)).not.toContain(platformPassword);
    expect(link?.credentialsCiphertext).not.toContain('carla');

    const twice = await platformLogin(app, headers);
    expect(twice.statusCode).toBe(409);
  });

  it('an e-mail that already has a platform account: 409 with the spec message, then logging in links it', async () => {
    const { app } = context;
    const { token, userId, headers } = await paidUser(app, 'dora@example.com');
    // Registered at the platform before (e.g. a linking cut short): the platform knows the e-mail.
    await platformKnows(app, userId, 'DORA@example.com');
    const taken = await linkAccount(app, headers);
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toEqual({
      code: 'PLATFORM_EMAIL_TAKEN',
      message: 'Este correo electrónico ya tiene una cuenta en la plataforma de trading',
    });
    expect((await configOf(app, token)).linked).toBe(false);

    expect((await platformLogin(app, headers)).statusCode).toBe(200);
    expect(await configOf(app, token)).toMatchObject({ linked: true, login_tradear: true });
  });

  it('tells the payment page the linked account and its currency: none, then the built-in platform in USD (issue 39)', async () => {
    const { app } = context;
    const { headers } = await paidUser(app, 'fabia@example.com');
    const account = async () =>
      (await app.inject({ url: `${v1}/billing`, headers })).json<{
        data: { account: unknown };
      }>().data.account;
    expect(await account()).toBeNull();
    expect((await linkAccount(app, headers)).statusCode).toBe(201);
    expect(await account()).toEqual({ kind: 'simulated', currency: 'USD' });
  });

  it("a newly linked user's robot trades once switched on", async () => {
    const { app } = context;
    const { userId, headers } = await paidUser(app, 'eva@example.com');
    expect((await linkAccount(app, headers)).statusCode).toBe(201);
    const store = new DrizzleExecutionStore(app.database.db);
    expect(await runMarket(context, () => false, 3)).toBe(false);
    expect(await store.trades({ accountId: userId })).toHaveLength(0);

    const on = await app.inject({
      method: 'POST',
      url: `${v1}/settings`,
      headers,
      payload: robotSettingsPayload({ bot_on: true }),
    });
    expect(on.statusCode).toBe(200);
    expect(
      await runMarket(
        context,
        async () => (await store.trades({ accountId: userId })).length > 0,
        20,
      ),
    ).toBe(true);
  });

  it('refuses a wrong platform password after 10 tries per user (429)', async () => {
    const { userId, headers } = await paidUser(context.app, 'fede@example.com');
    await platformKnows(context.app, userId, 'fede@example.com');
    for (let attempt = 0; attempt < 10; attempt++) {
      expect((await platformLogin(context.app, headers, 'Incorrecta1')).statusCode).toBe(422);
    }
    const limited = await platformLogin(context.app, headers);
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBeDefined();
  });

  it('after the e-mail (and password) changed, the platform account is linked again with its own password, and the old address is free (issue 39 point 4)', async () => {
    const { app } = context;
    const oldEmail = 'elena@example.com';
    const newEmail = 'elena.nueva@example.com';
    const { token, headers } = await paidUser(app, oldEmail);
    expect((await linkAccount(app, headers)).statusCode).toBe(201);

    // The Tradebot e-mail and password change (decision 089); then the account is unlinked.
    const asked = await app.inject({
      method: 'POST',
      url: `${v1}/account/email`,
      headers,
      payload: { email: newEmail, current_password: validRegistration.password },
    });
    expect(asked.statusCode).toBe(202);
    const confirmed = await app.inject({
      method: 'POST',
      url: `${v1}/account/email/confirm`,
      payload: { token: await mailedLinkToken(app, newEmail, 'token') },
    });
    expect(confirmed.statusCode).toBe(200);
    const unlinked = await app.inject({
      method: 'POST',
      url: `${v1}${v1Paths.unlinkAccount}`,
      headers,
      payload: { password: validRegistration.password, closeOperations: true },
    });
    expect(unlinked.statusCode).toBe(200);
    expect((await configOf(app, token)).linked).toBe(false);

    // "Vincule sua conta": the platform already holds this user's account, under the old
    // address; the user is told to sign in to it, not that the new address is taken.
    const again = await linkAccount(app, { ...headers, 'accept-language': 'pt' });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({
      code: 'PLATFORM_EMAIL_TAKEN',
      message:
        'Você já tem uma conta na plataforma de trading: entre com a senha que escolheu para ela',
    });
    // Its own password signs in to it (the address it was opened with is not asked for).
    expect((await platformLogin(app, headers, 'Incorreta1')).statusCode).toBe(422);
    expect((await platformLogin(app, headers)).statusCode).toBe(200);
    expect(await configOf(app, token)).toMatchObject({ linked: true, login_tradear: true });

    // The old address is free at the platform: whoever has it now opens an account there.
    const other = await paidUser(app, oldEmail);
    expect((await linkAccount(app, other.headers)).statusCode).toBe(201);
  });

  it('requires a session', async () => {
    const response = await context.app.inject({
      method: 'POST',
      url: `${v1}/link-account`,
      payload: {},
    });
    expect(response.statusCode).toBe(401);
  });
});

describe('linking in a process without the robot (ROBOT_ENABLED=false)', () => {
  const context = useTestApp();

  it('records the opening; the process running the robot opens the account at its start', async () => {
    const { app } = context;
    const { userId, headers } = await paidUser(app, 'gael@example.com');
    expect((await linkAccount(app, headers)).statusCode).toBe(201);
    const opened = () =>
      app.database.db.select().from(platformAccounts).where(eq(platformAccounts.accountId, userId));
    expect(await opened()).toHaveLength(0);

    const clock = manualClock(new Date('2026-11-21T12:00:00Z'));
    // Processes on one database share its keys (README "Scaled set-up"): linking sealed the
    // platform credentials, and a process without their key refuses to start (decision 065).
    const robotDir = path.join(path.dirname(context.mailDir), 'robot');
    await fs.cp(
      path.join(path.dirname(context.mailDir), 'secrets'),
      path.join(robotDir, 'secrets'),
      {
        recursive: true,
      },
    );
    const robotProcess = await buildApp(
      loadConfig({
        NODE_ENV: 'test',
        LOG_LEVEL: 'silent',
        DATA_DIR: robotDir,
        ROBOT_ENABLED: 'true',
        ROBOT_WARM_UP_MS: '0',
        MARKET_SEED: '3',
      }),
      { database: app.database, clock, robotTimers: false },
    );
    try {
      expect((await robotOf(robotProcess).account(userId))?.balanceCents).toBe(1_000_000);
      expect((await opened())[0]?.balanceCents).toBe(1_000_000);
    } finally {
      await robotProcess.close();
    }
  });
});

describe('platform credentials: never logged, and a key rotation re-encrypts them', () => {
  const lines: string[] = [];
  const oldKey = key('old');
  const context = useTestApp({ LOG_LEVEL: 'trace', PLATFORM_CREDENTIALS_KEYS: oldKey }, () => ({
    logStream: { write: (line: string) => lines.push(line) },
  }));

  it('writes neither the password nor its ciphertext to the log', async () => {
    const { app } = context;
    const { userId, headers } = await paidUser(app, 'hugo@example.com');
    expect((await linkAccount(app, headers)).statusCode).toBe(201);
    const known = await paidUser(app, 'hugo2@example.com');
    await platformKnows(app, known.userId, 'hugo2@example.com');
    expect((await platformLogin(app, known.headers, 'Incorrecta1')).statusCode).toBe(422);
    expect((await platformLogin(app, known.headers)).statusCode).toBe(200);
    const [link] = await app.database.db
      .select()
      .from(tradingPlatformLinks)
      .where(eq(tradingPlatformLinks.userId, userId));
    const log = lines.join('');
    expect(log).toContain('/link-account');
    expect(log).toContain('/trading-platform-login');
    expect(log).not.toContain(platformPassword);
    expect(log).not.toContain('Incorrecta1');
    expect(log).not.toContain(link?.credentialsCiphertext ?? 'missing');
    expect(log).not.toContain(oldKey.slice(4));
  });

  it('re-encrypts with the newest key: all keys decrypt, the newest encrypts', async () => {
    const { app } = context;
    const { userId, headers } = await paidUser(app, 'ines@example.com');
    expect((await linkAccount(app, headers)).statusCode).toBe(201);
    const links = new TradingPlatformLinksRepository(app.database.db);
    const before = await links.find(userId);
    expect(before?.credentialsKeyId).toBe('old');

    const rotated = new CredentialsCipher(parseCredentialsKeys(`${oldKey},${key('new')}`));
    expect(await resealCredentials(links, rotated)).toEqual({
      resealed: 1,
      changedMeanwhile: 0,
      byKey: { new: 1 },
    });
    const after = await links.find(userId);
    expect(after?.credentialsKeyId).toBe('new');
    expect(after?.credentialsCiphertext).not.toBe(before?.credentialsCiphertext);
    const sealed = { keyId: 'new', ciphertext: after?.credentialsCiphertext ?? '' };
    expect(JSON.parse(rotated.open(sealed, userId))).toEqual({
      email: 'ines@example.com',
      password: platformPassword,
    });
    // The old key alone cannot read it any more; a second rotation has nothing to do.
    expect(() =>
      new CredentialsCipher(parseCredentialsKeys(oldKey)).open(sealed, userId),
    ).toThrow();
    expect((await resealCredentials(links, rotated)).resealed).toBe(0);
  });
});
