import { redirect, type LoaderFunctionArgs } from 'react-router';
import { useAuthStore } from '../stores/auth';
import { useGeoStore } from '../stores/geo';
import { useAppStore } from '../stores/app';
import { evaluateGuards, type GuardDecision, type GuardInput } from './guards';
import { splitLanguagePath } from '../lib/language-url';
import type { RouteFlags } from '../lib/route-paths';

function currentInput(route: RouteFlags, path: string, search: string): GuardInput {
  const auth = useAuthStore.getState();
  return {
    route,
    path,
    search,
    token: auth.token,
    settings: auth.isSettingsLoaded ? 'loaded' : auth.settingsFailed ? 'failed' : 'pending',
    account: auth.userConfig,
    countryCode: useGeoStore.getState().countryCode,
  };
}

/** Evaluates the guards, doing the waits they ask for, until they allow or redirect. */
export async function decide(route: RouteFlags, path: string, search = ''): Promise<GuardDecision> {
  for (;;) {
    const decision = evaluateGuards(currentInput(route, path, search));
    if (decision.outcome !== 'wait') return decision;
    if (decision.for === 'settings') await useAuthStore.getState().ensureSettings();
    else await useGeoStore.getState().ensureCountryCode();
  }
}

/**
 * Runs the guards for `path` (an in-app path, without the language prefix): null when the
 * route may show, else where to go. A redirect's message goes to the overlay.
 */
export async function runGuards(
  route: RouteFlags,
  path: string,
  search = '',
): Promise<string | null> {
  // Without this a brief outage at startup would treat a paid, linked user as neither
  // until the next reload.
  useAuthStore.getState().retryFailedSettings();
  const decision = await decide(route, path, search);
  // A stored session the server refused: say that it ended, rather than sign out silently.
  const ended = useAuthStore.getState().takeSessionEnded();
  if (decision.outcome === 'redirect') {
    const message =
      ended && decision.message === 'guards.loginRequired'
        ? 'guards.sessionEnded'
        : decision.message;
    if (message) useAppStore.getState().showMessage({ key: message });
    return decision.to;
  }
  if (ended) useAppStore.getState().showMessage({ key: 'guards.sessionEnded' });
  if (decision.outcome === 'allow' && decision.lookUpCountry)
    void useGeoStore.getState().ensureCountryCode();
  return null;
}

/**
 * A route loader running the guards on every navigation to the route, the first load
 * included (a prerendered page runs them before it hydrates: main.tsx).
 */
export function guardLoader(route: RouteFlags) {
  return async ({ request }: LoaderFunctionArgs) => {
    const url = new URL(request.url);
    const target = await runGuards(route, splitLanguagePath(url.pathname).path, url.search);
    // eslint-disable-next-line @typescript-eslint/only-throw-error -- react-router's redirect protocol
    if (target !== null) throw redirect(target);
    return null;
  };
}
