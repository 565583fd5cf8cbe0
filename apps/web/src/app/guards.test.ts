import { describe, expect, it } from 'vitest';
import { evaluateGuards, type GuardInput } from './guards';

const none = { linked: false, login_tradear: false, authorized: false };
const onboarded = { linked: true, login_tradear: true, authorized: true };

function input(overrides: Partial<GuardInput>): GuardInput {
  return {
    route: {},
    path: '/somewhere',
    token: null,
    settings: 'pending',
    account: null,
    countryCode: 'AR',
    ...overrides,
  };
}
const loggedIn = (account = onboarded) =>
  ({ token: 't', settings: 'loaded', account }) satisfies Partial<GuardInput>;

describe('evaluateGuards: each rule of spec §4', () => {
  it.each<[string, Partial<GuardInput>, ReturnType<typeof evaluateGuards>]>([
    [
      '1. token, settings not loaded: wait',
      { token: 't', settings: 'pending' },
      { outcome: 'wait', for: 'settings' },
    ],
    [
      '2. requires auth, no token: login',
      { route: { requiresAuth: true } },
      {
        outcome: 'redirect',
        rule: 2,
        to: '/login?redirect=%2Fsomewhere',
        message: 'guards.loginRequired',
      },
    ],
    [
      '3. requires linking, not linked: LinkAccount',
      { route: { requiresLinking: true }, ...loggedIn({ ...onboarded, linked: false }) },
      { outcome: 'redirect', rule: 3, to: '/link-account', message: 'guards.linkRequired' },
    ],
    [
      '4. requires unlinked, linked: Dashboard',
      { route: { requiresUnlinked: true }, ...loggedIn() },
      { outcome: 'redirect', rule: 4, to: '/dashboard', message: 'guards.alreadyLinked' },
    ],
    [
      '5. TradearLogin while logged in to the platform: Dashboard',
      { route: { name: 'TradearLogin' }, ...loggedIn() },
      { outcome: 'redirect', rule: 5, to: '/dashboard', message: 'guards.alreadyLinked' },
    ],
    [
      '6. requires linking, linked, platform login false: TradearLogin',
      { route: { requiresLinking: true }, ...loggedIn({ ...onboarded, login_tradear: false }) },
      {
        outcome: 'redirect',
        rule: 6,
        to: '/trading-platform-login',
        message: 'guards.tradingLoginRequired',
      },
    ],
    [
      '7. logged-out only, with a token: Dashboard',
      { route: { requiresUnauth: true }, ...loggedIn(none) },
      { outcome: 'redirect', rule: 7, to: '/dashboard', message: 'guards.alreadyLoggedIn' },
    ],
    [
      '8. requires payment, not authorized: Payment',
      { route: { requiresPayment: true }, ...loggedIn({ ...onboarded, authorized: false }) },
      { outcome: 'redirect', rule: 8, to: '/payment', message: 'guards.paymentRequired' },
    ],
    [
      '9. /register, country unknown: wait for the lookup',
      { path: '/register', countryCode: '' },
      { outcome: 'wait', for: 'country' },
    ],
    [
      '9. /register from UY: home',
      { path: '/register', countryCode: 'UY' },
      { outcome: 'redirect', rule: 9, to: '/' },
    ],
    [
      '9. /register/ from UY: home',
      { path: '/register/', countryCode: 'UY' },
      { outcome: 'redirect', rule: 9, to: '/' },
    ],
    [
      '9. elsewhere, country unknown: allow and look it up',
      { path: '/asked-questions', countryCode: '' },
      { outcome: 'allow', lookUpCountry: true },
    ],
    [
      '9. /register from AR: allow',
      { path: '/register' },
      { outcome: 'allow', lookUpCountry: false },
    ],
    [
      '9. / from UY: allow',
      { path: '/', countryCode: 'UY' },
      { outcome: 'allow', lookUpCountry: false },
    ],
    ['a public page, logged out: allow', {}, { outcome: 'allow', lookUpCountry: false }],
    [
      'an onboarded user on a fully guarded page: allow',
      {
        route: { requiresAuth: true, requiresLinking: true, requiresPayment: true },
        ...loggedIn(),
      },
      { outcome: 'allow', lookUpCountry: false },
    ],
  ])('%s', (_name, overrides, expected) => {
    expect(evaluateGuards(input(overrides))).toEqual(expected);
  });
});

