import { createHash } from 'node:crypto';
import type { CTraderAccount } from '@tradebot/contract';
import { describe, expect, it } from 'vitest';
import { MalformedCTraderGrant } from '../domain/ctrader-grant';
import { DomainError } from '../domain/errors';
import { CTraderAccessRefused } from '../platforms/ctrader/ctrader-accounts';
import {
  CTraderGrantRefused,
  type CTraderGrant,
  type CTraderOAuth,
} from '../platforms/ctrader/ctrader-oauth';
import type { CTraderAuthorizationsStore } from '../repositories/ctrader-authorizations.repository';
import { CredentialsCipher, type SealedCredentials } from '../repositories/credentials-cipher';
import { DuplicateKey } from '../repositories/errors';
import type { JobClaims } from '../repositories/job-claims.repository';
import type { TradingPlatformLinksStore } from '../repositories/trading-platform-links.repository';
import type { SettingsRow, UserRow, UsersStore } from '../repositories/users.repository';
import { CTraderLinkingService } from './ctrader-linking.service';
import {
  AlreadyLinked,
  BrokerAccountNotOffered,
  BrokerAccountsNotListed,
  BrokerAccountTaken,
  BrokerEnvironmentNotAllowed,
  BrokerUnavailable,
  CTraderNotConfigured,
  LinkingNeedsPayment,
  NoBrokerAuthorization,
  OAuthGrantRefused,
  OAuthStateInvalid,
} from './linking.errors';

const now = new Date('2026-11-21T12:00:00Z');
const user = { id: 'u1', email: 'ana@example.com' } as UserRow;
const hashOf = (state: string) => createHash('sha256').update(state).digest('base64url');

const demo: CTraderAccount = {
  ctidTraderAccountId: 4_400_101,
  live: false,
  brokerName: 'Demo Broker',
  traderLogin: 1001,
  currency: 'EUR',
  leverage: 100,
  pickable: true,
};
const live: CTraderAccount = {
  ...demo,
  ctidTraderAccountId: 4_400_202,
  live: true,
  pickable: false,
};

const grant: CTraderGrant = {
  accessToken: 'access-1',
  refreshToken: 'refresh-1',
  expiresAt: new Date(now.getTime() + 30 * 86_400_000),
};

interface RigOptions {
  settings?: Partial<SettingsRow>;
  configured?: boolean;
  exchange?: () => Promise<CTraderGrant>;
  list?: () => Promise<CTraderAccount[]>;
  /** The broker account is linked by another user. */
  taken?: boolean;
}

/** The service with plain stubs: the authorisations in memory, what it linked and told. */
function rig(options: RigOptions = {}) {
  const cipher = new CredentialsCipher([{ id: 'k1', key: Buffer.alloc(32, 7) }]);
  const events: string[] = [];
  const failures: string[] = [];
  const states = new Map<string, { userId: string; spent: boolean }>();
  let stored: { grant: SealedCredentials; accounts: CTraderAccount[] } | undefined;
  const linked: { platformAccountId: string; credentials: SealedCredentials }[] = [];
  const authorizations: CTraderAuthorizationsStore = {
    start: (userId, stateHash) => {
      states.set(stateHash, { userId, spent: false });
      return Promise.resolve();
    },
    spend: (userId, stateHash) => {
      const found = states.get(stateHash);
      if (found?.userId !== userId || found.spent) return Promise.resolve(false);
      found.spent = true;
      return Promise.resolve(true);
    },
    storeGrant: (_stateHash, sealed, accounts) => {
      events.push('storeGrant');
      stored = { grant: sealed, accounts };
      return Promise.resolve();
    },
    granted: () =>
      Promise.resolve(
        stored && {
          grantKeyId: stored.grant.keyId,
          grantCiphertext: stored.grant.ciphertext,
          accounts: stored.accounts,
        },
      ) as ReturnType<CTraderAuthorizationsStore['granted']>,
    prune: () => Promise.resolve(0),
  };
  const links = {
    linkBroker: (
      _userId: string,
      link: { platformAccountId: string; credentials: SealedCredentials },
    ) => {
      if (options.taken) return Promise.reject(new DuplicateKey());
      linked.push(link);
      return Promise.resolve({ userId: 'u1', linked: true } as SettingsRow);
    },
  } as unknown as TradingPlatformLinksStore;
  const oauth = {
    authorizationUrl: (state: string) => `https://id.ctrader.example/authorize?state=${state}`,
    exchangeCode: (code: string) => {
      events.push(`exchangeCode ${code}`);
      return options.exchange ? options.exchange() : Promise.resolve(grant);
    },
    refresh: () => Promise.reject(new Error('not used')),
  } as unknown as CTraderOAuth;
  const service = new CTraderLinkingService({
    users: {
      findSettings: () =>
        Promise.resolve({ userId: 'u1', authorized: true, linked: false, ...options.settings }),
    } as unknown as UsersStore,
    links,
    authorizations,
    cipher,
    clock: { now: () => now },
    claims: {} as JobClaims,
    oauth: options.configured === false ? undefined : oauth,
    environment: 'demo',
    listAccounts: (accessToken) => {
      events.push(`listAccounts ${accessToken}`);
      return options.list ? options.list() : Promise.resolve([demo, live]);
    },
    onLinked: (row) => {
      events.push(`onLinked ${row.userId}`);
      return Promise.resolve();
    },
    onFailure: (_error, what) => failures.push(what),
  });
  /** Starts an authorisation and returns the state cTrader sends back. */
  const start = async () => {
    const { authorizeUrl } = await service.authorize(user);
    const state = new URL(authorizeUrl).searchParams.get('state');
    if (!state) throw new Error('no state');
    return state;
  };
  return { service, cipher, events, failures, states, linked, start, stored: () => stored };
}

