import { routePath } from './route-paths';

/** The login page's query parameter naming the page that sent the user there. */
export const returnParameter = 'redirect';

/** Pages a signed-in user cannot see (spec §4, guard 7): never a place to return to. */
const signedOutOnly = ['Login', 'Register', 'ForgotPassword', 'SetPassword'] as const;

/**
 * An in-app path (no language prefix) the login may return to, or null: only a path of this
 * site (one leading slash, no scheme, host or backslash), so the parameter cannot send anyone
 * to another site, and never a signed-out page.
 */
export function safeReturnPath(candidate: string | null | undefined): string | null {
  if (!candidate || candidate.length > 512) return null;
  if (!candidate.startsWith('/') || candidate.startsWith('//')) return null;
  if (/[\\\s]/.test(candidate) || candidate.includes('://')) return null;
  const path = candidate.split(/[?#]/)[0] ?? '';
  if (path === '/' || signedOutOnly.some((name) => path === routePath(name))) return null;
  return candidate;
}

/** The login page, carrying the page to return to after signing in. */
export function loginReturningTo(pathWithSearch: string): string {
  const back = safeReturnPath(pathWithSearch);
  return back === null
    ? routePath('Login')
    : `${routePath('Login')}?${new URLSearchParams({ [returnParameter]: back }).toString()}`;
}

/** Where a successful login goes: the page that sent the user there, else the dashboard. */
export function afterLoginPath(search: URLSearchParams): string {
  return safeReturnPath(search.get(returnParameter)) ?? routePath('Dashboard');
}
