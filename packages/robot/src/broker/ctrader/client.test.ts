import { afterEach, describe, expect, it } from 'vitest';
import { CTraderClient, type CTraderClientOptions, type StateChange } from './client';
import {
  CTraderApplicationAuthError,
  CTraderConnectionError,
  CTraderMarketClosedError,
  CTraderOrderRejectedError,
  CTraderRateLimitError,
  CTraderTokenError,
} from './errors';
import {
  FakeCTraderServer,
  type FakeCTraderOptions,
} from '../../../test-support/ctrader-fake/fake-ctrader-server';
import {
  DEMO_ACCOUNT,
  EURUSD,
  FAKE_APP,
  fakeOptions,
} from '../../../test-support/ctrader-fake/fixtures';
import { until } from '../../../test-support/ctrader-fake/harness';
import type { DecodedMessage } from './protocol';
import { CTraderProtocol } from './protocol';

const protocol = CTraderProtocol.load();
const ACCOUNT = DEMO_ACCOUNT.ctidTraderAccountId;
const cleanups: (() => unknown)[] = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function start(
  fake: Partial<FakeCTraderOptions> = {},
  client: Partial<CTraderClientOptions> = {},
): Promise<{ server: FakeCTraderServer; client: CTraderClient }> {
  const server = new FakeCTraderServer({ ...fakeOptions(fake), protocol });
  const port = await server.listen();
  cleanups.push(() => server.close());
  const c = new CTraderClient({
    host: '127.0.0.1',
    port,
    tls: false,
    ...FAKE_APP,
    protocol,
    backoffInitialMs: 20,
    backoffMaxMs: 200,
    ...client,
  });
  cleanups.push(() => {
    c.close();
  });
  return { server, client: c };
}

function next<T>(
  subscribe: (listener: (value: T) => void) => () => void,
  test: (value: T) => boolean,
): Promise<T> {
  return new Promise((resolve) => {
    const stop = subscribe((value) => {
      if (!test(value)) return;
      stop();
      resolve(value);
    });
  });
}

