import type { PasswordHasher } from '../repositories/password-hasher';
import type { UsersRepository } from '../repositories/users.repository';

/** The demo login the README documents. */
export const demoUser = {
  email: 'demo@tradebot.app',
  password: 'Demo1234',
  name: 'Demo',
  lastName: 'Usuario',
} as const;

/**
 * Creates the demo user once. The demo has paid, linked the built-in paper account and
 * logged in to it, so a newcomer sees the whole product (docs/decisions/004-demo-user.md).
 * Returns true when it created the user now.
 */
export async function seedDemoUser(
  usersRepository: UsersRepository,
  hasher: PasswordHasher,
): Promise<boolean> {
  if (await usersRepository.findByEmail(demoUser.email)) return false;
  await usersRepository.create(
    {
      email: demoUser.email,
      name: demoUser.name,
      lastName: demoUser.lastName,
      passwordHash: await hasher.hash(demoUser.password),
      language: 'es',
    },
    { authorized: true, linked: true, loginTradear: true },
  );
  return true;
}
