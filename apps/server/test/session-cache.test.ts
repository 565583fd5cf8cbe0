import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import { sessions } from '../src/db/schema';
import { useTestApp } from './helpers/app';
import {
  bearer,
  codeIn,
  getSettings,
  login,
  readMails,
  registeredToken,
  v1,
  validRegistration,
} from './helpers/accounts';

const credentials = { email: validRegistration.email, password: validRegistration.password };
const newPassword = 'nueva4567';

async function loginToken(app: FastifyInstance, email = credentials.email): Promise<string> {
  const response = await login(app, { ...credentials, email });
  return response.json<{ data: { token: string } }>().data.token;
}

async function logout(app: FastifyInstance, token: string) {
  return app.inject({ method: 'POST', url: `${v1}/logout`, headers: bearer(token) });
}

/** The recovery flow of password-recovery.test.ts: a code by e-mail, then the new password. */
async function changePassword(app: FastifyInstance, mailDir: string, email = credentials.email) {
  const forgot = await app.inject({
    method: 'POST',
    url: `${v1}/forgot-password`,
    payload: { email, language: 'es' },
  });
  expect(forgot.statusCode).toBe(200);
  const otp = codeIn((await readMails(mailDir))[0] ?? '');
  const changed = await app.inject({
    method: 'POST',
    url: `${v1}/set-password`,
    payload: {
      email,
      otp,
      password: newPassword,
      confirm_password: newPassword,
    },
  });
  expect(changed.statusCode).toBe(200);
}

async function newsletterOf(app: FastifyInstance, token: string): Promise<boolean> {
  const response = await getSettings(app, token);
  expect(response.statusCode).toBe(200);
  return response.json<{ data: { user: { subscribed_newsletter: boolean } } }>().data.user
    .subscribed_newsletter;
}

async function toggleNewsletter(app: FastifyInstance, token: string) {
  const response = await app.inject({
    method: 'POST',
    url: `${v1}/newsletter`,
    headers: bearer(token),
  });
  expect(response.statusCode).toBe(200);
}

describe('the session cache', () => {
  const context = useTestApp();

  it('serves a cached session: revoking it behind the server is not seen until it expires', async () => {
    // What makes the tests below meaningful: the session is read from memory, not the database.
    const token = await registeredToken(context.app);
    expect((await getSettings(context.app, token)).statusCode).toBe(200);
    await context.app.database.db.update(sessions).set({ revokedAt: new Date() });
    expect((await getSettings(context.app, token)).statusCode).toBe(200);
  });

  it('refuses a logged-out token at once, though it was cached, and keeps the other sessions', async () => {
    const first = await registeredToken(context.app);
    const second = await loginToken(context.app);
    expect((await getSettings(context.app, first)).statusCode).toBe(200);
    expect((await getSettings(context.app, second)).statusCode).toBe(200);
    expect((await logout(context.app, first)).statusCode).toBe(200);
    expect((await getSettings(context.app, first)).statusCode).toBe(401);
    expect((await getSettings(context.app, second)).statusCode).toBe(200);
  });

  it('refuses every old token at once after a password change, though they were cached', async () => {
    const first = await registeredToken(context.app);
    const second = await loginToken(context.app);
    for (const token of [first, second]) {
      expect((await getSettings(context.app, token)).statusCode).toBe(200);
    }
    await changePassword(context.app, context.mailDir);
    for (const token of [first, second]) {
      expect((await getSettings(context.app, token)).statusCode).toBe(401);
    }
  });

  it('shows a change of the user at once (the cached user row is dropped)', async () => {
    const token = await registeredToken(context.app);
    expect(await newsletterOf(context.app, token)).toBe(false);
    await toggleNewsletter(context.app, token);
    expect(await newsletterOf(context.app, token)).toBe(true);
  });
});

const redisUrl = process.env.TEST_REDIS_URL;

// Scaled mode: two server processes share the database and Redis; each app is one of them.
describe.skipIf(!redisUrl)('the session cache across processes (Redis)', () => {
  const context = useTestApp(() => ({ REDIS_URL: redisUrl ?? '' }));
  let other: FastifyInstance | undefined;
  afterEach(async () => {
    await other?.close();
    other = undefined;
  });

  async function otherProcess(): Promise<FastifyInstance> {
    const app = await buildApp(
      loadConfig({
        NODE_ENV: 'test',
        LOG_LEVEL: 'silent',
        REDIS_URL: redisUrl,
        ROBOT_ENABLED: 'false',
        DATA_DIR: path.join(os.tmpdir(), `tradebot-test-other-${context.testDatabase.schema}`),
        WEB_DIST_DIR: path.join(os.tmpdir(), 'tradebot-no-web-build'),
      }),
      { database: context.testDatabase.database },
    );
    await app.ready();
    other = app;
    return app;
  }

  it('refuses in the other process at once a token logged out here, though it cached it', async () => {
    const app = await otherProcess();
    const first = await registeredToken(context.app);
    const second = await loginToken(context.app);
    expect((await getSettings(app, first)).statusCode).toBe(200);
    expect((await getSettings(app, second)).statusCode).toBe(200);
    expect((await logout(context.app, first)).statusCode).toBe(200);
    expect((await getSettings(app, first)).statusCode).toBe(401);
    expect((await getSettings(app, second)).statusCode).toBe(200);
  });

  it('refuses in the other process at once every old token after a password change here', async () => {
    const app = await otherProcess();
    // Rate limits live in the shared Redis: an e-mail of this test's own.
    const email = `${context.testDatabase.schema}@example.com`;
    const first = await registeredToken(context.app, email);
    const second = await loginToken(context.app, email);
    for (const token of [first, second]) {
      expect((await getSettings(app, token)).statusCode).toBe(200);
    }
    await changePassword(context.app, context.mailDir, email);
    for (const token of [first, second]) {
      expect((await getSettings(app, token)).statusCode).toBe(401);
    }
  });

  it('shows in the other process at once a change of the user made here', async () => {
    const app = await otherProcess();
    const token = await registeredToken(context.app);
    expect(await newsletterOf(app, token)).toBe(false);
    await toggleNewsletter(context.app, token);
    expect(await newsletterOf(app, token)).toBe(true);
  });
});
