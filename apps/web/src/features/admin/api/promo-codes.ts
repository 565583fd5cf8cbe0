import {
  fillPath,
  supportApiPaths as paths,
  type AdminCreatePromoCodeRequest,
  type AdminPromoCode,
  type AdminPromoCodeUse,
} from '@tradebot/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { adminRequest } from './admin-request';

export interface PromoCodeUses {
  uses: number;
  history: AdminPromoCodeUse[];
}

export function usePromoCodes() {
  return useQuery({
    queryKey: ['admin', 'promo-codes'],
    queryFn: async () =>
      (await adminRequest<{ data: { promoCodes: AdminPromoCode[] } }>(paths.adminPromoCodes)).data
        .promoCodes,
  });
}

export function usePromoCodeUses(code: string | null) {
  return useQuery({
    queryKey: ['admin', 'promo-code-uses', code],
    queryFn: async () =>
      (
        await adminRequest<{ data: PromoCodeUses }>(
          fillPath(paths.adminPromoCodeUses, { code: code ?? '' }),
        )
      ).data,
    enabled: code !== null,
  });
}

export async function createPromoCode(input: AdminCreatePromoCodeRequest): Promise<AdminPromoCode> {
  return (
    await adminRequest<{ data: AdminPromoCode }>(paths.adminPromoCodes, {
      method: 'POST',
      body: input,
    })
  ).data;
}

export function useRetirePromoCode() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (code: string) =>
      (
        await adminRequest<{ data: AdminPromoCode }>(
          fillPath(paths.adminPromoCodeRetire, { code }),
          {
            method: 'POST',
          },
        )
      ).data,
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['admin', 'promo-codes'] }),
  });
}
