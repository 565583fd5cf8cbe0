import { randomBytes } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import { admins } from '../src/db/schema';
import { manualClock } from './helpers/accounts';
import {
  adminPasswordStep,
  adminSecondStep,
  createAdmin,
  signedInAdmin,
  totpCode,
  type TestAdmin,
} from './helpers/admin';
import { useTestApp, type TestContext } from './helpers/app';

const key = (id: string) => `${id}:${randomBytes(32).toString('base64')}`;
const first = key('k1');
const second = key('k2');

/** The row as stored: what someone reading the database would see. */
async function storedRow(app: FastifyInstance, admin: TestAdmin) {
  const [row] = await app.database.db.select().from(admins).where(eq(admins.id, admin.id));
  if (!row) throw new Error('no admin row');
  return row;
}

/** Another process on the same database, with its own keys (a restart with a new config). */
async function restartedWith(
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
      ...env,
    }),
    {
      clock,
      rateLimitRedisPrefix: `test:${context.testDatabase.schema}:rate-limit:restarted:`,
      database: context.testDatabase.database,
    },
  );
  await app.ready();
  return app;
}

/** Admins' TOTP secrets sealed at rest (decision 059). */
describe('TOTP secrets at rest', () => {
  const clock = manualClock();
  const context = useTestApp({ ADMIN_TOTP_KEYS: first }, () => ({ clock }));

  it('never stores the secret itself, and the second factor still works', async () => {
    const admin = await createAdmin(context.app);
    const row = await storedRow(context.app, admin);
    expect(row.totpKeyId).toBe('k1');
    expect(row.totpSecret).not.toContain(admin.secret);
    expect(row.totpSecret).not.toContain(admin.secret.toLowerCase());
    expect(await signedInAdmin(context.app, clock, admin)).toHaveProperty('authorization');
    // A sealed secret copied onto another admin's row opens for no one.
    const other = await createAdmin(context.app, { email: 'otro@example.com' });
    await context.app.database.db
      .update(admins)
      .set({ totpSecret: row.totpSecret })
      .where(eq(admins.id, other.id));
    const token = (await adminPasswordStep(context.app, other)).json<{ data: { token: string } }>()
      .data.token;
    const refused = await adminSecondStep(
      context.app,
      token,
      await totpCode(admin.secret, clock.now()),
    );
    expect(refused.statusCode).toBe(500);
    expect(refused.json()).toMatchObject({ code: 'INTERNAL_ERROR' });
  });

  it('seals a secret stored in clear before sealing existed, when the server starts', async () => {
    const admin = await createAdmin(context.app);
    // The row as the 0005 migration's code wrote it.
    await context.app.database.db
      .update(admins)
      .set({ totpSecret: admin.secret, totpKeyId: null })
      .where(eq(admins.id, admin.id));
    // It still signs in before the restart (read as clear)...
    await signedInAdmin(context.app, clock, admin);
    const restarted = await restartedWith(context, clock, { ADMIN_TOTP_KEYS: first });
    try {
      const row = await storedRow(restarted, admin);
      expect(row.totpKeyId).toBe('k1');
      expect(row.totpSecret).not.toContain(admin.secret);
      // ...and after it, from the sealed secret.
      await signedInAdmin(restarted, clock, admin);
    } finally {
      await restarted.close();
    }
  });

  it('rotates: a newer key re-encrypts every secret at start; the old key can then go', async () => {
    const admin = await createAdmin(context.app);
    const before = await storedRow(context.app, admin);
    const rotated = await restartedWith(context, clock, { ADMIN_TOTP_KEYS: `${first},${second}` });
    try {
      const row = await storedRow(rotated, admin);
      expect(row.totpKeyId).toBe('k2');
      expect(row.totpSecret).not.toBe(before.totpSecret);
      expect(row.totpSecret).not.toContain(admin.secret);
    } finally {
      await rotated.close();
    }
    const onlyNew = await restartedWith(context, clock, { ADMIN_TOTP_KEYS: second });
    try {
      await signedInAdmin(onlyNew, clock, admin);
    } finally {
      await onlyNew.close();
    }
  });
});
