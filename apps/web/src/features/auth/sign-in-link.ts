import { storedItem } from '../../lib/storage';

/** The query parameter of the link a sign-in alert e-mail carries (decision 130). */
export const signInTokenParameter = 'sign_in_token';

/**
 * The one-time sign-in link's token, held in this tab's sessionStorage from the moment the
 * login page opens with it: the address bar (and so history, bookmarks, a shared screen and
 * the Referer of any later request) no longer shows it, and a reload keeps it.
 */
const heldToken = storedItem('session', 'tradebot.signInToken');

/**
 * Moves the link's token from the query to sessionStorage. Returns the query without it, to
 * replace the address with, or undefined when the query carries none.
 */
export function takeSignInToken(search: URLSearchParams): URLSearchParams | undefined {
  const token = search.get(signInTokenParameter);
  if (token === null) return undefined;
  if (token !== '') heldToken.set(token);
  const rest = new URLSearchParams(search);
  rest.delete(signInTokenParameter);
  return rest;
}

/** The token held for the next sign-in, if any. */
export function heldSignInToken(): string | undefined {
  return heldToken.get() ?? undefined;
}

/** Forgets the token: used by a sign-in, or refused as unknown, used or expired. */
export function dropSignInToken(): void {
  heldToken.clear();
}
