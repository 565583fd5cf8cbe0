import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ChangePasswordRequest } from '@tradebot/contract';
import { accountPaths } from '@tradebot/contract/constants';
import { apiRequest } from '../../../lib/api-client';
import { accountSessionsKey } from './sessions';

/** POST /api/v1/account/password: every other session ends; answers how many. */
export async function changePassword(input: ChangePasswordRequest): Promise<number> {
  const body = await apiRequest<{ data: { signedOut: number } }>(
    `/api/v1${accountPaths.password}`,
    { method: 'POST', body: input },
  );
  return body.data.signedOut;
}

export function useChangePassword() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: changePassword,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: accountSessionsKey }),
  });
}
