import type { Language, RegisterRequest } from '@tradebot/contract';
import { describe, expect, it } from 'vitest';
import { DomainError } from '../domain/errors';
import type { NewConsent } from '../repositories/consents.repository';
import { DuplicateKey } from '../repositories/errors';
import type { MailMessage } from '../repositories/mail.repository';
import type { PromoCodeRow, PromoCodesStore } from '../repositories/promo-codes.repository';
import type {
  RegistrationConfirmationRow,
  RegistrationConfirmationsStore,
} from '../repositories/registration-confirmations.repository';
import { Secrets } from '../repositories/secrets';
import type { Tx } from '../repositories/transaction';
import type { NewUser, UserRow, UsersStore } from '../repositories/users.repository';
import type { PromoBenefits } from './promo-benefits';
import { PromoCodeInvalid } from './promo-codes.errors';
import {
  ConfirmationLinkInvalid,
  ConfirmationNeedsPassword,
  ConfirmationUsed,
  ConfirmationWrongPassword,
  RegionBlocked,
} from './registration.errors';
import { RegistrationService } from './registration.service';

const now = new Date('2026-11-21T12:00:00Z');
const tx = { transaction: 'tx1' } as unknown as Tx;

const input: RegisterRequest = {
  name: ' Ana ',
  last_name: 'Paz',
  email: ' ana@example.com ',
  password: 'Clave1234',
  confirm_password: 'Clave1234',
  accept_terms: true,
  accept_privacy: true,
};

const freeMonth = { code: 'HOLA30', benefit: 'free_month' } as PromoCodeRow;

interface RigOptions {
  existing?: UserRow;
  /** Codes usable at registration, and redeemable at confirmation. */
  usable?: string[];
  redeemable?: string[];
  /** The confirmation was used by a request racing this one. */
  consumed?: boolean;
  /** The address got an account meanwhile. */
  taken?: boolean;
  /** A row stored before consent was asked for (decision 087). */
  withoutConsent?: boolean;
}

/** The service with plain stubs: what it stored, mailed and granted, in order. */
function rig(options: RigOptions = {}) {
  const secrets = new Secrets();
  const events: string[] = [];
  const mails: MailMessage[] = [];
  const failures: string[] = [];
  const consents: NewConsent[] = [];
  const created: NewUser[] = [];
  const stored: RegistrationConfirmationRow[] = [];
  const users = {
    findByEmail: (email: string) =>
      Promise.resolve(options.existing?.email === email ? options.existing : undefined),
    create: async (
      user: NewUser,
      _flags: unknown,
      before: (tx: Tx) => Promise<void>,
      after: (tx: Tx, row: UserRow) => Promise<void>,
    ) => {
      await before(tx);
      if (options.taken) throw new DuplicateKey();
      const row = { ...user, id: 'u1' } as UserRow;
      created.push({ ...user });
      await after(tx, row);
      return row;
    },
  } as unknown as UsersStore;
  const confirmations: RegistrationConfirmationsStore = {
    add: (hashes, registration, _now, expiresAt) => {
      stored.push({
        id: `r${String(stored.length + 1)}`,
        tokenHash: hashes.token,
        nonceHash: hashes.nonce,
        email: registration.email.toLowerCase(),
        registration: options.withoutConsent
          ? { ...registration, consent: undefined }
          : registration,
        createdAt: now,
        expiresAt,
      });
      return Promise.resolve();
    },
    find: (tokenHash) => Promise.resolve(stored.find((row) => row.tokenHash === tokenHash)),
    consume: (_tx, id) => {
      events.push(`consume ${id}`);
      return Promise.resolve(!options.consumed);
    },
  };
  const promoCodes = {
    findUsable: (code: string) =>
      Promise.resolve(options.usable?.includes(code.toUpperCase()) ? freeMonth : undefined),
    redeem: (code: string) => {
      events.push(`redeem ${code}`);
      return Promise.resolve(options.redeemable?.includes(code) ? freeMonth : undefined);
    },
    recordUse: (_tx: Tx, use: { code: string; userId: string; source: string }) => {
      events.push(`recordUse ${use.code} ${use.userId} ${use.source}`);
      return Promise.resolve();
    },
  } as unknown as PromoCodesStore;
  const promoBenefits: PromoBenefits = {
    grant: (_tx, userId, benefit) => {
      events.push(`grant ${benefit} ${userId}`);
      return Promise.resolve({ trialEndsAt: new Date(now.getTime() + 30 * 86_400_000) });
    },
    granted: (userId) => {
      events.push(`granted ${userId}`);
      return Promise.resolve();
    },
    trialEnd: () => Promise.resolve(null),
  };
  const service = new RegistrationService({
    users,
    confirmations,
    consents: {
      record: (_tx, rows) => {
        consents.push(...rows);
        return Promise.resolve();
      },
      listFor: () => Promise.resolve([]),
    },
    promoCodes,
    hasher: {
      hash: (password) => Promise.resolve(`hashed:${password}`),
      verify: (hashed, password) => Promise.resolve(hashed === `hashed:${password}`),
    },
    secrets,
    mailer: {
      send: (message) => {
        mails.push(message);
        return Promise.resolve();
      },
      close: () => Promise.resolve(),
    },
    clock: { now: () => now },
    links: {
      page: (language: Language, path: string) =>
        `https://tradebot.example${language === 'pt' ? '/pt' : ''}${path}`,
    },
    supportEmail: 'ayuda@tradebot.example',
    signIn: (userId) => {
      events.push(`signIn ${userId}`);
      return Promise.resolve({ token: 'session-token' });
    },
    promoBenefits,
    onFailure: (_error, step) => failures.push(step),
  });
  /** The confirmation token, as the e-mail's link carries it. */
  const mailedToken = () => {
    const match = /confirmation_token=([\w%-]+)/.exec(mails.at(-1)?.text ?? '');
    if (!match?.[1]) throw new Error('no confirmation link mailed');
    return decodeURIComponent(match[1]);
  };
  /** Registers, waits for the mail, and returns what the browser and the e-mail hold. */
  const register = async (
    request: RegisterRequest = input,
    context: { countryCode: string; language: Language } = { countryCode: 'AR', language: 'es' },
  ) => {
    const { nonce } = await service.request(request, context);
    await service.settled();
    return { nonce, token: mailedToken() };
  };
  return {
    service,
    events,
    mails,
    failures,
    consents,
    created,
    stored,
    secrets,
    register,
  };
}

