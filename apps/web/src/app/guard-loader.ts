import { redirect, type LoaderFunctionArgs } from 'react-router';
import { useAuthStore } from '../stores/auth';
import { useGeoStore } from '../stores/geo';
import { useAppStore } from '../stores/app';
import { evaluateGuards, type GuardDecision, type GuardInput } from './guards';
import type { RouteFlags } from '../lib/route-paths';

function currentInput(route: RouteFlags, path: string): GuardInput {
  const auth = useAuthStore.getState();
  return {
    route,
    path,
    token: auth.token,
    settings: auth.isSettingsLoaded ? 'loaded' : auth.settingsFailed ? 'failed' : 'pending',
    account: auth.userConfig,
    countryCode: useGeoStore.getState().countryCode,
  };
}

/** Evaluates the guards, doing the waits they ask for, until they allow or redirect. */
export async function decide(route: RouteFlags, path: string): Promise<GuardDecision> {
  for (;;) {
    const decision = evaluateGuards(currentInput(route, path));
    if (decision.outcome !== 'wait') return decision;
    if (decision.for === 'settings') await useAuthStore.getState().ensureSettings();
    else await useGeoStore.getState().ensureCountryCode();
  }
}

/**
 * A route loader running the guards on every navigation to the route, the first load
 * included. A redirect shows its message through the overlay.
 */
export function guardLoader(route: RouteFlags) {
  return async ({ request }: LoaderFunctionArgs) => {
    // Without this a brief outage at startup would treat a paid, linked user as neither
    // until the next reload.
    useAuthStore.getState().retryFailedSettings();
    const decision = await decide(route, new URL(request.url).pathname);
    if (decision.outcome === 'redirect') {
      if (decision.message) useAppStore.getState().showMessage({ key: decision.message });
      // eslint-disable-next-line @typescript-eslint/only-throw-error -- react-router's redirect protocol
      throw redirect(decision.to);
    }
    if (decision.outcome === 'allow' && decision.lookUpCountry)
      void useGeoStore.getState().ensureCountryCode();
    return null;
  };
}
