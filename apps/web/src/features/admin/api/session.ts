import {
  supportApiPaths as paths,
  type AdminLoginRequest,
  type AdminSession,
} from '@tradebot/contract';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { adminSession } from '../admin-session';
// The sign-in's own calls go round adminRequest: a wrong code must not end the half-open session.
import { adminQueryClient, adminRequest, v1 } from './admin-request';

/** First step: e-mail and password give a token that waits for its TOTP code. */
export async function adminLogin(input: AdminLoginRequest): Promise<string> {
  const body = await apiRequest<{ data: { token: string } }>(`${v1}${paths.adminLogin}`, {
    method: 'POST',
    body: input,
    token: null,
  });
  return body.data.token;
}

/**
 * Second step: the six-digit code of the authenticator app. Only then is the token the
 * console's session.
 */
export async function adminSecondFactor(token: string, code: string): Promise<AdminSession> {
  const body = await apiRequest<{ data: AdminSession }>(`${v1}${paths.adminSecondFactor}`, {
    method: 'POST',
    body: { code },
    token,
  });
  adminQueryClient.clear();
  adminSession.set(token);
  return body.data;
}

/** Ends the session on the server (audited), and here whatever the server says. */
export async function adminLogout(): Promise<void> {
  try {
    await adminRequest(paths.adminLogout, { method: 'POST' });
  } finally {
    adminSession.clear();
    adminQueryClient.clear();
  }
}

export function useAdminMe(enabled: boolean) {
  return useQuery({
    queryKey: ['admin', 'me'],
    queryFn: async () => (await adminRequest<{ data: AdminSession }>(paths.adminMe)).data,
    enabled,
  });
}
