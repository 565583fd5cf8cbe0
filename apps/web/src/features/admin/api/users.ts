import {
  fillPath,
  supportApiPaths as paths,
  type AdminUserDetail,
  type AdminUserSummary,
} from '@tradebot/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { adminRequest } from './admin-request';

export function useUserSearch(query: string) {
  return useQuery({
    queryKey: ['admin', 'users', query],
    queryFn: async () =>
      (
        await adminRequest<{ data: { users: AdminUserSummary[]; more: boolean } }>(
          `${paths.adminUsers}?q=${encodeURIComponent(query)}`,
        )
      ).data,
    enabled: query.length >= 2,
  });
}

export function useAdminUser(id: string) {
  return useQuery({
    queryKey: ['admin', 'user', id],
    queryFn: async () =>
      (await adminRequest<{ data: AdminUserDetail }>(fillPath(paths.adminUser, { id }))).data,
  });
}

/** The user's kill switch, pulled by support. */
export function useKillUserRobot(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () =>
      (
        await adminRequest<{ data: { bot_on: false; closed: number } }>(
          fillPath(paths.adminUserRobotKill, { id }),
          { method: 'POST' },
        )
      ).data,
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['admin', 'user', id] }),
  });
}

/**
 * The 30-day guarantee honoured by support (decision 048): the first payment refunded, access
 * ended. Answers with the user as the console now sees them.
 */
export function useGuaranteeRefund(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () =>
      (
        await adminRequest<{ data: AdminUserDetail }>(
          fillPath(paths.adminUserGuaranteeRefund, { id }),
          { method: 'POST' },
        )
      ).data,
    onSuccess: (detail) => {
      queryClient.setQueryData(['admin', 'user', id], detail);
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['admin', 'user', id] }),
  });
}
