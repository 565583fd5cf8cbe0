import type { RobotSettings } from '@tradebot/robot';
import { describe, expect, it } from 'vitest';
import type { HouseAccount } from '../repositories/track-record.repository';
import { allCategoriesEnabled, type SettingsRow } from '../repositories/users.repository';
import { AccountOpeningService } from './account-opening.service';

const house: HouseAccount = {
  accountId: 'house',
  email: 'robot@track-record',
  name: 'Tradebot',
  lastName: 'Robot',
  startingBalanceCents: 1_000_000,
};

interface Rig {
  /** Accounts the robot has open from the start. */
  open?: string[];
  /** Steps that fail, by name. */
  failing?: string[];
  /** Whether the house account exists already. */
  houseExists?: boolean;
}

/** Plain stubs that record each step in order; `failing` makes a step throw. */
function rig({ open = [], failing = [], houseExists = false }: Rig = {}) {
  const steps: string[] = [];
  const errors: string[] = [];
  const accounts = new Set(open);
  const applied: { accountId: string; settings: RobotSettings }[] = [];
  const step = (name: string) =>
    failing.includes(name) ? Promise.reject(new Error(`${name} failed`)) : Promise.resolve();
  const service = new AccountOpeningService({
    robot: {
      hasAccount: (accountId) => accounts.has(accountId),
      openAccount: async (accountId, cents) => {
        await step('openAccount');
        accounts.add(accountId);
        steps.push(`openAccount ${accountId} ${String(cents)}`);
      },
      applySettings: async (accountId, settings) => {
        await step('applySettings');
        applied.push({ accountId, settings });
        steps.push(`applySettings ${accountId}`);
      },
    },
    gifts: {
      grantPendingGift: async (userId) => {
        await step('grantPendingGift');
        steps.push(`grantPendingGift ${userId}`);
        return true;
      },
    },
    house: {
      account: house,
      store: {
        ensureHouseAccount: async (account, passwordHash) => {
          await step('ensureHouseAccount');
          if (houseExists) return false;
          steps.push(`ensureHouseAccount ${account.accountId} ${await passwordHash()}`);
          return true;
        },
      },
    },
    hasher: { hash: (value) => Promise.resolve(`hash:${value}`) },
    newSecret: () => 'random-secret',
    userChanged: async (userId) => {
      await step('userChanged');
      steps.push(`userChanged ${userId}`);
    },
    applyStoredSettings: async (userId) => {
      await step('applyStoredSettings');
      steps.push(`applyStoredSettings ${userId}`);
    },
    onError: (_error, message) => errors.push(message),
  });
  return { service, steps, errors, applied };
}

const settings = (flags: Partial<SettingsRow>): SettingsRow =>
  ({
    userId: 'u1',
    botOn: true,
    authorized: true,
    linked: true,
    risk: 3,
    categoriesEnabled: allCategoriesEnabled,
    ...flags,
  }) as SettingsRow;

describe('AccountOpeningService.open', () => {
  it('opens the account with its deposit, then grants the gift owed on it', async () => {
    const { service, steps, errors } = rig();
    await service.open('u1', 1_000_000);
    expect(steps).toEqual(['openAccount u1 1000000', 'grantPendingGift u1']);
    expect(errors).toEqual([]);
  });

  it('a gift that fails is logged and the opening still succeeds', async () => {
    const { service, steps, errors } = rig({ failing: ['grantPendingGift'] });
    await service.open('u1', 1_000_000);
    expect(steps).toEqual(['openAccount u1 1000000']);
    expect(errors).toEqual(['billing: granting the broker gift failed']);
  });

  it('an opening that fails fails the caller, and no gift is tried', async () => {
    const { service, steps } = rig({ failing: ['openAccount'] });
    await expect(service.open('u1', 1_000_000)).rejects.toThrow('openAccount failed');
    expect(steps).toEqual([]);
  });
});

describe('AccountOpeningService.linked', () => {
  it('applies the effective settings to an open account: on only while paid and linked', async () => {
    const { service, applied } = rig({ open: ['u1'] });
    await service.linked(settings({}));
    await service.linked(settings({ authorized: false }));
    expect(applied.map(({ accountId, settings: { bot_on } }) => [accountId, bot_on])).toEqual([
      ['u1', true],
      ['u1', false],
    ]);
  });

  it('leaves an account the robot has not opened alone', async () => {
    const { service, steps } = rig();
    await service.linked(settings({}));
    expect(steps).toEqual([]);
  });
});

describe("AccountOpeningService: the robot's own account", () => {
  it('is written once with a random password hashed, and caches drop it', async () => {
    const { service, steps } = rig();
    await service.writeTrackRecordAccount();
    expect(steps).toEqual(['ensureHouseAccount house hash:random-secret', 'userChanged house']);
  });

  it('already written: nothing changes', async () => {
    const { service, steps } = rig({ houseExists: true });
    await service.writeTrackRecordAccount();
    expect(steps).toEqual([]);
  });

  it('a failed write or settings step is logged, never thrown (the server starts)', async () => {
    const { service, errors } = rig({ failing: ['ensureHouseAccount', 'applyStoredSettings'] });
    await service.writeTrackRecordAccount();
    await service.applyTrackRecordSettings();
    expect(errors).toEqual([
      'robot: writing its own account failed',
      "robot: applying its own account's settings failed",
    ]);
  });

  it('applies its stored settings', async () => {
    const { service, steps } = rig();
    await service.applyTrackRecordSettings();
    expect(steps).toEqual(['applyStoredSettings house']);
  });
});
