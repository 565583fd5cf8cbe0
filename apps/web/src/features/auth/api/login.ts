import type { LoginRequest, TokenResponse } from '@tradebot/contract';
import { apiRequest } from '../../../lib/api-client';

/** spec §7: POST /api/v1/login; data.data.token is stored. */
export async function login(input: LoginRequest): Promise<string> {
  const body = await apiRequest<TokenResponse>('/api/v1/login', { method: 'POST', body: input });
  return body.data.token;
}
