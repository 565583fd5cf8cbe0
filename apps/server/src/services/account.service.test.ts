import { categories, privacyPolicyVersion } from '@tradebot/contract';
import { describe, expect, it } from 'vitest';
import type { ConsentsStore, NewConsent } from '../repositories/consents.repository';
import type { Transact, Tx } from '../repositories/transaction';
import type { SettingsRow, UserRow, UsersStore } from '../repositories/users.repository';
import { AccountService } from './account.service';

const now = new Date('2026-11-21T12:00:00Z');
const user = {
  id: 'u1',
  name: 'Ana',
  lastName: 'Paz',
  email: 'ana@example.com',
  phone: '+5491155550000',
  passwordHash: 'argon2-hash-of-ana',
  language: 'pt',
  subscribedNewsletter: false,
} as UserRow;
const settings: SettingsRow = {
  userId: 'u1',
  botOn: true,
  risk: 3,
  categoriesEnabled: { forex: true, cripto: false },
  linked: true,
  loginTradear: false,
  authorized: true,
  updatedAt: now,
};

interface RigOptions {
  settings?: SettingsRow | undefined;
  /** Recording the consent fails: the transaction rolls back. */
  consentFails?: boolean;
}

/**
 * The service with plain stubs. The transaction keeps its writes apart and commits them only
 * when the work resolves, as the database would.
 */
function rig(options: RigOptions = {}) {
  const calls: string[] = [];
  const committed: { newsletter: boolean; consents: NewConsent[] } = {
    newsletter: user.subscribedNewsletter,
    consents: [],
  };
  let pending: typeof committed | undefined;
  const tx = { transaction: 'tx1' } as unknown as Tx;
  const transact: Transact = async (work) => {
    pending = { newsletter: committed.newsletter, consents: [...committed.consents] };
    try {
      const result = await work(tx);
      Object.assign(committed, pending);
      calls.push('commit');
      return result;
    } catch (error) {
      calls.push('rollback');
      throw error;
    } finally {
      pending = undefined;
    }
  };
  const users = {
    findSettings: () => Promise.resolve('settings' in options ? options.settings : settings),
    toggleNewsletter: (userId: string, at: Date, db?: Tx) => {
      calls.push(`toggleNewsletter ${userId} ${at.toISOString()}`);
      if (!pending || db !== tx) throw new Error('written outside the transaction');
      pending.newsletter = !pending.newsletter;
      return Promise.resolve(pending.newsletter);
    },
    userChanged: (userId: string) => {
      calls.push(`userChanged ${userId}`);
      return Promise.resolve();
    },
  } as unknown as UsersStore;
  const consents: ConsentsStore = {
    record: (db, rows) => {
      calls.push('consents.record');
      if (!pending || db !== tx) throw new Error('written outside the transaction');
      if (options.consentFails) return Promise.reject(new Error('database down'));
      pending.consents.push(...rows);
      return Promise.resolve();
    },
    listFor: () => Promise.resolve([]),
  };
  const service = new AccountService(users, { now: () => now }, consents, transact);
  return { service, calls, committed };
}

describe('AccountService.userConfig', () => {
  it('answers the spec §3 user config, exactly its shape', async () => {
    const { service } = rig();

    const config = await service.userConfig(user);

    expect(config).toEqual({
      user: {
        id: 'u1',
        name: 'Ana',
        last_name: 'Paz',
        email: 'ana@example.com',
        subscribed_newsletter: false,
      },
      settings: {
        bot_on: true,
        risk: 3,
        categories_enabled: expect.any(Object) as unknown,
      },
      linked: true,
      login_tradear: false,
      authorized: true,
    });
  });

  it('names every category and "all", true only where stored as true', async () => {
    const { service } = rig({
      settings: {
        ...settings,
        categoriesEnabled: {
          forex: true,
          cripto: false,
          // Stored before the flags were booleans: only true is on.
          index: 'yes',
        } as unknown as SettingsRow['categoriesEnabled'],
      },
    });

    const enabled = (await service.userConfig(user)).settings.categories_enabled;

    expect(Object.keys(enabled).sort()).toEqual([...categories, 'all'].sort());
    expect(Object.entries(enabled).filter(([, on]) => on)).toEqual([['forex', true]]);
  });

  it('never answers the password hash or the phone', async () => {
    const { service } = rig();

    const answer = JSON.stringify(await service.userConfig(user));

    expect(answer).not.toContain('argon2-hash-of-ana');
    expect(answer).not.toContain('5550000');
  });

  it('fails, rather than answering defaults, when the settings row is missing', async () => {
    const { service } = rig({ settings: undefined });

    await expect(service.userConfig(user)).rejects.toThrow('user u1 has no settings row');
  });
});

describe('AccountService.toggleNewsletter', () => {
  it('turns the newsletter on and records a marketing consent in the same transaction', async () => {
    const { service, calls, committed } = rig();

    expect(await service.toggleNewsletter(user)).toBe(true);

    expect(committed).toEqual({
      newsletter: true,
      consents: [
        {
          userId: 'u1',
          purpose: 'marketing',
          granted: true,
          policyVersion: privacyPolicyVersion,
          language: 'pt',
          source: 'settings',
          givenAt: now,
        },
      ],
    });
    // The cached user row is dropped once the change is committed, not before.
    expect(calls).toEqual([
      `toggleNewsletter u1 ${now.toISOString()}`,
      'consents.record',
      'commit',
      'userChanged u1',
    ]);
  });

  it('records the withdrawal when it turns the newsletter off', async () => {
    const { service, committed } = rig();

    await service.toggleNewsletter(user);
    expect(await service.toggleNewsletter(user)).toBe(false);

    expect(committed.newsletter).toBe(false);
    expect(committed.consents.map((consent) => consent.granted)).toEqual([true, false]);
  });

  it("records the consent in Spanish when the account's language is not one we speak", async () => {
    const { service, committed } = rig();

    await service.toggleNewsletter({ ...user, language: 'fr' });

    expect(committed.consents[0]?.language).toBe('es');
  });

  it('changes nothing when the consent cannot be recorded', async () => {
    const { service, calls, committed } = rig({ consentFails: true });

    await expect(service.toggleNewsletter(user)).rejects.toThrow('database down');

    expect(committed).toEqual({ newsletter: false, consents: [] });
    expect(calls).toContain('rollback');
    expect(calls).not.toContain('userChanged u1');
  });
});
