import type { BillingOverview, CheckoutSession, PlanId } from '@tradebot/contract';
import { billingPaths } from '@tradebot/contract/constants';
import { apiRequest } from './api-client';
import { getSettings } from './get-settings';
import { normalizeUserConfig } from './user-config';
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
 * refund), so that the guards see it at once.
 */
export async function reloadUserConfig(): Promise<void> {
  const config = normalizeUserConfig(await getSettings());
  useAuthStore.getState().setUserConfig(config);
}
