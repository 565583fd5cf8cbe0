/**
 * Named routes (spec §2: the guards send users to Dashboard, LinkAccount, TradearLogin and
 * Payment). The trading-platform login lives at /trading-platform-login (docs/decisions/030).
 */
export const routePaths = {
  Home: '/',
  Login: '/login',
  Register: '/register',
  Dashboard: '/dashboard',
  LinkAccount: '/link-account',
  TradearLogin: '/trading-platform-login',
  Payment: '/payment',
  ForgotPassword: '/forgot-password',
  SetPassword: '/set-password',
  AccountSettings: '/account-settings',
} as const;
export type RouteName = keyof typeof routePaths;

export function routePath(name: RouteName): string {
  return routePaths[name];
}

/** spec §6: the flags a route carries (route `handle` and guard input). */
export interface RouteFlags {
  name?: RouteName;
  requiresAuth?: boolean;
  requiresUnauth?: boolean;
  requiresUnlinked?: boolean;
  requiresLinking?: boolean;
  requiresPayment?: boolean;
  /**
   * Rule 8's one exception (docs/decisions/063): a linked user whose access ended still opens
   * this page, read-only, to see their open operations and close them all.
   */
  readOnlyWithoutPayment?: boolean;
}
