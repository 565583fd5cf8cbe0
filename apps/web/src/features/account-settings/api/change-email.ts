import { useMutation } from '@tanstack/react-query';
import type { ChangeEmailRequest } from '@tradebot/contract';
import { accountPaths } from '@tradebot/contract/constants';
import { apiRequest } from '../../../lib/api-client';

/**
 * POST /api/v1/account/email (decision 089): a link goes to the new address; the account
 * changes when it is opened. Answers how many hours the link works.
 */
export async function changeEmail(input: ChangeEmailRequest): Promise<number> {
  const body = await apiRequest<{ data: { sent: true; validHours: number } }>(
    `/api/v1${accountPaths.email}`,
    { method: 'POST', body: input },
  );
  return body.data.validHours;
}

export function useChangeEmail() {
  return useMutation({ mutationFn: changeEmail });
}

/** POST /api/v1/account/email/confirm: the link mailed to the new address; answers it. */
export async function confirmEmailChange(token: string): Promise<string> {
  const body = await apiRequest<{ data: { email: string } }>(
    `/api/v1${accountPaths.emailConfirm}`,
    { method: 'POST', body: { token } },
  );
  return body.data.email;
}

export function useConfirmEmailChange() {
  return useMutation({ mutationFn: confirmEmailChange });
}

/** POST /api/v1/account/email/undo: "it was not me", from the old address. */
export async function undoEmailChange(
  token: string,
): Promise<{ restored: boolean; signedOut: number }> {
  const body = await apiRequest<{ data: { restored: boolean; signedOut: number } }>(
    `/api/v1${accountPaths.emailUndo}`,
    { method: 'POST', body: { token } },
  );
  return body.data;
}

export function useUndoEmailChange() {
  return useMutation({ mutationFn: undoEmailChange });
}
