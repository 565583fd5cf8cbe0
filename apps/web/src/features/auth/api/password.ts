import type { Language, SetPasswordRequest } from '@tradebot/contract';
import { apiRequest } from '../../../lib/api-client';
import { storedItem } from '../../../lib/storage';

/** POST /api/v1/forgot-password: the same answer whether or not the e-mail has an account. */
export async function forgotPassword(input: { email: string; language: Language }) {
  await apiRequest('/api/v1/forgot-password', { method: 'POST', body: input });
}

/** POST /api/v1/set-password with the e-mail the code went to (contract addition). */
export async function setPassword(input: SetPasswordRequest) {
  await apiRequest('/api/v1/set-password', { method: 'POST', body: input });
}

/**
 * The e-mail carried from Forgot password to Set password: sessionStorage, so it survives
 * a reload of the tab but never joins the spec's localStorage keys.
 */
export const resetEmail = storedItem('session', 'tradebot.resetEmail');
