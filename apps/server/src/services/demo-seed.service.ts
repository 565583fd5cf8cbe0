import { DuplicateKey } from '../repositories/errors';
import type { PasswordHasher } from '../repositories/password-hasher';
import type { PromoCodesStore } from '../repositories/promo-codes.repository';
import { allCategoriesEnabled, type UsersStore } from '../repositories/users.repository';
import { effectiveRobotSettings } from '../domain/robot-settings';
import type { RobotRuntime } from '../robot/link/robot-runtime';

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
 * (docs/decisions/004-demo-user.md). Returns true when it created the user now; false when it
 * existed, or another process starting at the same time created it first.
 */
export async function seedDemo(
  usersRepository: UsersStore,
  promoCodes: PromoCodesStore,
  hasher: PasswordHasher,
): Promise<boolean> {
  await promoCodes.upsert({ ...demoPromoCode, validFrom: new Date('2026-01-01T00:00:00Z') });
  if (await usersRepository.findByEmail(demoUser.email)) return false;
  try {
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
  } catch (error) {
    if (error instanceof DuplicateKey) return false;
    throw error;
  }
  return true;
}

/** The demo account's first deposit at the built-in platform: $10,000 (decision 042). */
export const demoDepositCents = 1_000_000;

/**
 * Gives the demo user an account at the built-in platform, with its first deposit and the
 * robot on in every category, so that it trades from the first start (crypto trades around the
 * clock). Only once: a demo user who later switched the robot off keeps it off. Once means
 * in the database: with leases, another process may hold the account (decision 092), and this
 * process opening it again would have its deposit refused (issue 37, point 11).
 * Returns true when it opened the account now.
 */
export async function seedDemoTrading(
  usersRepository: UsersStore,
  platformAccounts: { isOpened(accountId: string): Promise<boolean> },
  robot: RobotRuntime,
  now: Date,
): Promise<boolean> {
  const user = await usersRepository.findByEmail(demoUser.email);
  if (!user || robot.hasAccount(user.id) || (await platformAccounts.isOpened(user.id))) {
    return false;
  }
  await robot.openAccount(user.id, demoDepositCents);
  const settings = await usersRepository.updateRobotSettings(
    user.id,
    { botOn: true, risk: 1, categoriesEnabled: allCategoriesEnabled },
    now,
  );
  await robot.applySettings(user.id, effectiveRobotSettings(settings));
  return true;
}
