import type {
  ConfirmRegistrationRequest,
  ConfirmRegistrationResponse,
  RegisterRequest,
  RegisterResponse,
} from '@tradebot/contract';
import { apiRequest } from '../../../lib/api-client';
import { storedItem } from '../../../lib/storage';

/**
 * POST /api/v1/register: 202, the same whether or not the e-mail has an account; a link is
 * e-mailed (decision 085). Resolves with this browser's nonce.
 */
export async function register(input: RegisterRequest): Promise<string> {
  const body = await apiRequest<RegisterResponse>('/api/v1/register', {
    method: 'POST',
    body: input,
  });
  return body.data.nonce;
}

/** POST /api/v1/register/confirm: creates the account and answers its session token. */
export async function confirmRegistration(
  input: ConfirmRegistrationRequest,
): Promise<ConfirmRegistrationResponse['data']> {
  const body = await apiRequest<ConfirmRegistrationResponse>('/api/v1/register/confirm', {
    method: 'POST',
    body: input,
  });
  return body.data;
}

/**
 * The nonce of this browser's last registration: localStorage, so the link opened in a new tab
 * of the same browser finds it; it never joins the spec's storage keys.
 */
export const registrationNonce = storedItem('local', 'tradebot.registrationNonce');
