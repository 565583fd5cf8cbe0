import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AccountSession } from '@tradebot/contract';
import { accountPaths, fillPath } from '@tradebot/contract/constants';
import { apiRequest } from '../../../lib/api-client';

export const accountSessionsKey = ['account', 'sessions'] as const;

/** GET /api/v1/account/sessions: this session first, then by last use. */
export async function getSessions(): Promise<AccountSession[]> {
  const body = await apiRequest<{ data: AccountSession[] }>(`/api/v1${accountPaths.sessions}`);
  return body.data;
}

export function useSessions() {
  return useQuery({ queryKey: accountSessionsKey, queryFn: getSessions, staleTime: 0 });
}

/** POST …/sessions/:id/sign-out, or …/sessions/sign-out-others without an id. */
export async function signOut(sessionId: string | null): Promise<number> {
  const path =
    sessionId === null
      ? accountPaths.signOutOthers
      : fillPath(accountPaths.signOutSession, { id: sessionId });
  const body = await apiRequest<{ data: { signedOut: number } }>(`/api/v1${path}`, {
    method: 'POST',
  });
  return body.data.signedOut;
}

export function useSignOut() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: signOut,
    onSettled: () => queryClient.invalidateQueries({ queryKey: accountSessionsKey }),
  });
}
