import type { RobotSettings } from '@tradebot/robot';
import { describe, expect, it } from 'vitest';
import { DuplicateKey } from '../repositories/errors';
import type { PasswordHasher } from '../repositories/password-hasher';
import type { NewPromoCode, PromoCodesStore } from '../repositories/promo-codes.repository';
import {
  allCategoriesEnabled,
  type NewUser,
  type OnboardingFlags,
  type SettingsRow,
  type UserRow,
  type UsersStore,
} from '../repositories/users.repository';
import type { RobotRuntime } from '../robot/link/robot-runtime';
import {
  demoDepositCents,
  demoPromoCode,
  demoUser,
  seedDemo,
  seedDemoTrading,
} from './demo-seed.service';

const now = new Date('2026-11-21T12:00:00Z');

interface RigOptions {
  /** The demo user exists already. */
  existing?: boolean;
  /** The robot in this process has the demo account. */
  robotHasAccount?: boolean;
  /** The account was opened at the platform (by this process or another one). */
  opened?: boolean;
  /** The robot refuses to open the account (its worker is down). */
  openFails?: boolean;
  /** Creating the user fails: another process created it meanwhile, or something else. */
  createFails?: Error;
}

/** The seed's ports as plain stubs: what it wrote and asked of the robot, in order. */
function rig(options: RigOptions = {}) {
  const calls: string[] = [];
  const codes: NewPromoCode[] = [];
  const created: { user: NewUser; flags: Partial<OnboardingFlags> | undefined }[] = [];
  const applied: RobotSettings[] = [];
  let demo: UserRow | undefined = options.existing
    ? ({ id: 'demo-id', email: demoUser.email } as UserRow)
    : undefined;
  const users = {
    findByEmail: (email: string) => Promise.resolve(demo?.email === email ? demo : undefined),
    create: (user: NewUser, flags?: Partial<OnboardingFlags>) => {
      calls.push('create');
      if (options.createFails) return Promise.reject(options.createFails);
      created.push({ user, flags });
      demo = { ...user, id: 'demo-id' } as UserRow;
      return Promise.resolve(demo);
    },
    updateRobotSettings: (
      userId: string,
      change: Pick<SettingsRow, 'botOn' | 'risk' | 'categoriesEnabled'>,
      at: Date,
    ) => {
      calls.push(`updateRobotSettings ${userId} ${at.toISOString()}`);
      return Promise.resolve({
        userId,
        ...change,
        linked: true,
        loginTradear: true,
        authorized: true,
        updatedAt: at,
      } satisfies SettingsRow);
    },
  } as unknown as UsersStore;
  const promoCodes = {
    upsert: (code: NewPromoCode) => {
      calls.push(`upsert ${code.code}`);
      codes.push(code);
      return Promise.resolve();
    },
  } as unknown as PromoCodesStore;
  const hasher: PasswordHasher = {
    hash: (password) => Promise.resolve(`argon2(${password.length})`),
    verify: () => Promise.resolve(false),
  };
  const robot = {
    hasAccount: () => options.robotHasAccount ?? false,
    openAccount: (accountId: string, cents: number) => {
      calls.push(`openAccount ${accountId} ${String(cents)}`);
      return options.openFails ? Promise.reject(new Error('robot down')) : Promise.resolve();
    },
    applySettings: (accountId: string, settings: RobotSettings) => {
      calls.push(`applySettings ${accountId}`);
      applied.push(settings);
      return Promise.resolve();
    },
  } as unknown as RobotRuntime;
  const platformAccounts = {
    isOpened: (accountId: string) => {
      calls.push(`isOpened ${accountId}`);
      return Promise.resolve(options.opened ?? false);
    },
  };
  return {
    seed: () => seedDemo(users, promoCodes, hasher),
    seedTrading: () => seedDemoTrading(users, platformAccounts, robot, now),
    calls,
    codes,
    created,
    applied,
  };
}

describe('seedDemo', () => {
  it('creates the demo user, paid, linked and logged in at the platform, with a hashed password', async () => {
    const { seed, created, codes } = rig();

    expect(await seed()).toBe(true);

    expect(created).toEqual([
      {
        user: {
          email: 'demo@tradebot.app',
          name: 'Demo',
          lastName: 'Usuario',
          passwordHash: 'argon2(8)',
          language: 'es',
        },
        flags: { authorized: true, linked: true, loginTradear: true },
      },
    ]);
    expect(JSON.stringify(created)).not.toContain(demoUser.password);
    expect(codes).toEqual([
      { code: 'MESGRATIS', benefit: 'free_month', validFrom: new Date('2026-01-01T00:00:00Z') },
    ]);
    expect(demoPromoCode).toEqual({ code: 'MESGRATIS', benefit: 'free_month' });
  });

  it('creates the user once: a second start keeps it, and only writes the promo code again', async () => {
    const { seed, calls } = rig();

    await seed();
    expect(await seed()).toBe(false);

    expect(calls).toEqual(['upsert MESGRATIS', 'create', 'upsert MESGRATIS']);
  });

  it('takes a demo user another process created at the same time as there, not as a failed start', async () => {
    const { seed, created } = rig({ createFails: new DuplicateKey() });

    expect(await seed()).toBe(false);
    expect(created).toEqual([]);
  });

  it('fails the seed on any other error creating the user', async () => {
    const { seed } = rig({ createFails: new Error('database down') });

    await expect(seed()).rejects.toThrow('database down');
  });

  it('leaves a demo user created earlier as it is', async () => {
    const { seed, created } = rig({ existing: true });

    expect(await seed()).toBe(false);
    expect(created).toEqual([]);
  });
});

describe('seedDemoTrading', () => {
  it('opens the account with $10,000, then turns the robot on in every category', async () => {
    const { seedTrading, calls, applied } = rig({ existing: true });

    expect(await seedTrading()).toBe(true);

    expect(calls).toEqual([
      'isOpened demo-id',
      'openAccount demo-id 1000000',
      `updateRobotSettings demo-id ${now.toISOString()}`,
      'applySettings demo-id',
    ]);
    expect(demoDepositCents).toBe(1_000_000);
    expect(applied).toEqual([{ bot_on: true, risk: 1, categories_enabled: allCategoriesEnabled }]);
  });

  it('does nothing without the demo user', async () => {
    const { seedTrading, calls } = rig();

    expect(await seedTrading()).toBe(false);
    expect(calls).toEqual([]);
  });

  it('does nothing when the robot here has the account already', async () => {
    const { seedTrading, calls } = rig({ existing: true, robotHasAccount: true });

    expect(await seedTrading()).toBe(false);
    expect(calls).toEqual([]);
  });

  it('does nothing when another process opened the account (issue 37, point 11)', async () => {
    const { seedTrading, calls } = rig({ existing: true, opened: true });

    expect(await seedTrading()).toBe(false);
    // Not opened twice, and a demo user who switched the robot off keeps it off.
    expect(calls).toEqual(['isOpened demo-id']);
  });

  it('turns nothing on when the account could not be opened', async () => {
    const { seedTrading, calls } = rig({ existing: true, openFails: true });

    await expect(seedTrading()).rejects.toThrow('robot down');
    expect(calls).toEqual(['isOpened demo-id', 'openAccount demo-id 1000000']);
  });
});
