import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AccountDetails, UpdatePhoneRequest } from '@tradebot/contract';
import { accountPaths } from '@tradebot/contract/constants';
import { apiRequest } from '../../../lib/api-client';

export const accountDetailsKey = ['account', 'details'] as const;

/** GET /api/v1/account: name, e-mail, phone and language. */
export async function getAccountDetails(): Promise<AccountDetails> {
  const body = await apiRequest<{ data: AccountDetails }>(`/api/v1${accountPaths.details}`);
  return body.data;
}

export function useAccountDetails() {
  return useQuery({ queryKey: accountDetailsKey, queryFn: getAccountDetails });
}

/** PUT /api/v1/account/phone: an empty phone removes it; answers what is stored. */
export async function updatePhone(input: UpdatePhoneRequest): Promise<string | null> {
  const body = await apiRequest<{ data: { phone: string | null } }>(
    `/api/v1${accountPaths.phone}`,
    { method: 'PUT', body: input },
  );
  return body.data.phone;
}

export function useUpdatePhone() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updatePhone,
    onSuccess: (phone) => {
      queryClient.setQueryData<AccountDetails>(accountDetailsKey, (current) =>
        current ? { ...current, phone } : current,
      );
    },
  });
}
