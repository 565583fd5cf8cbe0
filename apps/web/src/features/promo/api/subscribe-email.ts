import type { EmailSubscriptionResponse } from '@tradebot/contract';
import { apiRequest } from '../../../lib/api-client';

/** POST /api/v1/email-subscription: 201 subscribed, for a new and a known address alike. */
export async function subscribeEmail(input: {
  email: string;
  promo: string | null;
}): Promise<EmailSubscriptionResponse['data']['status']> {
  const body = await apiRequest<EmailSubscriptionResponse>('/api/v1/email-subscription', {
    method: 'POST',
    body: input,
  });
  return body.data.status;
}