/** The domain error's class the promise rejects with. */
const refusalOf = async (promise: Promise<unknown>) =>
  promise.then(
    () => 'resolved',
    (error: unknown) => (error instanceof DomainError ? error.constructor : 'other'),
  );

describe('RegistrationService.request', () => {
  it('refuses Uruguay (spec §5) before storing or mailing anything', async () => {
    const { service, stored, mails } = rig();
    const context = { countryCode: 'UY', language: 'es' as const };
    expect(await refusalOf(service.request(input, context))).toBe(RegionBlocked);
    await service.settled();
    expect(stored).toEqual([]);
    expect(mails).toEqual([]);
  });

  it('refuses a promo code that is not usable, and takes a usable one in any case', async () => {
    const { service, stored } = rig({ usable: ['HOLA30'] });
    const context = { countryCode: 'AR', language: 'es' as const };
    expect(await refusalOf(service.request({ ...input, promocode: 'NADA' }, context))).toBe(
      PromoCodeInvalid,
    );
    await service.settled();
    expect(stored).toEqual([]);
    await service.request({ ...input, promocode: 'hola30' }, context);
    await service.settled();
    expect(stored[0]?.registration.promocode).toBe('HOLA30');
  });

  it('answers an address that has an account the same way, and tells its owner by e-mail', async () => {
    const existing = { id: 'u0', email: 'ana@example.com', name: 'Ana' } as UserRow;
    const { service, stored, mails } = rig({ existing });
    const answer = await service.request(input, { countryCode: 'AR', language: 'pt' });
    expect(Object.keys(answer)).toEqual(['nonce']);
    await service.settled();
    expect(stored).toEqual([]);
    expect(mails).toHaveLength(1);
    expect(mails[0]?.to).toBe('ana@example.com');
    expect(mails[0]?.text).toContain('https://tradebot.example/pt/forgot-password');
    expect(mails[0]?.text).not.toContain('confirmation_token');
  });

  it('stores hashes, never the token, the nonce or the password, for a day', async () => {
    const { register, stored, secrets } = rig();
    const { nonce, token } = await register();
    const row = stored[0];
    expect(row?.tokenHash).toBe(secrets.hash(token));
    expect(row?.nonceHash).toBe(secrets.hash(nonce));
    expect(JSON.stringify(row)).not.toContain(token);
    expect(JSON.stringify(row)).not.toContain(nonce);
    expect(row?.registration.passwordHash).toBe('hashed:Clave1234');
    expect(JSON.stringify(row?.registration)).not.toContain('"Clave1234"');
    expect(row?.registration).toMatchObject({ name: 'Ana', email: 'ana@example.com' });
    expect(row?.expiresAt).toEqual(new Date(now.getTime() + 24 * 3_600_000));
  });

  it('records consent as given when the boxes were ticked, the newsletter unticked by default', async () => {
    const { register, stored } = rig();
    await register();
    await register({ ...input, subscribe_newsletter: true });
    expect(stored[0]?.registration.consent).toMatchObject({
      givenAt: now.toISOString(),
      terms: true,
      privacy: true,
      marketing: false,
      language: 'es',
    });
    expect(stored[1]?.registration.consent?.marketing).toBe(true);
  });

  it("mails the confirmation link in the user's language", async () => {
    const { register, mails } = rig();
    await register(input, { countryCode: 'BR', language: 'pt' });
    await register(input, { countryCode: 'AR', language: 'es' });
    expect(mails[0]?.text).toContain('https://tradebot.example/pt/register?confirmation_token=');
    expect(mails[1]?.text).toContain('https://tradebot.example/register?confirmation_token=');
    expect(mails[0]?.subject).not.toBe(mails[1]?.subject);
  });
});

