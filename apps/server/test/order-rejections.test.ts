import { Writable } from 'node:stream';
import type { OrderRejectionsPage, UntradableSymbolsView } from '@tradebot/contract';
import {
  BTCUSD,
  DEMO_ACCOUNT,
  FAKE_APP,
  FakeCTraderOAuthServer,
  FakeCTraderServer,
  fakeOptions,
  XAUUSD,
} from '@tradebot/robot/ctrader/fake';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderIntents } from '../src/db/schema';
import { DrizzleExecutionStore } from '../src/robot/worker/drizzle-execution-store';
import { v1 } from './helpers/accounts';
import { ctraderEnv, linkedCTraderTrader } from './helpers/ctrader';
import { intent } from './helpers/robot-records';
import { trader, useRobotApp } from './helpers/trading';

/**
 * The account's refused orders and the broker symbols the robot does not trade (decision 101):
 * GET order-rejections lists each refusal with our reason and the broker's own code, paged like
 * the closed history; GET untradable-symbols lists a linked account's symbols with no instrument
 * of ours or no conversion to its currency.
 */

interface Page {
  data: OrderRejectionsPage;
}
interface Untradable {
  data: UntradableSymbolsView;
}

describe('order rejections on the built-in platform', () => {
  const context = useRobotApp();

  /** Three refused orders a second apart, a filled one, and another user's refusal. */
  async function refusals(userId: string, otherId: string): Promise<void> {
    const store = new DrizzleExecutionStore(context.app.database.db);
    const at = Date.parse('2026-11-21T10:00:00Z');
    const orders = [
      intent(userId, 'BTCUSD', { clientOrderId: `${userId}/BTCUSD/1`, decidedAt: at }),
      intent(userId, 'ETHUSD', {
        clientOrderId: `${userId}/ETHUSD/2`,
        decidedAt: at + 1000,
        side: 'sale',
      }),
      intent(userId, 'BTCUSD', { clientOrderId: `${userId}/BTCUSD/3`, decidedAt: at + 2000 }),
      intent(userId, 'BTCUSD', { clientOrderId: `${userId}/BTCUSD/4`, decidedAt: at + 3000 }),
      intent(otherId, 'BTCUSD', { clientOrderId: `${otherId}/BTCUSD/5`, decidedAt: at }),
    ];
    await store.saveIntents(orders);
    await store.updateIntentStatus(`${userId}/BTCUSD/1`, 'rejected', 'MARKET_CLOSED');
    await store.updateIntentStatus(`${userId}/ETHUSD/2`, 'rejected', 'INSUFFICIENT_MARGIN');
    await store.updateIntentStatus(`${userId}/BTCUSD/3`, 'rejected', 'NO_PRICE');
    await store.updateIntentStatus(`${userId}/BTCUSD/4`, 'expired');
    await store.updateIntentStatus(`${otherId}/BTCUSD/5`, 'rejected', 'MARKET_CLOSED');
  }

  it('lists the refused orders newest first with their reason, a page at a time, and only the user’s own', async () => {
    const { app } = context;
    const { userId, headers } = await trader(app, { email: 'refused@example.com', botOn: false });
    const other = await trader(app, { email: 'other@example.com', botOn: false });
    await refusals(userId, other.userId);

    const first = await app.inject({ url: `${v1}/order-rejections?limit=2`, headers });
    expect(first.statusCode).toBe(200);
    const page = first.json<Page>().data;
    expect(page.rejections).toEqual([
      {
        id: `${userId}/BTCUSD/3`,
        at: '2026-11-21T10:00:02.000Z',
        symbol: 'BTCUSD',
        OutputName: expect.any(String) as string,
        category: 'cripto',
        side: 'buy',
        units: 0.25,
        reason: 'NO_PRICE',
        brokerCode: null,
      },
      expect.objectContaining({
        id: `${userId}/ETHUSD/2`,
        side: 'sale',
        reason: 'INSUFFICIENT_MARGIN',
      }),
    ]);
    expect(page.nextCursor).not.toBeNull();

    const next = await app.inject({
      url: `${v1}/order-rejections?limit=2&before=${encodeURIComponent(page.nextCursor ?? '')}`,
      headers,
    });
    expect(next.statusCode).toBe(200);
    expect(next.json<Page>().data).toEqual({
      rejections: [expect.objectContaining({ id: `${userId}/BTCUSD/1`, reason: 'MARKET_CLOSED' })],
      nextCursor: null,
    });

    // The simulated platform has only our instruments: nothing it cannot trade to list.
    const untradable = await app.inject({ url: `${v1}/untradable-symbols`, headers });
    expect(untradable.json<Untradable>().data).toEqual({ applicable: false, symbols: null });
  });

  it('refuses a bad query, a forged cursor and a caller without a token', async () => {
    const { app } = context;
    const { headers } = await trader(app, { email: 'query@example.com', botOn: false });
    for (const query of ['limit=0', 'limit=101', 'limit=x', 'before=%20', 'before=abc']) {
      const response = await app.inject({ url: `${v1}/order-rejections?${query}`, headers });
      expect(response.statusCode, query).toBe(422);
    }
    const anonymous = await app.inject({ url: `${v1}/order-rejections` });
    expect(anonymous.statusCode).toBe(401);
    expect((await app.inject({ url: `${v1}/untradable-symbols` })).statusCode).toBe(401);
  });

  it('a user not linked yet is refused as for get-all-data', async () => {
    const { app } = context;
    const { headers } = await trader(app, {
      email: 'unlinked@example.com',
      linked: false,
      botOn: false,
    });
    const data = await app.inject({ url: `${v1}/get-all-data`, headers });
    const rejections = await app.inject({ url: `${v1}/order-rejections`, headers });
    expect(rejections.statusCode).toBe(data.statusCode);
    expect(rejections.statusCode).toBeGreaterThanOrEqual(400);
  });
});

