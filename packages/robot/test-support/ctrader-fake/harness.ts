import { InstrumentCatalogue } from '../../src/instruments/catalogue';
import { CTraderClient, type CTraderClientOptions } from '../../src/broker/ctrader/client';
import { CTraderBroker } from '../../src/broker/ctrader/ctrader-broker';
import type { FakeAccount, FakeCTraderServer } from './fake-ctrader-server';
import { DEMO_ACCOUNT, FAKE_APP } from './fixtures';

/** For tests: a client on the fake (plain TCP) and a started adapter for its demo account. */
export async function connectBroker(
  server: FakeCTraderServer,
  accountId: string,
  options: {
    catalogue?: InstrumentCatalogue;
    client?: Partial<CTraderClientOptions>;
    /** The fake's account to trade (default its USD demo account). */
    account?: FakeAccount;
    /** How often the account's other positions' profit is read (the adapter's default: 3 s). */
    othersProfitMs?: number;
    /** Where the adapter tells what it could not read (default the console). */
    warn?: (message: string) => void;
  } = {},
): Promise<{ client: CTraderClient; broker: CTraderBroker; close: () => void }> {
  const client = new CTraderClient({
    host: '127.0.0.1',
    port: server.port,
    tls: false,
    ...FAKE_APP,
    protocol: server.protocol,
    backoffInitialMs: 20,
    backoffMaxMs: 100,
    ...options.client,
  });
  await client.connect();
  const broker = new CTraderBroker({
    client,
    catalogue: options.catalogue ?? new InstrumentCatalogue(),
    accounts: [
      {
        accountId,
        ctidTraderAccountId: (options.account ?? DEMO_ACCOUNT).ctidTraderAccountId,
        accessToken: (options.account ?? DEMO_ACCOUNT).accessToken,
      },
    ],
    ...(options.othersProfitMs === undefined ? {} : { othersProfitMs: options.othersProfitMs }),
    ...(options.warn === undefined ? {} : { warn: options.warn }),
  });
  return {
    client,
    broker,
    close: () => {
      broker.stop();
      client.close();
    },
  };
}

/** Waits, polling, until `check` holds; fails naming `what` after five seconds. */
export async function until(check: () => boolean, what: string): Promise<void> {
  const deadline = performance.now() + 5000;
  while (!check()) {
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
