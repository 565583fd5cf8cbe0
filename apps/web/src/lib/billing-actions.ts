import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { BillingOverview } from '@tradebot/contract';
import { billingPaths } from '@tradebot/contract/constants';
import { apiRequest } from './api-client';
import { billingQueryKey } from './billing';

export type BillingAction = 'cancel' | 'resume' | 'refund';

const actionPaths: Record<BillingAction, string> = {
  cancel: billingPaths.cancel,
  resume: billingPaths.resume,
  refund: billingPaths.refund,
};

/** Cancel at period end, keep renewing, or the 7-day refund; answers the billing now. */
export async function runBillingAction(action: BillingAction): Promise<BillingOverview> {
  const body = await apiRequest<{ data: BillingOverview }>(`/api/v1${actionPaths[action]}`, {
    method: 'POST',
  });
  return body.data;
}

export function useBillingAction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: runBillingAction,
    onSuccess: (overview) => {
      queryClient.setQueryData(billingQueryKey, overview);
    },
  });
}

/** The provider's customer portal (Stripe): the browser goes there. */
export async function openPortal(): Promise<string> {
  const body = await apiRequest<{ data: { url: string } }>(`/api/v1${billingPaths.portal}`, {
    method: 'POST',
  });
  return body.data.url;
}

export function useOpenPortal() {
  return useMutation({
    mutationFn: openPortal,
    onSuccess: (url) => {
      window.location.assign(url);
    },
  });
}
