import { describe, expect, it } from 'vitest';
import { CTraderClient } from './client';
import type { DecodedMessage, MessageBody } from './protocol';

/**
 * Against Spotware's real demo environment, only when credentials are in the environment
 * (README, "cTrader demo smoke test"). Reads only: it sends no order.
 */
const clientId = process.env.CTRADER_DEMO_CLIENT_ID;
const clientSecret = process.env.CTRADER_DEMO_CLIENT_SECRET;
const accessToken = process.env.CTRADER_DEMO_ACCESS_TOKEN;
const configured = Boolean(clientId && clientSecret && accessToken);

if (!configured) {
  console.info(
    'cTrader demo smoke test skipped: set CTRADER_DEMO_CLIENT_ID, CTRADER_DEMO_CLIENT_SECRET and CTRADER_DEMO_ACCESS_TOKEN to run it (README).',
  );
}

describe.skipIf(!configured)('cTrader demo environment (smoke)', () => {
  it('authorises, lists the accounts, reads one and receives a spot price', async () => {
    const client = new CTraderClient({
      host: 'demo.ctraderapi.com',
      port: 5035,
      tls: true,
      clientId: clientId ?? '',
      clientSecret: clientSecret ?? '',
    });
    try {
      await client.connect();
      const list = await client.request('ProtoOAGetAccountListByAccessTokenReq', { accessToken });
      const accounts = (list.body.ctidTraderAccount as MessageBody[] | undefined) ?? [];
      const demo = accounts.find((account) => account.isLive !== true);
      expect(demo, 'the token holds no demo account').toBeDefined();
      const id = Number(demo?.ctidTraderAccountId);
      await client.authorizeAccount(id, accessToken ?? '');
      const trader = await client.request('ProtoOATraderReq', { ctidTraderAccountId: id });
      expect(trader.body.trader).toHaveProperty('balance');
      const symbols = await client.request('ProtoOASymbolsListReq', { ctidTraderAccountId: id });
      const first = ((symbols.body.symbol as MessageBody[] | undefined) ?? [])[0];
      expect(first, 'the account lists no symbol').toBeDefined();
      const spot = new Promise<DecodedMessage>((resolve) => {
        const stop = client.onEvent((message) => {
          if (message.name !== 'ProtoOASpotEvent') return;
          stop();
          resolve(message);
        });
      });
      await client.subscribeSpots(id, [Number(first?.symbolId)]);
      const price = await spot;
      expect(Number(price.body.bid ?? price.body.ask)).toBeGreaterThan(0);
    } finally {
      client.close();
    }
  }, 60_000);
});