/** The domain error's class the promise rejects with. */
const refusalOf = async (promise: Promise<unknown>) =>
  promise.then(
    () => 'resolved',
    (error: unknown) => (error instanceof DomainError ? error.constructor : 'other'),
  );

describe('CTraderLinkingService: who may link', () => {
  it('refuses without the OAuth client, without access, and when already linked', async () => {
    expect(await refusalOf(rig({ configured: false }).service.authorize(user))).toBe(
      CTraderNotConfigured,
    );
    expect(await refusalOf(rig({ settings: { authorized: false } }).service.authorize(user))).toBe(
      LinkingNeedsPayment,
    );
    expect(await refusalOf(rig({ settings: { linked: true } }).service.authorize(user))).toBe(
      AlreadyLinked,
    );
    const linkedMeanwhile = rig({ settings: { linked: true } });
    expect(
      await refusalOf(linkedMeanwhile.service.link(user, { ctidTraderAccountId: 4_400_101 })),
    ).toBe(AlreadyLinked);
  });
});

describe('CTraderLinkingService: state and nonce', () => {
  it('keeps only the hash of a fresh, unguessable state', async () => {
    const { start, states } = rig();
    const first = await start();
    const second = await start();
    expect(first).not.toBe(second);
    expect(first.length).toBeGreaterThanOrEqual(43);
    expect([...states.keys()]).toEqual([hashOf(first), hashOf(second)]);
  });

  it("refuses a state it did not issue, another user's, and a replayed callback", async () => {
    const { service, start, events, states } = rig();
    expect(await refusalOf(service.callback(user, { code: 'c', state: 'forged' }))).toBe(
      OAuthStateInvalid,
    );
    const state = await start();
    const other = { ...user, id: 'u2' };
    expect(await refusalOf(service.callback(other, { code: 'c', state }))).toBe(OAuthStateInvalid);
    expect(events).toEqual([]);
    expect((await service.callback(user, { code: 'c1', state })).accounts).toEqual([demo, live]);
    expect(await refusalOf(service.callback(user, { code: 'c1', state }))).toBe(OAuthStateInvalid);
    expect(events.filter((event) => event.startsWith('exchangeCode'))).toEqual(['exchangeCode c1']);
    expect(states.get(hashOf(state))?.spent).toBe(true);
  });
});

