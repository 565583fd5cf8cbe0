import {
  fillPath,
  supportApiPaths as paths,
  type AdminMessageDetail,
  type AdminMessageFilter,
  type AdminMessages,
} from '@tradebot/contract';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { adminRequest } from './admin-request';

export function useAdminMessages(status: AdminMessageFilter, offset: number) {
  return useQuery({
    queryKey: ['admin', 'messages', status, offset],
    queryFn: async () =>
      (
        await adminRequest<{ data: AdminMessages }>(
          `${paths.adminMessages}?status=${status}&offset=${String(offset)}`,
        )
      ).data,
    placeholderData: keepPreviousData,
    // Due times pass while the inbox is open.
    refetchInterval: 60_000,
  });
}

export function useAdminMessage(id: string) {
  return useQuery({
    queryKey: ['admin', 'message', id],
    queryFn: async () =>
      (await adminRequest<{ data: AdminMessageDetail }>(fillPath(paths.adminMessage, { id }))).data,
  });
}

/** Replies (kept in the thread and e-mailed to the user) or changes the status. */
export function useMessageActions(id: string) {
  const queryClient = useQueryClient();
  const settle = (detail: AdminMessageDetail) => {
    queryClient.setQueryData(['admin', 'message', id], detail);
    void queryClient.invalidateQueries({ queryKey: ['admin', 'messages'] });
  };
  const reply = useMutation({
    mutationFn: async (body: string) =>
      (
        await adminRequest<{ data: AdminMessageDetail }>(
          fillPath(paths.adminMessageReplies, { id }),
          { method: 'POST', body: { body } },
        )
      ).data,
    onSuccess: settle,
  });
  const setStatus = useMutation({
    mutationFn: async (status: 'open' | 'closed') =>
      (
        await adminRequest<{ data: AdminMessageDetail }>(
          fillPath(paths.adminMessageStatus, { id }),
          { method: 'PUT', body: { status } },
        )
      ).data,
    onSuccess: settle,
  });
  return { reply, setStatus };
}
