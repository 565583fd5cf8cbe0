import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import { adminTotpKeyFile } from '../src/repositories/totp-secret-sealer';
import { StartupError } from '../src/startup-error';
import { manualClock } from './helpers/accounts';
import { createAdmin, signedInAdmin } from './helpers/admin';
import { useTestApp, type TestContext } from './helpers/app';
import { linkAccount, paidUser } from './helpers/linking';

const key = (id: string) => `${id}:${randomBytes(32).toString('base64')}`;

/** Another start on the same database and DATA_DIR, with `env` (a restart with a new config). */
async function startAgain(
  context: TestContext,
  clock: ReturnType<typeof manualClock>,
  env: Record<string, string>,
) {
  const app = await buildApp(
    loadConfig({
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      DATA_DIR: path.dirname(context.mailDir),
      WEB_DIST_DIR: path.join(os.tmpdir(), 'tradebot-no-web-build'),
      ROBOT_ENABLED: 'false',
      TRACK_RECORD_ENABLED: 'false',
      ...env,
    }),
    {
      clock,
      rateLimitRedisPrefix: `test:${context.testDatabase.schema}:rate-limit:again:`,
      database: context.testDatabase.database,
    },
  );
  await app.ready();
  return app;
}

async function refusal(start: Promise<unknown>): Promise<string> {
  const error = await start.then(
    async (app) => {
      await (app as { close(): Promise<void> }).close();
      return undefined;
    },
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(StartupError);
  const message = (error as Error).message;
  expect(message).not.toContain('\n');
  return message;
}

/** Finding 5 of issue 18: a lost key stops the start, never a 500 at the first read. */
describe('sealed values whose key is lost stop the start (decision 065)', () => {
  const clock = manualClock();
  const context = useTestApp({}, () => ({ clock }));

  it('key file deleted and made again the same day: the admins’ TOTP secrets stop the start', async () => {
    const admin = await createAdmin(context.app);
    const file = adminTotpKeyFile(path.dirname(context.mailDir));
    const kept = await fs.readFile(file, 'utf8');
    const [lostId] = kept.split(':');
    await fs.rm(path.dirname(file), { recursive: true });
    const message = await refusal(startAgain(context, clock, {}));
    expect(message).toContain('admin TOTP secrets');
    expect(message).toContain(`key ${lostId ?? 'missing'}`);
    expect(message).toContain(file);
    // The key file put back, the start goes on and the admin signs in.
    await fs.writeFile(file, kept);
    const again = await startAgain(context, clock, {});
    try {
      await signedInAdmin(again, clock, admin);
    } finally {
      await again.close();
    }
  });
});

describe('sealed values and configured keys', () => {
  const clock = manualClock();
  const first = key('k1');
  const context = useTestApp({ ADMIN_TOTP_KEYS: first, PLATFORM_CREDENTIALS_KEYS: first }, () => ({
    clock,
  }));

  it('ADMIN_TOTP_KEYS without the key id, or another key under that id, stops the start', async () => {
    const admin = await createAdmin(context.app);
    const missing = await refusal(startAgain(context, clock, { ADMIN_TOTP_KEYS: key('k2') }));
    expect(missing).toContain('key k1, which ADMIN_TOTP_KEYS does not hold');
    const other = await refusal(startAgain(context, clock, { ADMIN_TOTP_KEYS: key('k1') }));
    expect(other).toContain('key k1, which ADMIN_TOTP_KEYS holds but which does not open them');
    // Neither key material reaches the message.
    expect(`${missing}${other}`).not.toContain(first.slice(3));
    // With the right key the start goes on and the admin signs in.
    const again = await startAgain(context, clock, { ADMIN_TOTP_KEYS: first });
    try {
      await signedInAdmin(again, clock, admin);
    } finally {
      await again.close();
    }
  });

  it('platform credentials under a key PLATFORM_CREDENTIALS_KEYS lost stop the start', async () => {
    const { app } = context;
    const { headers } = await paidUser(app, 'lucia@example.com');
    // Linking seals the credentials at once (issue 23: one step).
    expect((await linkAccount(app, headers)).statusCode).toBe(201);
    const missing = await refusal(
      startAgain(context, clock, { ADMIN_TOTP_KEYS: first, PLATFORM_CREDENTIALS_KEYS: key('k2') }),
    );
    expect(missing).toContain('trading-platform credentials');
    expect(missing).toContain('key k1, which PLATFORM_CREDENTIALS_KEYS does not hold');
    const other = await refusal(
      startAgain(context, clock, { ADMIN_TOTP_KEYS: first, PLATFORM_CREDENTIALS_KEYS: key('k1') }),
    );
    expect(other).toContain('holds but which does not open them');
    // The old key kept and a newer one added: the start goes on (a rotation).
    const rotated = await startAgain(context, clock, {
      ADMIN_TOTP_KEYS: first,
      PLATFORM_CREDENTIALS_KEYS: `${first},${key('k2')}`,
    });
    await rotated.close();
  });
});
