import { supportApiPaths as paths, type AdminSystem } from '@tradebot/contract';
import { useQuery } from '@tanstack/react-query';
import { adminRequest } from './admin-request';

/** How often the open page reads the processes again (they report every 15 s). */
const refreshMs = 15_000;

export function useSystem() {
  return useQuery({
    queryKey: ['admin', 'system'],
    queryFn: async () => (await adminRequest<{ data: AdminSystem }>(paths.adminSystem)).data,
    staleTime: 0,
    refetchInterval: refreshMs,
  });
}