describe('CTraderLinkingService: the grant', () => {
  it('seals the grant for this user only: never stored in clear', async () => {
    const { service, start, stored, cipher } = rig();
    await service.callback(user, { code: 'c1', state: await start() });
    const sealed = stored()?.grant;
    if (!sealed) throw new Error('no grant stored');
    expect(sealed.ciphertext).not.toContain('access-1');
    expect(sealed.ciphertext).not.toContain('refresh-1');
    expect(JSON.parse(cipher.open(sealed, 'u1'))).toEqual({
      accessToken: 'access-1',
      refreshToken: 'refresh-1',
      expiresAt: grant.expiresAt.toISOString(),
    });
    expect(() => cipher.open(sealed, 'u2')).toThrow();
  });

  it('answers a refused code or token as refused, and cTrader down as unavailable', async () => {
    const refused = rig({ exchange: () => Promise.reject(new CTraderGrantRefused('bad', 'x')) });
    const state1 = await refused.start();
    expect(await refusalOf(refused.service.callback(user, { code: 'c', state: state1 }))).toBe(
      OAuthGrantRefused,
    );
    const down = rig({ exchange: () => Promise.reject(new Error('ECONNRESET')) });
    const state2 = await down.start();
    expect(await refusalOf(down.service.callback(user, { code: 'c', state: state2 }))).toBe(
      BrokerUnavailable,
    );
    expect(down.failures).toEqual(['exchanging an authorisation code']);
    const notListed = rig({ list: () => Promise.reject(new CTraderAccessRefused()) });
    const state3 = await notListed.start();
    expect(await refusalOf(notListed.service.callback(user, { code: 'c', state: state3 }))).toBe(
      BrokerAccountsNotListed,
    );
    expect(notListed.stored()).toBeUndefined();
  });
});

describe('CTraderLinkingService.link', () => {
  async function granted(options: RigOptions = {}) {
    const linking = rig(options);
    await linking.service.callback(user, { code: 'c1', state: await linking.start() });
    return linking;
  }

  it('links the account picked, with the grant sealed again for this user, then tells the robot', async () => {
    const { service, linked, cipher, events } = await granted();
    expect(await service.link(user, { ctidTraderAccountId: 4_400_101 })).toEqual({
      account: demo,
    });
    expect(linked[0]?.platformAccountId).toBe('4400101');
    const credentials = linked[0]?.credentials;
    if (!credentials) throw new Error('nothing linked');
    expect(credentials.ciphertext).not.toContain('access-1');
    expect(JSON.parse(cipher.open(credentials, 'u1'))).toEqual({
      accessToken: 'access-1',
      refreshToken: 'refresh-1',
    });
    expect(events.at(-1)).toBe('onLinked u1');
  });

  it('refuses without a grant, an account not granted, and one of another environment', async () => {
    const none = rig();
    expect(await refusalOf(none.service.link(user, { ctidTraderAccountId: 4_400_101 }))).toBe(
      NoBrokerAuthorization,
    );
    const { service, linked } = await granted();
    expect(await refusalOf(service.link(user, { ctidTraderAccountId: 9 }))).toBe(
      BrokerAccountNotOffered,
    );
    expect(await refusalOf(service.link(user, { ctidTraderAccountId: 4_400_202 }))).toBe(
      BrokerEnvironmentNotAllowed,
    );
    expect(linked).toEqual([]);
  });

  it('refuses an authorisation whose sealed grant opens to no grant, and links nothing', async () => {
    const { service, linked, cipher, stored } = await granted();
    const authorisation = stored();
    if (!authorisation) throw new Error('no grant stored');
    // Sealed for this user, but without its expiry (decision 165: one schema for every reader).
    authorisation.grant = cipher.seal(
      JSON.stringify({ accessToken: 'access-1', refreshToken: 'refresh-1' }),
      'u1',
    );
    expect(await refusalOf(service.link(user, { ctidTraderAccountId: 4_400_101 }))).toBe(
      MalformedCTraderGrant,
    );
    expect(linked).toEqual([]);
  });

  it('answers 409 BROKER_ACCOUNT_TAKEN when another user has the account linked', async () => {
    const { service, events } = await granted({ taken: true });
    const refusal = await service
      .link(user, { ctidTraderAccountId: 4_400_101 })
      .catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(BrokerAccountTaken);
    // http/errors.ts answers this class with 409 BROKER_ACCOUNT_TAKEN (test/ctrader-linking.test.ts).
    expect((refusal as BrokerAccountTaken).key).toBe('linking.brokerAccountTaken');
    expect(events).not.toContain('onLinked u1');
  });
});
