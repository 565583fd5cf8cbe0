import { supportApiPaths as paths, type AdminAuditEntry } from '@tradebot/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { adminRequest } from './admin-request';

export function useAuditLog(offset: number) {
  return useQuery({
    queryKey: ['admin', 'audit-log', offset],
    queryFn: async () =>
      (
        await adminRequest<{ data: { entries: AdminAuditEntry[]; total: number } }>(
          `${paths.adminAuditLog}?offset=${String(offset)}`,
        )
      ).data,
    placeholderData: keepPreviousData,
    // Every action anywhere adds to it: read it afresh each time it is opened.
    staleTime: 0,
  });
}
