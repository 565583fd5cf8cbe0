import type { FastifyInstance } from 'fastify';
import { generate } from 'otplib';
import { AdminsRepository } from '../../src/repositories/admins.repository';
import { argon2PasswordHasher } from '../../src/repositories/password-hasher';
import { otplibTotp } from '../../src/repositories/totp';
import { enrolAdmin } from '../../src/services/admin-enrolment';
import { bearer, v1, type manualClock } from './accounts';

export const adminCredentials = {
  email: 'soporte@example.com',
  name: 'Sofía Soporte',
  password: 'consola-segura-2026',
};

export interface TestAdmin {
  id: string;
  email: string;
  password: string;
  secret: string;
}

/** An admin enrolled as `npm run admin:create` does it. */
export async function createAdmin(
  app: FastifyInstance,
  overrides: Partial<typeof adminCredentials> = {},
): Promise<TestAdmin> {
  const input = { ...adminCredentials, ...overrides };
  const created = await enrolAdmin(
    new AdminsRepository(app.database.db),
    argon2PasswordHasher,
    otplibTotp,
    app.services.adminAuth.totpSealer,
    input,
  );
  return { id: created.id, email: created.email, password: input.password, secret: created.secret };
}

/** The code an authenticator app shows at `at`. */
export function totpCode(secret: string, at: Date): Promise<string> {
  return generate({ secret, epoch: Math.floor(at.getTime() / 1000) });
}

export async function adminPasswordStep(app: FastifyInstance, admin: TestAdmin) {
  return app.inject({
    method: 'POST',
    url: `${v1}/admin/login`,
    payload: { email: admin.email, password: admin.password },
  });
}

export async function adminSecondStep(app: FastifyInstance, token: string, code: string) {
  return app.inject({
    method: 'POST',
    url: `${v1}/admin/login/second-factor`,
    headers: bearer(token),
    payload: { code },
  });
}

/**
 * Signs in with the password and the code of the clock's time step, then moves the clock to
 * the next step (a code is accepted once).
 */
export async function signedInAdmin(
  app: FastifyInstance,
  clock: ReturnType<typeof manualClock>,
  admin: TestAdmin,
): Promise<Record<string, string>> {
  const first = await adminPasswordStep(app, admin);
  if (first.statusCode !== 200) throw new Error(`admin login failed: ${first.body}`);
  const { token } = first.json<{ data: { token: string } }>().data;
  const second = await adminSecondStep(app, token, await totpCode(admin.secret, clock.now()));
  if (second.statusCode !== 200) throw new Error(`second factor failed: ${second.body}`);
  clock.advance(30_000);
  return bearer(token);
}

/** The audit log, newest first, as the console reads it. */
export async function auditEntries(app: FastifyInstance, headers: Record<string, string>) {
  const response = await app.inject({ url: `${v1}/admin/audit-log`, headers });
  if (response.statusCode !== 200) throw new Error(`audit log: ${response.body}`);
  return response.json<{
    data: {
      entries: {
        action: string;
        targetType: string;
        targetId: string | null;
        before: Record<string, unknown> | null;
        after: Record<string, unknown> | null;
        /** Null for a failed sign-in with an e-mail that is no admin's. */
        admin: { email: string } | null;
        at: string;
      }[];
    };
  }>().data.entries;
}