describe('order rejections and untradable symbols on a linked cTrader account', () => {
  /** Listed by the broker, matching none of our instruments. */
  const UNMAPPED = { ...BTCUSD, symbolId: 301, symbolName: 'ZZZ/QQQ' };
  /** One of our instruments, quoted in euros, with no EURUSD at the broker to reach dollars. */
  const XAUEUR = { ...XAUUSD, symbolId: 302, symbolName: 'XAUEUR' };
  let ctrader: FakeCTraderServer;
  let oauth: FakeCTraderOAuthServer;
  const logs: string[] = [];

  beforeAll(async () => {
    ctrader = new FakeCTraderServer(fakeOptions({ symbols: [BTCUSD, UNMAPPED, XAUEUR] }));
    await ctrader.listen();
    oauth = new FakeCTraderOAuthServer({ ...FAKE_APP, accessToken: DEMO_ACCOUNT.accessToken });
    await oauth.listen();
  });
  afterAll(async () => {
    await oauth.close();
    await ctrader.close();
  });

  // The app's info log is kept: the run's untradable symbols are logged there.
  const context = useRobotApp(
    () => ({ LOG_LEVEL: 'info', ...ctraderEnv(ctrader, oauth) }),
    () => ({
      logStream: new Writable({
        write(chunk: Buffer, _encoding, done) {
          logs.push(chunk.toString());
          done();
        },
      }),
    }),
  );

  /** Moves the fake's bitcoin a step at a time until `done`. */
  async function tickUntil(done: () => Promise<boolean>, max = 200): Promise<boolean> {
    for (let step = 0; step < max; step++) {
      if (await done()) return true;
      const bid = BTCUSD.bid + (step % 5) * 0.01;
      ctrader.setPrice(BTCUSD.symbolId, bid, bid + BTCUSD.ask - BTCUSD.bid);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return done();
  }

  it('a broker refusal appears in the list with our reason and the broker code; the symbols the account cannot trade are listed and logged once, with no token', async () => {
    const { app } = context;
    ctrader.setMarketOpen(false);
    try {
      const { userId, headers, robot } = await linkedCTraderTrader(
        context,
        'ctrader-rejections@example.com',
        DEMO_ACCOUNT.ctidTraderAccountId,
      );
      const rejectedCount = async () =>
        (
          await app.database.db
            .select()
            .from(orderIntents)
            .where(eq(orderIntents.accountId, userId))
        ).filter((row) => row.status === 'rejected').length;
      expect(await tickUntil(async () => (await rejectedCount()) > 0)).toBe(true);
      await robot.settled();

      const response = await app.inject({ url: `${v1}/order-rejections`, headers });
      expect(response.statusCode).toBe(200);
      const { rejections, nextCursor } = response.json<Page>().data;
      expect(rejections).toHaveLength(1);
      expect(rejections[0]).toMatchObject({
        symbol: 'BTCUSD',
        category: 'cripto',
        side: 'buy',
        reason: 'MARKET_CLOSED',
        brokerCode: 'MARKET_CLOSED',
      });
      expect(nextCursor).toBeNull();
      const [sent] = ctrader.requests('ProtoOANewOrderReq');
      expect(rejections[0]?.id).toBe(sent?.body.clientOrderId);
      // A browser listening was told at once, with the row the list gives.
      await expect
        .poll(() => context.publisher.to(userId).flatMap((info) => info.rejected ?? []))
        .toEqual([rejections[0]]);

      const untradable = await app.inject({ url: `${v1}/untradable-symbols`, headers });
      expect(untradable.statusCode).toBe(200);
      expect(untradable.json<Untradable>().data).toEqual({
        applicable: true,
        symbols: {
          unmapped: ['ZZZ/QQQ'],
          unconvertible: ['XAUEUR'],
          readAt: expect.any(String) as string,
        },
      });

      const lines = logs.filter((line) => line.includes('symbols the robot does not trade'));
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain('ZZZ/QQQ');
      expect(lines[0]).toContain('XAUEUR');
      expect(logs.join('\n')).not.toContain(DEMO_ACCOUNT.accessToken);
    } finally {
      ctrader.setMarketOpen(true);
    }
  });
});