describe('RegistrationService.confirm', () => {
  it('creates the account for the browser that registered, with its consents, and signs it in', async () => {
    const { service, register, created, consents, events, mails } = rig();
    const { nonce, token } = await register();
    const result = await service.confirm({ token, nonce });
    expect(result).toEqual({ token: 'session-token', promocode: null, plan: null });
    expect(created[0]).toMatchObject({
      email: 'ana@example.com',
      passwordHash: 'hashed:Clave1234',
      subscribedNewsletter: false,
      promocode: null,
    });
    expect(consents.map((row) => [row.purpose, row.granted])).toEqual([
      ['terms', true],
      ['privacy', true],
      ['marketing', false],
    ]);
    expect(events).toEqual(['consume r1', 'signIn u1']);
    await service.settled();
    expect(mails.at(-1)?.text).toContain('ayuda@tradebot.example');
  });

  it('asks another browser for the password chosen at registration, and refuses a wrong one', async () => {
    const { service, register, created } = rig();
    const { token } = await register();
    expect(await refusalOf(service.confirm({ token }))).toBe(ConfirmationNeedsPassword);
    expect(await refusalOf(service.confirm({ token, nonce: 'someone-else' }))).toBe(
      ConfirmationNeedsPassword,
    );
    expect(await refusalOf(service.confirm({ token, password: 'Otra1234' }))).toBe(
      ConfirmationWrongPassword,
    );
    expect(created).toEqual([]);
    expect((await service.confirm({ token, password: 'Clave1234' })).token).toBe('session-token');
  });

  it('refuses a link it did not send, one used meanwhile, and one stored without consent', async () => {
    const unknown = rig();
    await unknown.register();
    expect(await refusalOf(unknown.service.confirm({ token: 'forged' }))).toBe(
      ConfirmationLinkInvalid,
    );
    const raced = rig({ consumed: true });
    const first = await raced.register();
    expect(await refusalOf(raced.service.confirm(first))).toBe(ConfirmationLinkInvalid);
    expect(raced.created).toEqual([]);
    expect(raced.events).not.toContain('signIn u1');
    const old = rig({ withoutConsent: true });
    const link = await old.register();
    expect(await refusalOf(old.service.confirm(link))).toBe(ConfirmationLinkInvalid);
    expect(old.created).toEqual([]);
  });

  it('says the account exists when the address got one meanwhile (no duplicate account)', async () => {
    const { service, register, events } = rig({ taken: true });
    const link = await register();
    expect(await refusalOf(service.confirm(link))).toBe(ConfirmationUsed);
    expect(events).not.toContain('signIn u1');
  });

  it('redeems the promo code with the account, records its use and grants the free month', async () => {
    const { service, register, created, events } = rig({
      usable: ['HOLA30'],
      redeemable: ['HOLA30'],
    });
    const link = await register({ ...input, promocode: 'hola30', plan: 'yearly' });
    const result = await service.confirm(link);
    expect(result).toEqual({ token: 'session-token', promocode: 'applied', plan: 'yearly' });
    expect(created[0]?.promocode).toBe('HOLA30');
    expect(events).toEqual([
      'consume r1',
      'redeem HOLA30',
      'recordUse HOLA30 u1 registration',
      'grant free_month u1',
      'signIn u1',
      'granted u1',
    ]);
  });

  it('makes the account without a code that ran out since registering, and says so', async () => {
    const { service, register, created, events } = rig({ usable: ['HOLA30'] });
    const link = await register({ ...input, promocode: 'HOLA30' });
    expect((await service.confirm(link)).promocode).toBe('expired');
    expect(created[0]?.promocode).toBeNull();
    expect(events.some((event) => event.startsWith('grant'))).toBe(false);
    expect(events.some((event) => event.startsWith('recordUse'))).toBe(false);
  });
});
