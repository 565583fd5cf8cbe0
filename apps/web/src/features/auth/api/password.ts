import type { Language, SetPasswordRequest } from '@tradebot/contract';
import { apiRequest } from '../../../lib/api-client';

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
const resetEmailKey = 'tradebot.resetEmail';
export const resetEmail = {
  get(): string {
    try {
      return sessionStorage.getItem(resetEmailKey) ?? '';
    } catch {
      return '';
    }
  },
  set(email: string) {
    try {
      sessionStorage.setItem(resetEmailKey, email);
    } catch {
      // Router state still carries it.
    }
  },
  clear() {
    try {
      sessionStorage.removeItem(resetEmailKey);
    } catch {
      // Nothing to clear.
    }
  },
};
