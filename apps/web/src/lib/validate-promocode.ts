import type { ValidatePromocodeResponse } from '@tradebot/contract';
import { apiRequest } from './api-client';

/** POST /api/v1/validate-promocode → { valid, benefit }. */
export async function validatePromocode(
  promocode: string,
  signal?: AbortSignal,
): Promise<ValidatePromocodeResponse['data']> {
  const body = await apiRequest<ValidatePromocodeResponse>('/api/v1/validate-promocode', {
    method: 'POST',
    body: { promocode },
    ...(signal ? { signal } : {}),
  });
  return body.data;
}
