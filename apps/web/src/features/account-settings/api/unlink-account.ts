import { useMutation } from '@tanstack/react-query';
import type { UnlinkAccountRequest, UnlinkAccountResponse } from '@tradebot/contract';
import { v1Paths } from '@tradebot/contract/constants';
import { apiRequest } from '../../../lib/api-client';

/** POST /api/v1/unlink-account (decision 091): the password confirms. */
export async function unlinkAccount(
  input: UnlinkAccountRequest,
): Promise<UnlinkAccountResponse['data']> {
  const body = await apiRequest<UnlinkAccountResponse>(`/api/v1${v1Paths.unlinkAccount}`, {
    method: 'POST',
    body: input,
  });
  return body.data;
}

export function useUnlinkAccount() {
  return useMutation({ mutationFn: unlinkAccount });
}
