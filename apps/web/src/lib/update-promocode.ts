import type { Language, updatePromocodeResponseSchema } from '@tradebot/contract';
import type { z } from 'zod';
import { apiRequest } from './api-client';

export type AppliedPromocode = z.infer<typeof updatePromocodeResponseSchema>['data'];

/**
 * PUT /api/v1/update-promocode (spec §7): applies a code to the signed-in user; a free-month
 * code starts the month at once (`trialEndsAt`).
 */
export async function updatePromocode(
  promocode: string,
  language: Language,
): Promise<AppliedPromocode> {
  const body = await apiRequest<{ data: AppliedPromocode }>('/api/v1/update-promocode', {
    method: 'PUT',
    body: { promocode, language },
  });
  return body.data;
}