describe('cTrader client against the local fake', () => {
  it('authorises the application, lists accounts by token, authorises one and reads its data', async () => {
    const { client } = await start();
    await client.connect();
    expect(client.state).toBe('ready');
    const accounts = await client.request('ProtoOAGetAccountListByAccessTokenReq', {
      accessToken: DEMO_ACCOUNT.accessToken,
    });
    expect(accounts.body.ctidTraderAccount).toEqual([
      {
        ctidTraderAccountId: ACCOUNT,
        isLive: false,
        traderLogin: DEMO_ACCOUNT.traderLogin,
        brokerTitleShort: 'Fake Markets',
      },
    ]);
    await client.authorizeAccount(ACCOUNT, DEMO_ACCOUNT.accessToken);
    const trader = await client.request('ProtoOATraderReq', { ctidTraderAccountId: ACCOUNT });
    expect(trader.body.trader).toMatchObject({
      balance: 1_000_000,
      moneyDigits: 2,
      leverageInCents: 10_000,
    });
    const symbols = await client.request('ProtoOASymbolByIdReq', {
      ctidTraderAccountId: ACCOUNT,
      symbolId: [EURUSD.symbolId],
    });
    expect(symbols.body.symbol).toEqual([
      expect.objectContaining({ symbolId: 1, digits: 5, pipPosition: 4, minVolume: 100_000 }),
    ]);
  });

  it('turns the API errors into typed errors', async () => {
    const wrongApp = await start({}, { clientSecret: 'wrong' });
    await expect(wrongApp.client.connect()).rejects.toBeInstanceOf(CTraderApplicationAuthError);

    const { client, server } = await start();
    await client.connect();
    await expect(client.authorizeAccount(ACCOUNT, 'not-the-token')).rejects.toMatchObject({
      constructor: CTraderTokenError,
      code: 'CH_ACCESS_TOKEN_INVALID',
    });
    await client.authorizeAccount(ACCOUNT, DEMO_ACCOUNT.accessToken);
    const order = {
      ctidTraderAccountId: ACCOUNT,
      symbolId: EURUSD.symbolId,
      orderType: 'MARKET',
      tradeSide: 'BUY',
      volume: 150_000, // not a multiple of the step
    };
    await expect(client.request('ProtoOANewOrderReq', order)).rejects.toMatchObject({
      constructor: CTraderOrderRejectedError,
      code: 'TRADING_BAD_VOLUME',
    });
    server.setMarketOpen(false);
    await expect(
      client.request('ProtoOANewOrderReq', { ...order, volume: 100_000 }),
    ).rejects.toBeInstanceOf(CTraderMarketClosedError);
  });

  it('streams spots and tells when a token expires', async () => {
    const { client, server } = await start();
    await client.connect();
    await client.authorizeAccount(ACCOUNT, DEMO_ACCOUNT.accessToken);
    const spots: DecodedMessage[] = [];
    client.onEvent((message) => {
      if (message.name === 'ProtoOASpotEvent') spots.push(message);
    });
    const moved = next<DecodedMessage>(
      (l) => client.onEvent(l),
      (m) => m.name === 'ProtoOASpotEvent' && m.body.bid === 108_600,
    );
    await client.subscribeSpots(ACCOUNT, [EURUSD.symbolId]);
    server.setPrice(EURUSD.symbolId, 1.086, 1.08612);
    await moved;
    expect(spots.map((s) => [s.body.bid, s.body.ask])).toEqual([
      [108_500, 108_512],
      [108_600, 108_612],
    ]);

    const invalidated = next<DecodedMessage>(
      (l) => client.onEvent(l),
      (m) => m.name === 'ProtoOAAccountsTokenInvalidatedEvent',
    );
    server.expireToken(DEMO_ACCOUNT.accessToken);
    expect((await invalidated).body.ctidTraderAccountIds).toEqual([ACCOUNT]);
    await expect(
      client.request('ProtoOATraderReq', { ctidTraderAccountId: ACCOUNT }),
    ).rejects.toBeInstanceOf(CTraderTokenError);
  });

  it('queues requests to stay within the rate limit instead of being refused', async () => {
    const limit = 5;
    const { client } = await start({ requestsPerSecond: limit }, { requestsPerSecond: limit });
    await client.connect(); // one request (application auth) already counts
    await client.authorizeAccount(ACCOUNT, DEMO_ACCOUNT.accessToken);
    const started = performance.now();
    const answers = await Promise.all(
      Array.from({ length: 8 }, () =>
        client.request('ProtoOATraderReq', { ctidTraderAccountId: ACCOUNT }),
      ),
    );
    expect(answers).toHaveLength(8);
    // Ten requests at five a second: the last ones waited for the window to move.
    expect(performance.now() - started).toBeGreaterThanOrEqual(900);
  });

  it('counts historical requests apart, as the server does: five a second beside the fifty', async () => {
    const { client } = await start({}, {});
    await client.connect();
    await client.authorizeAccount(ACCOUNT, DEMO_ACCOUNT.accessToken);
    const started = performance.now();
    const window = { ctidTraderAccountId: ACCOUNT, fromTimestamp: 0, toTimestamp: Date.now() };
    const answers = await Promise.all([
      ...Array.from({ length: 7 }, () => client.request('ProtoOADealListReq', window)),
      ...Array.from({ length: 45 }, () =>
        client.request('ProtoOATraderReq', { ctidTraderAccountId: ACCOUNT }),
      ),
    ]);
    expect(answers).toHaveLength(52);
    // Seven at five a second: the last two waited for the window to move; none was refused.
    expect(performance.now() - started).toBeGreaterThanOrEqual(900);
  });

  it('is refused by the server when it ignores the historical limit', async () => {
    const { client } = await start({}, { historicalRequestsPerSecond: 10 });
    await client.connect();
    await client.authorizeAccount(ACCOUNT, DEMO_ACCOUNT.accessToken);
    const window = { ctidTraderAccountId: ACCOUNT, fromTimestamp: 0, toTimestamp: Date.now() };
    const results = await Promise.allSettled(
      Array.from({ length: 7 }, () => client.request('ProtoOADealListReq', window)),
    );
    expect(results.filter((r) => r.status === 'rejected').length).toBeGreaterThan(0);
  });

  it('is refused by the server when it ignores the limit (the fake enforces it)', async () => {
    const { client } = await start({ requestsPerSecond: 5 }, { requestsPerSecond: 50 });
    await client.connect();
    await client.authorizeAccount(ACCOUNT, DEMO_ACCOUNT.accessToken);
    const results = await Promise.allSettled(
      Array.from({ length: 8 }, () =>
        client.request('ProtoOATraderReq', { ctidTraderAccountId: ACCOUNT }),
      ),
    );
    const refused: unknown[] = results.flatMap((r) =>
      r.status === 'rejected' ? [r.reason as unknown] : [],
    );
    expect(refused.length).toBeGreaterThan(0);
    expect(refused[0]).toBeInstanceOf(CTraderRateLimitError);
  });

  it('sends heartbeats while idle', async () => {
    const { client, server } = await start(
      { heartbeatIntervalMs: 20 },
      { heartbeatIntervalMs: 20 },
    );
    await client.connect();
    await until(() => server.heartbeatsReceived >= 3, 'three heartbeats');
    expect(client.state).toBe('ready');
  });

  it('keeps a quiet connection that answers its probe', async () => {
    // The fake sends no heartbeat of its own: only the probe's answer shows it is alive.
    const { client, server } = await start(
      { heartbeatIntervalMs: 0 },
      { heartbeatIntervalMs: 100 },
    );
    await client.connect();
    await new Promise((resolve) => setTimeout(resolve, 650));
    expect(client.state).toBe('ready');
    expect(server.requests('ProtoOAVersionReq').length).toBeGreaterThanOrEqual(2);
    expect(server.requests('ProtoOAApplicationAuthReq')).toHaveLength(1);
  });

  it('drops a half-open connection after three silent heartbeat intervals and reconnects', async () => {
    const { client, server } = await start({ heartbeatIntervalMs: 0 }, { heartbeatIntervalMs: 30 });
    await client.connect();
    const states: StateChange[] = [];
    client.onState((change) => states.push(change));
    server.stopAnswering();
    const dropped = next<StateChange>(
      (l) => client.onState(l),
      (c) => c.state === 'disconnected',
    );
    await dropped;
    server.resumeAnswering();
    await next<StateChange>(
      (l) => client.onState(l),
      (c) => c.state === 'ready',
    );
    expect(states.map((s) => s.state)).toEqual(['disconnected', 'connecting', 'ready']);
    expect(states.at(-1)?.reconnected).toBe(true);
    expect(server.requests('ProtoOAApplicationAuthReq')).toHaveLength(2);
  });

  it('reconnects after a drop, authorises its accounts and renews its subscriptions, and fails what was in flight', async () => {
    const { client, server } = await start();
    await client.connect();
    await client.authorizeAccount(ACCOUNT, DEMO_ACCOUNT.accessToken);
    await client.subscribeSpots(ACCOUNT, [EURUSD.symbolId]);

    server.failNextOrder('drop-before-execution');
    const inFlight = client.request('ProtoOANewOrderReq', {
      ctidTraderAccountId: ACCOUNT,
      symbolId: EURUSD.symbolId,
      orderType: 'MARKET',
      tradeSide: 'BUY',
      volume: 100_000,
      clientOrderId: 'c-1',
    });
    const ready = next<StateChange>(
      (l) => client.onState(l),
      (c) => c.state === 'ready',
    );
    await expect(inFlight).rejects.toMatchObject({
      constructor: CTraderConnectionError,
      maybeDelivered: true,
    });
    expect((await ready).reconnected).toBe(true);

    expect(server.requests('ProtoOAAccountAuthReq')).toHaveLength(2);
    expect(server.requests('ProtoOASubscribeSpotsReq')).toHaveLength(2);
    const price = next<DecodedMessage>(
      (l) => client.onEvent(l),
      (m) => m.name === 'ProtoOASpotEvent' && m.body.bid === 108_700,
    );
    server.setPrice(EURUSD.symbolId, 1.087, 1.08712);
    await price;
  });

  it('backs off while the server is away and comes back when it returns', async () => {
    const { client, server } = await start();
    await client.connect();
    const port = server.port;
    const states: StateChange[] = [];
    client.onState((change) => states.push(change));
    await server.pause();
    await new Promise((resolve) => setTimeout(resolve, 300));
    const failures = states.filter(
      (s) => s.state === 'disconnected' && s.error !== undefined,
    ).length;
    expect(failures).toBeGreaterThanOrEqual(1);
    // Backoff: far fewer attempts than one every 20 ms.
    expect(failures).toBeLessThan(15);
    const ready = next<StateChange>(
      (l) => client.onState(l),
      (c) => c.state === 'ready',
    );
    await server.resume(port);
    expect((await ready).reconnected).toBe(true);
  });

  it('refuses a request while not connected, saying it was not sent', async () => {
    const { client } = await start();
    await expect(client.request('ProtoOAVersionReq', {})).rejects.toMatchObject({
      constructor: CTraderConnectionError,
      maybeDelivered: false,
    });
  });
});
