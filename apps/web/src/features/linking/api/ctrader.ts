import type {
  CTraderAccount,
  CTraderAuthorizeResponse,
  CTraderCallbackResponse,
  CTraderLinkResponse,
  CTraderStatusResponse,
} from '@tradebot/contract';
import { ctraderPaths } from '@tradebot/contract/constants';
import { apiRequest } from '../../../lib/api-client';

/** Linking a cTrader broker through Spotware's OAuth2 (decision 091). */
export async function ctraderStatus(): Promise<CTraderStatusResponse['data']> {
  return (await apiRequest<CTraderStatusResponse>(`/api/v1${ctraderPaths.status}`)).data;
}

/** Where to send the browser: cTrader ID's granting page, with a state of ours. */
export async function ctraderAuthorize(): Promise<string> {
  const body = await apiRequest<CTraderAuthorizeResponse>(`/api/v1${ctraderPaths.authorize}`, {
    method: 'POST',
    body: {},
  });
  return body.data.authorizeUrl;
}

/** The code and state cTrader sent back; answers the accounts granted. */
export async function ctraderCallback(input: {
  code: string;
  state: string;
}): Promise<CTraderAccount[]> {
  const body = await apiRequest<CTraderCallbackResponse>(`/api/v1${ctraderPaths.callback}`, {
    method: 'POST',
    body: input,
  });
  return body.data.accounts;
}

export async function ctraderLink(ctidTraderAccountId: number): Promise<CTraderAccount> {
  const body = await apiRequest<CTraderLinkResponse>(`/api/v1${ctraderPaths.link}`, {
    method: 'POST',
    body: { ctidTraderAccountId },
  });
  return body.data.account;
}
