import type { CTraderAccount, CTraderEnvironment } from '@tradebot/contract';
import { CTraderClient, CTraderProtocol, CTraderTokenError } from '@tradebot/robot/ctrader';

/** Where the Open API listens, and the application's credentials (decision 091). */
export interface CTraderEndpoint {
  readonly host: string;
  readonly port: number;
  readonly tls: boolean;
  readonly clientId: string;
  readonly clientSecret: string;
  /** The environment this host serves: only its accounts can be authorised here. */
  readonly environment: CTraderEnvironment;
}

/** Spotware's hosts by environment (its documentation's endpoints). */
export const ctraderHosts: Record<CTraderEnvironment, string> = {
  demo: 'demo.ctraderapi.com',
  live: 'live.ctraderapi.com',
};

let protocol: CTraderProtocol | undefined;
/** The official definitions, read once per process (decision 076). */
export function ctraderProtocol(): CTraderProtocol {
  protocol ??= CTraderProtocol.load();
  return protocol;
}

/** The access token was refused by the Open API: expired or revoked. */
export class CTraderAccessRefused extends Error {
  constructor() {
    super('cTrader refused the access token');
    this.name = 'CTraderAccessRefused';
  }
}

const num = (value: unknown): number | undefined => (typeof value === 'number' ? value : undefined);

/**
 * The trading accounts an access token covers (ProtoOAGetAccountListByAccessTokenReq), demo and
 * live, each with its broker, and, for the accounts of this server's environment, their
 * currency and leverage (authorised and read: ProtoOATraderReq, ProtoOAAssetListReq). One
 * connection, closed after.
 */
export async function listCTraderAccounts(
  endpoint: CTraderEndpoint,
  accessToken: string,
): Promise<CTraderAccount[]> {
  const client = new CTraderClient({
    host: endpoint.host,
    port: endpoint.port,
    tls: endpoint.tls,
    clientId: endpoint.clientId,
    clientSecret: endpoint.clientSecret,
    protocol: ctraderProtocol(),
    requestTimeoutMs: 10_000,
  });
  try {
    await client.connect();
    const list = await client.request('ProtoOAGetAccountListByAccessTokenReq', { accessToken });
    const granted = (list.body.ctidTraderAccount as Record<string, unknown>[] | undefined) ?? [];
    const accounts: CTraderAccount[] = [];
    for (const entry of granted) {
      const id = num(entry.ctidTraderAccountId);
      if (id === undefined) continue;
      const live = entry.isLive === true;
      const account: CTraderAccount = {
        ctidTraderAccountId: id,
        live,
        brokerName: typeof entry.brokerTitleShort === 'string' ? entry.brokerTitleShort : '',
        traderLogin: num(entry.traderLogin) ?? 0,
        currency: null,
        leverage: null,
        pickable: live === (endpoint.environment === 'live'),
      };
      if (account.pickable) {
        await client.authorizeAccount(id, accessToken);
        const trader = (await client.request('ProtoOATraderReq', { ctidTraderAccountId: id })).body
          .trader as Record<string, unknown>;
        const leverageInCents = num(trader.leverageInCents);
        account.leverage = leverageInCents === undefined ? null : leverageInCents / 100;
        if (typeof trader.brokerName === 'string' && account.brokerName === '') {
          account.brokerName = trader.brokerName;
        }
        const assets = (await client.request('ProtoOAAssetListReq', { ctidTraderAccountId: id }))
          .body.asset as Record<string, unknown>[] | undefined;
        const deposit = assets?.find((asset) => asset.assetId === trader.depositAssetId);
        account.currency = typeof deposit?.name === 'string' ? deposit.name : null;
        client.forgetAccount(id);
      }
      accounts.push(account);
    }
    return accounts;
  } catch (error) {
    if (error instanceof CTraderTokenError) throw new CTraderAccessRefused();
    throw error;
  } finally {
    client.close();
  }
}
