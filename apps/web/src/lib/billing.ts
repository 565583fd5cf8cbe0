import { queryOptions } from '@tanstack/react-query';
import type { BillingOverview, CheckoutSession, PlanId } from '@tradebot/contract';
import { billingPaths } from '@tradebot/contract/constants';
import { apiRequest } from './api-client';
import { useAuthStore } from '../stores/auth';

/** Billing (issue 10): what the payment page and the profile's billing section read. */
export const billingQueryKey = ['billing'] as const;

export async function getBilling(): Promise<BillingOverview> {
  const body = await apiRequest<{ data: BillingOverview }>(`/api/v1${billingPaths.overview}`);
  return body.data;
}

/** Opens the provider's checkout for a plan: the browser goes there to pay. */
export async function startCheckout(plan: PlanId): Promise<CheckoutSession> {
  const body = await apiRequest<{ data: CheckoutSession }>(`/api/v1${billingPaths.checkout}`, {
    method: 'POST',
    body: { plan },
  });
  return body.data;
}

/**
 * Reads the user config again after billing changed `authorized` (a payment confirmed, a
 * refund), so that the guards see it at once. The auth store stays the config's one home: the
 * router's guards read it in their loaders, outside React, and the session fills it at sign-in.
 */
export function reloadUserConfig(): Promise<void> {
  return useAuthStore.getState().refreshSettings();
}

/**
 * The same reload as server state, for a screen that learns `authorized` from the server
 * (decision 090 addendum): a query keyed by the value the session must come to hold, run while
 * the session's config says otherwise (`known`); its result is written to the auth store by the
 * store's own refresh, the one place that writes it. Never fresh: a value seen before is read
 * again, since the store may have moved on since.
 */
export function userConfigReloadQuery(authorized: boolean | undefined, known: boolean | undefined) {
  return queryOptions({
    queryKey: ['user-config', { authorized }] as const,
    queryFn: async () => {
      await reloadUserConfig();
      return useAuthStore.getState().userConfig;
    },
    enabled: authorized !== undefined && known !== undefined && authorized !== known,
    staleTime: 0,
  });
}
