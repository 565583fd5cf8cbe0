import { useMutation, useQueryClient } from '@tanstack/react-query';
import { fillPath, v1Paths, type CloseOperationResult } from '@tradebot/contract';
import { apiRequest } from '../../../lib/api-client';

/** POST /api/v1/operations/:id/close: the user closes one open operation (decision 152). */
export async function closeOperation(id: string): Promise<CloseOperationResult> {
  const body = await apiRequest<{ data: CloseOperationResult }>(
    `/api/v1${fillPath(v1Paths.closeOperation, { id })}`,
    { method: 'POST' },
  );
  return body.data;
}

export function useCloseOperation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: closeOperation,
    // Its row moves from the open operations to the history, whatever the answer said
    // (a 409 means it closed otherwise meanwhile).
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['trading'] }),
  });
}
