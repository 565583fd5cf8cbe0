import type { CheckoutStatus } from '@tradebot/contract';
import { billingPaths } from '@tradebot/contract/constants';
import { apiRequest } from '../../../lib/api-client';

/** What the return page polls: paid once the provider's signed event has been applied. */
export async function getCheckoutStatus(sessionId: string): Promise<CheckoutStatus> {
  const body = await apiRequest<{ data: CheckoutStatus }>(
    `/api/v1${billingPaths.checkoutStatus}/${encodeURIComponent(sessionId)}`,
  );
  return body.data;
}