describe('evaluateGuards: which rule wins when several match', () => {
  const dashboard = {
    name: 'Dashboard' as const,
    requiresAuth: true,
    requiresLinking: true,
    requiresPayment: true,
  };
  const linkAccount = {
    name: 'LinkAccount' as const,
    requiresAuth: true,
    requiresUnlinked: true,
    requiresPayment: true,
  };

  it('1 before 2..9: a token waits for settings even on a guarded route', () => {
    expect(evaluateGuards(input({ route: dashboard, token: 't' })).outcome).toBe('wait');
  });

  it('2 before 3 and 8: logged out on the dashboard goes to login', () => {
    expect(evaluateGuards(input({ route: dashboard }))).toMatchObject({
      rule: 2,
      to: '/login?redirect=%2Fsomewhere',
    });
  });

  it('2 keeps the page asked for, with its query, for the return after login', () => {
    expect(
      evaluateGuards(input({ route: { requiresAuth: true }, path: '/contact', search: '?a=1' })),
    ).toMatchObject({ rule: 2, to: '/login?redirect=%2Fcontact%3Fa%3D1' });
  });

  it('8 spares the read-only dashboard for a linked user whose access ended (decision 063)', () => {
    const readOnly = { ...dashboard, readOnlyWithoutPayment: true };
    const ended = loggedIn({ ...onboarded, authorized: false });
    expect(evaluateGuards(input({ route: readOnly, ...ended }))).toEqual({
      outcome: 'allow',
      lookUpCountry: false,
    });
    // Any other paid page still sends them to pay.
    expect(evaluateGuards(input({ route: dashboard, ...ended }))).toMatchObject({ rule: 8 });
  });

  it('3 before 8: a new user (unpaid, unlinked) on the dashboard goes to LinkAccount first', () => {
    expect(evaluateGuards(input({ route: dashboard, ...loggedIn(none) }))).toMatchObject({
      rule: 3,
    });
  });

  it('then 8 on LinkAccount: the same user ends on Payment', () => {
    expect(evaluateGuards(input({ route: linkAccount, ...loggedIn(none) }))).toMatchObject({
      rule: 8,
      to: '/payment',
    });
  });

  it('4 before 8: linked but unpaid on LinkAccount goes to the Dashboard', () => {
    const account = { linked: true, login_tradear: true, authorized: false };
    expect(evaluateGuards(input({ route: linkAccount, ...loggedIn(account) }))).toMatchObject({
      rule: 4,
    });
  });

  it('6 before 8: linked, not on the platform, unpaid on the dashboard goes to TradearLogin', () => {
    const account = { linked: true, login_tradear: false, authorized: false };
    expect(evaluateGuards(input({ route: dashboard, ...loggedIn(account) }))).toMatchObject({
      rule: 6,
    });
  });

  it('7 before 9: a logged-in visitor from UY on /register goes to the Dashboard', () => {
    const route = { requiresUnauth: true, name: 'Register' as const };
    expect(
      evaluateGuards(input({ route, path: '/register', countryCode: 'UY', ...loggedIn() })),
    ).toMatchObject({ rule: 7, to: '/dashboard' });
  });

  it('failed settings count as nothing granted: no wait, and guarded pages stay closed', () => {
    expect(
      evaluateGuards(input({ route: dashboard, token: 't', settings: 'failed' })),
    ).toMatchObject({ rule: 3 });
  });
});
