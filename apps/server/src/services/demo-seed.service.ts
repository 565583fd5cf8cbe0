import type { PasswordHasher } from '../repositories/password-hasher';
import type { PromoCodesRepository } from '../repositories/promo-codes.repository';
import type { UsersRepository } from '../repositories/users.repository';

/** The demo login the README documents. */
export const demoUser = {
  email: 'demo@tradebot.app',
  password: 'Demo1234',
  name: 'Demo',
  lastName: 'Usuario',
} as const;

/** The documented valid promotional code: a free month, no end date, no use cap. */
export const demoPromoCode = { code: 'MESGRATIS', benefit: 'free_month' } as const;

/**
 * Creates the demo user and promo code once. The demo user has paid, linked the built-in
 * paper account and logged in to it, so a newcomer sees the whole product
 * (docs/decisions/004-demo-user.md). Returns true when it created the user now.
 */
export async function seedDemo(
  usersRepository: UsersRepository,
  promoCodes: PromoCodesRepository,
  hasher: PasswordHasher,
): Promise<boolean> {
  await promoCodes.upsert({ ...demoPromoCode, validFrom: new Date('2026-01-01T00:00:00Z') });
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
