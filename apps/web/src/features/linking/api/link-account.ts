import type { LinkAccountRequest, LinkAccountResponse } from '@tradebot/contract';
import { v1Paths } from '@tradebot/contract/constants';
import { apiRequest } from '../../../lib/api-client';

/**
 * POST link-account: registers at the trading platform with the account's e-mail and the
 * platform password chosen here; answers the platform's e-mail and the starting balance.
 * 409 PLATFORM_EMAIL_TAKEN when the platform already has an account for the e-mail.
 */
export async function linkAccount(input: LinkAccountRequest): Promise<LinkAccountResponse['data']> {
  const body = await apiRequest<LinkAccountResponse>(`/api/v1${v1Paths.linkAccount}`, {
    method: 'POST',
    body: input,
  });
  return body.data;
}

/** The server's code for spec §8 "This email already has an account on the trading platform". */
export const platformEmailTaken = 'PLATFORM_EMAIL_TAKEN';
