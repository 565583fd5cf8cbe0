import { useMutation } from '@tanstack/react-query';
import type { DeleteAccountRequest } from '@tradebot/contract';
import { accountPaths } from '@tradebot/contract/constants';
import { apiRequest } from '../../../lib/api-client';

/** POST /api/v1/account/delete: the password confirms; every session ends with the account. */
export async function deleteAccount(input: DeleteAccountRequest): Promise<void> {
  await apiRequest(`/api/v1${accountPaths.delete}`, { method: 'POST', body: input });
}

export function useDeleteAccount() {
  return useMutation({ mutationFn: deleteAccount });
}
