import type { RegisterRequest, TokenResponse } from '@tradebot/contract';
import { apiRequest } from '../../../lib/api-client';

/** POST /api/v1/register: 201 with a token, the user is logged in at once. */
export async function register(input: RegisterRequest): Promise<string> {
  const body = await apiRequest<TokenResponse>('/api/v1/register', { method: 'POST', body: input });
  return body.data.token;
}
