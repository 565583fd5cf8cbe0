import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { userSettings } from '../../src/db/schema';
import { UsersRepository } from '../../src/repositories/users.repository';
import { bearer, registeredToken, v1 } from './accounts';

/** A registered user who has paid and not linked yet (payment is another issue's flow). */
export async function paidUser(
  app: FastifyInstance,
  email: string,
  authorized = true,
  remoteAddress = '127.0.0.1',
) {
  const token = await registeredToken(app, email, {}, {}, remoteAddress);
  const user = await new UsersRepository(app.database.db).findByEmail(email);
  if (!user) throw new Error('registered user not found');
  await app.database.db
    .update(userSettings)
    .set({ authorized })
    .where(eq(userSettings.userId, user.id));
  return { token, userId: user.id, headers: bearer(token) };
}

export const platformPassword = 'Plataforma99';

export function linkAccount(
  app: FastifyInstance,
  headers: Record<string, string>,
  body: Record<string, unknown> = {
    password: platformPassword,
    confirm_password: platformPassword,
  },
) {
  return app.inject({ method: 'POST', url: `${v1}/link-account`, headers, payload: body });
}

export function platformLogin(
  app: FastifyInstance,
  headers: Record<string, string>,
  password = platformPassword,
) {
  return app.inject({
    method: 'POST',
    url: `${v1}/trading-platform-login`,
    headers,
    payload: { password },
  });
}
