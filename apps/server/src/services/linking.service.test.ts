import { describe, expect, it } from 'vitest';
import { DomainError } from '../domain/errors';
import type { TradingPlatform } from '../platforms/trading-platform';
import { CredentialsCipher } from '../repositories/credentials-cipher';
import type { TradingPlatformLinksStore } from '../repositories/trading-platform-links.repository';
import type { SettingsRow, UserRow, UsersStore } from '../repositories/users.repository';
import {
  AlreadyLinked,
  LinkingNeedsPayment,
  PlatformEmailTaken,
  PlatformRegistrationFailed,
} from './linking.errors';
import { LinkingService } from './linking.service';

const user = { id: 'u1', email: 'ana@example.com', name: 'Ana', lastName: 'Paz' } as UserRow;
const settingsOf = (flags: Partial<SettingsRow>) =>
  ({ userId: 'u1', authorized: true, linked: false, loginTradear: false, ...flags }) as SettingsRow;

/** The service with plain stubs: what it wrote, told and applied, in order. */
function rig(
  flags: Partial<SettingsRow>,
  platform: Partial<Pick<TradingPlatform, 'register' | 'login'>> = {},
) {
  const events: string[] = [];
  const failures: string[] = [];
  const users = {
    findSettings: () => Promise.resolve(settingsOf(flags)),
    userChanged: (id: string) => {
      events.push(`userChanged ${id}`);
      return Promise.resolve();
    },
  } as unknown as UsersStore;
  const sealed: { keyId: string; ciphertext: string }[] = [];
  const links = {
    markLoggedIn: (
      _userId: string,
      link: { credentials: { keyId: string; ciphertext: string } },
    ) => {
      events.push('markLoggedIn');
      sealed.push(link.credentials);
      return Promise.resolve(settingsOf({ ...flags, linked: true, loginTradear: true }));
    },
  } as unknown as TradingPlatformLinksStore;
  const stub: TradingPlatform & { id: 'tradebot-demo' } = {
    id: 'tradebot-demo',
    register: () =>
      Promise.resolve({ outcome: 'registered', accountId: 'u1', startingBalanceCents: 1_000_000 }),
    login: () => Promise.resolve({ outcome: 'invalidCredentials' }),
    ...platform,
  };
  const cipher = new CredentialsCipher([{ id: 'k', key: Buffer.alloc(32, 1) }]);
  const service = new LinkingService(
    users,
    links,
    stub,
    cipher,
    { now: () => new Date('2026-11-21T12:00:00Z') },
    (row) => {
      events.push(`applied linked=${String(row.linked)}`);
      return Promise.resolve();
    },
    (_error, what) => failures.push(what),
  );
  return { service, events, failures, sealed, cipher };
}

/** The domain error's class the promise rejects with. */
const refusalOf = async (promise: Promise<unknown>) =>
  promise.then(
    () => 'resolved',
    (error: unknown) => (error instanceof DomainError ? error.constructor : 'other'),
  );

describe('LinkingService.link', () => {
  it('links and logs in in one step, then tells the session cache, then the robot', async () => {
    const { service, events, sealed, cipher } = rig({});
    expect(await service.link(user, { password: 'Clave1234' })).toEqual({
      linked: true,
      login_tradear: true,
      platform: 'tradebot-demo',
      email: 'ana@example.com',
      startingBalance: 10_000,
    });
    expect(events).toEqual(['markLoggedIn', 'userChanged u1', 'applied linked=true']);
    // The password the platform just accepted is kept sealed, for this user only.
    expect(sealed).toHaveLength(1);
    expect(sealed[0]?.ciphertext).not.toContain('Clave1234');
    expect(JSON.parse(cipher.open(sealed[0] ?? { keyId: '', ciphertext: '' }, 'u1'))).toEqual({
      email: 'ana@example.com',
      password: 'Clave1234',
    });
  });

  it('refuses before payment (403) and once linked (409), asking the platform nothing', async () => {
    let asked = false;
    const register = () => {
      asked = true;
      return Promise.resolve({ outcome: 'emailTaken' as const });
    };
    expect(
      await refusalOf(
        rig({ authorized: false }, { register }).service.link(user, { password: 'x' }),
      ),
    ).toBe(LinkingNeedsPayment);
    expect(
      await refusalOf(rig({ linked: true }, { register }).service.link(user, { password: 'x' })),
    ).toBe(AlreadyLinked);
    expect(asked).toBe(false);
  });

  it('an e-mail the platform knows is PlatformEmailTaken; a platform failure PlatformRegistrationFailed; neither links', async () => {
    const taken = rig({}, { register: () => Promise.resolve({ outcome: 'emailTaken' }) });
    expect(await refusalOf(taken.service.link(user, { password: 'x' }))).toBe(PlatformEmailTaken);
    expect(taken.events).toEqual([]);
    const down = rig({}, { register: () => Promise.reject(new Error('connection refused')) });
    expect(await refusalOf(down.service.link(user, { password: 'x' }))).toBe(
      PlatformRegistrationFailed,
    );
    expect(down.failures).toEqual(['registering']);
    expect(down.events).toEqual([]);
  });
});
