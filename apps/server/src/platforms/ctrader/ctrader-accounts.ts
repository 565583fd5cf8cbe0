import type { CTraderAccount, CTraderEnvironment } from '@tradebot/contract';
import { CTraderClient, CTraderProtocol, CTraderTokenError } from '@tradebot/robot/ctrader';
import type { Config } from '../../config';

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

/** A client of the Open API at `endpoint`, not yet connected. */
export function ctraderClient(endpoint: CTraderEndpoint, requestTimeoutMs: number): CTraderClient {
  return new CTraderClient({
    host: endpoint.host,
    port: endpoint.port,
    tls: endpoint.tls,
    clientId: endpoint.clientId,
    clientSecret: endpoint.clientSecret,
    protocol: ctraderProtocol(),
    requestTimeoutMs,
  });
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
  const client = ctraderClient(endpoint, 10_000);
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

/**
 * The Open API endpoint this server uses (decision 091): CTRADER_HOST, else Spotware's host of
 * CTRADER_ENVIRONMENT. Undefined without the application's credentials: the cTrader choice is
 * shown disabled and linked accounts do not trade.
 */
export function ctraderEndpoint(
  config: Pick<
    Config,
    | 'CTRADER_CLIENT_ID'
    | 'CTRADER_CLIENT_SECRET'
    | 'CTRADER_HOST'
    | 'CTRADER_ENVIRONMENT'
    | 'CTRADER_PORT'
    | 'CTRADER_TLS'
  >,
): CTraderEndpoint | undefined {
  if (!config.CTRADER_CLIENT_ID || !config.CTRADER_CLIENT_SECRET) return undefined;
  return {
    host: config.CTRADER_HOST ?? ctraderHosts[config.CTRADER_ENVIRONMENT],
    port: config.CTRADER_PORT,
    tls: config.CTRADER_TLS,
    clientId: config.CTRADER_CLIENT_ID,
    clientSecret: config.CTRADER_CLIENT_SECRET,
    environment: config.CTRADER_ENVIRONMENT,
  };
}
