import { registrationBlockedCountries } from '@tradebot/contract/constants';
import { routePath, type RouteFlags } from '../lib/route-paths';
import { loginReturningTo } from '../lib/return-path';

/** Keys in the `common` catalogue, under `guards.` (spec §4 guard messages). */
export type GuardMessageKey =
  | 'guards.loginRequired'
  | 'guards.linkRequired'
  | 'guards.alreadyLinked'
  | 'guards.tradingLoginRequired'
  | 'guards.alreadyLoggedIn'
  | 'guards.paymentRequired'
  | 'guards.sessionEnded';

export interface GuardInput {
  route: RouteFlags;
  path: string;
  /** The query string asked for ('' or '?…'): with the path, where login returns to. */
  search?: string;
  token: string | null;
  /** Settings: still to load or loading, loaded, or the one attempt failed. */
  settings: 'pending' | 'loaded' | 'failed';
  account: { linked: boolean; login_tradear: boolean; authorized: boolean } | null;
  /** Upper-case country code, '' while unknown. */
  countryCode: string;
}

export type GuardDecision =
  | { outcome: 'allow'; lookUpCountry: boolean }
  | { outcome: 'wait'; for: 'settings' | 'country' }
  | { outcome: 'redirect'; to: string; rule: number; message?: GuardMessageKey };

const redirect = (
  rule: number,
  to: string,
  message?: GuardMessageKey,
): Extract<GuardDecision, { outcome: 'redirect' }> =>
  message ? { outcome: 'redirect', rule, to, message } : { outcome: 'redirect', rule, to };

/**
 * The nine navigation guards of spec §4, in order; the first that matches wins. Pure: the
 * caller does the waiting and the lookups a 'wait' asks for, then asks again.
 * Without settings (none yet, or their load failed) the account counts as not linked,
 * not logged in to the platform and not paid: access is denied, never granted, by default.
 */
export function evaluateGuards(input: GuardInput): GuardDecision {
  const { route, token } = input;
  const linked = input.account?.linked ?? false;
  const tradingLoggedIn = input.account?.login_tradear ?? false;
  const authorized = input.account?.authorized ?? false;

  // 1. A token and settings not loaded yet: wait for the load to finish.
  if (token && input.settings === 'pending') return { outcome: 'wait', for: 'settings' };
  // 2. Login required, no token. The login returns to this page afterwards (issue 22).
  if (route.requiresAuth && !token) {
    const back = loginReturningTo(`${input.path}${input.search ?? ''}`);
    return redirect(2, back, 'guards.loginRequired');
  }
  // 3. Linking required, not linked.
  if (route.requiresLinking && !linked) {
    return redirect(3, routePath('LinkAccount'), 'guards.linkRequired');
  }
  // 4. Only while unlinked, but linked.
  if (route.requiresUnlinked && linked) {
    return redirect(4, routePath('Dashboard'), 'guards.alreadyLinked');
  }
  // 5. The trading-platform login while already logged in there.
  if (route.name === 'TradearLogin' && tradingLoggedIn) {
    return redirect(5, routePath('Dashboard'), 'guards.alreadyLinked');
  }
  // 6. Linking required, linked, not logged in to the trading platform.
  if (route.requiresLinking && linked && !tradingLoggedIn) {
    return redirect(6, routePath('TradearLogin'), 'guards.tradingLoginRequired');
  }
  // 7. Logged-out only, with a token.
  if (route.requiresUnauth && token) {
    return redirect(7, routePath('Dashboard'), 'guards.alreadyLoggedIn');
  }
  // 8. Payment required, not paid.
  if (route.requiresPayment && !authorized && !(route.readOnlyWithoutPayment && linked)) {
    return redirect(8, routePath('Payment'), 'guards.paymentRequired');
  }
  // 9. Country unknown: look it up. Only /register has to wait for it (UY goes home);
  // elsewhere the lookup runs in the background (docs/decisions/031).
  const isRegister = input.path.replace(/\/+$/, '') === routePath('Register');
  if (!input.countryCode) {
    return isRegister
      ? { outcome: 'wait', for: 'country' }
      : { outcome: 'allow', lookUpCountry: true };
  }
  if (isRegister && registrationBlockedCountries.includes(input.countryCode)) {
    return redirect(9, routePath('Home'));
  }
  return { outcome: 'allow', lookUpCountry: false };
}
