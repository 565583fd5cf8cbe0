import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InstrumentCatalogue } from '@tradebot/robot';
import {
  BRL_ACCOUNT,
  DEMO_ACCOUNT,
  EURUSD,
  FAKE_APP,
  FakeCTraderOAuthServer,
  FakeCTraderServer,
  fakeOptions,
  type FakeAccount,
  USDBRL,
  XAUUSD,
} from '@tradebot/robot/ctrader/fake';
import type { AdminUserDetail, BillingOverview, TradingData } from '@tradebot/contract';
import { operations } from '../src/db/schema';
import { v1, validRegistration } from './helpers/accounts';
import { createAdmin, signedInAdmin } from './helpers/admin';
import { ctraderEnv, linkedCTraderTrader, moveEurusdUntil } from './helpers/ctrader';
import { useRobotApp } from './helpers/trading';

/**
 * A linked cTrader account in Brazilian reais (decision 097): the robot sizes its orders on the
 * capital in reais converted at the broker's own USDBRL, the 50% cap reads the broker's margin in
 * reais, and get-all-data, the real-time channel and the e-mails' notices say BRL.
 */

let ctrader: FakeCTraderServer;
let oauth: FakeCTraderOAuthServer;
const catalogue = new InstrumentCatalogue();

beforeAll(async () => {
  ctrader = new FakeCTraderServer(
    fakeOptions({ accounts: [DEMO_ACCOUNT, BRL_ACCOUNT], symbols: [EURUSD, XAUUSD, USDBRL] }),
  );
  await ctrader.listen();
  oauth = new FakeCTraderOAuthServer({ ...FAKE_APP, accessToken: BRL_ACCOUNT.accessToken });
  await oauth.listen();
});
afterAll(async () => {
  await oauth.close();
  await ctrader.close();
});

const tickUntil = (done: () => Promise<boolean>) => moveEurusdUntil(ctrader, EURUSD.bid, done);

describe('the robot on a cTrader account in reais', () => {
  const context = useRobotApp(() => ctraderEnv(ctrader, oauth));

  it('sizes on the capital in reais at the broker USDBRL, caps by its margin in reais, and says BRL everywhere', async () => {
    const { app, publisher } = context;
    const { userId, headers, robot } = await linkedCTraderTrader(
      context,
      'ctrader-brl@example.com',
      BRL_ACCOUNT.ctidTraderAccountId,
    );

    // The broker's figures, in its deposit currency: R$ 20,000.00, never read as dollars.
    const first = await robot.projection(userId);
    expect(first?.currency).toBe('BRL');
    expect(first?.figures.balanceCents).toBe(2_000_000);
    const before = await app.inject({ method: 'GET', url: `${v1}/get-all-data`, headers });
    expect(before.statusCode).toBe(200);
    expect(before.json<{ data: TradingData }>().data).toMatchObject({
      accountKind: 'demo',
      // A linked account's prices are its broker's (decision 140).
      prices: { kind: 'broker' },
      accountCurrency: 'BRL',
      account: { balance: 20_000, equity: 20_000 },
    });
    // The payment page names that currency beside the USD prices (issue 39).
    const billing = await app.inject({ url: `${v1}/billing`, headers });
    expect(billing.json<{ data: BillingOverview }>().data.account).toEqual({
      kind: 'demo',
      currency: 'BRL',
    });

    expect(
      await tickUntil(async () => ((await robot.projection(userId))?.trades.length ?? 0) > 0),
    ).toBe(true);
    await robot.settled();

    // 10% of the free margin at risk 1: R$ 2,000.00 of margin. At the catalogue's 1:30 and
    // 1.0851 USD × 5.001 BRL a euro, 11,057 units, 11,000 at the step: volume 1,100,000. Read as
    // dollars, the same capital would have sent 55,000 units, five times the risk.
    const [order] = ctrader.requests('ProtoOANewOrderReq');
    if (!order) throw new Error('no order reached the fake');
    expect(order.body.symbolId).toBe(EURUSD.symbolId);
    const [stored] = await app.database.db
      .select()
      .from(operations)
      .where(eq(operations.accountId, userId));
    if (!stored) throw new Error('no operation stored');
    // The operation keeps the account's currency with its amounts (decision 103).
    expect(stored.currency).toBe('BRL');
    const { leverage, unitStep } = catalogue.require('EURUSD');
    const brlPerUsd = (USDBRL.bid + USDBRL.ask) / 2;
    const units =
      Math.round((0.1 * 2_000_000 * leverage) / (stored.entryPrice * brlPerUsd * 100) / unitStep) *
      unitStep;
    expect(units).toBe(11_000);
    expect(order.body.volume).toBe(units * 100);

    // The broker's margin of that position, in centavos, is what the projection and the cap read.
    const [position] = ctrader.openPositions(BRL_ACCOUNT.ctidTraderAccountId);
    const projection = await robot.projection(userId);
    expect(projection?.figures.usedMarginCents).toBe(position?.usedMargin);
    expect(projection?.figures.usedMarginCents).toBe(
      Math.round(((11_000 * stored.entryPrice * brlPerUsd) / 100) * 100),
    );
    expect(projection?.figures.usedMarginCents ?? 0).toBeLessThanOrEqual(
      (projection?.figures.equityCents ?? 0) / 2,
    );

    // get-all-data and the real-time channel say BRL with the reais figures.
    const after = await app.inject({ method: 'GET', url: `${v1}/get-all-data`, headers });
    const data = after.json<{ data: TradingData }>().data;
    expect(data.accountCurrency).toBe('BRL');
    expect(data.account?.usedMargin).toBe((position?.usedMargin ?? 0) / 100);
    expect(data.trades[0]?.margin).toBe((position?.usedMargin ?? 0) / 100);
    expect(data.trades[0]?.currency).toBe('BRL');
    expect(
      publisher
        .to(userId)
        .some((info) => typeof info !== 'string' && info.accountCurrency === 'BRL'),
    ).toBe(true);

    // The console's page of the user says it too: support reads reais, not dollars.
    const adminHeaders = await signedInAdmin(app, context.clock, await createAdmin(app));
    const page = await app.inject({ url: `${v1}/admin/users/${userId}`, headers: adminHeaders });
    expect(page.statusCode).toBe(200);
    expect(page.json<{ data: AdminUserDetail }>().data).toMatchObject({
      accountCurrency: 'BRL',
      account: { usedMargin: (position?.usedMargin ?? 0) / 100 },
      openOperations: [{ currency: 'BRL' }],
    });

    const unlinked = await app.inject({
      method: 'POST',
      url: `${v1}/unlink-account`,
      headers,
      payload: { password: validRegistration.password, closeOperations: true },
    });
    expect(unlinked.statusCode).toBe(200);
  });
});

/**
 * An account with less leverage than our catalogue's (decision 097, addendum): 1:10 where the
 * catalogue says 1:30 on EURUSD. Its 10% of capital in margin buys a third of the units, and the
 * adapter's leverage reaches the engine through the run's namespaced broker.
 */
const LOW_LEVERAGE_ACCOUNT: FakeAccount = {
  ...DEMO_ACCOUNT,
  ctidTraderAccountId: 4_400_303,
  accessToken: 'low-leverage-access-token',
  traderLogin: 5_003_000,
  leverageInCents: 1_000, // 1:10
};

describe('the robot on a cTrader account with less leverage than the catalogue', () => {
  let lowCTrader: FakeCTraderServer;
  let lowOAuth: FakeCTraderOAuthServer;
  beforeAll(async () => {
    lowCTrader = new FakeCTraderServer(
      fakeOptions({ accounts: [LOW_LEVERAGE_ACCOUNT], symbols: [EURUSD] }),
    );
    await lowCTrader.listen();
    lowOAuth = new FakeCTraderOAuthServer({
      ...FAKE_APP,
      accessToken: LOW_LEVERAGE_ACCOUNT.accessToken,
    });
    await lowOAuth.listen();
  });
  afterAll(async () => {
    await lowOAuth.close();
    await lowCTrader.close();
  });
  const context = useRobotApp(() => ctraderEnv(lowCTrader, lowOAuth));

  it('sizes 10% of the capital in margin at the account 1:10, not the catalogue 1:30', async () => {
    const { userId, robot } = await linkedCTraderTrader(
      context,
      'ctrader-low-leverage@example.com',
      LOW_LEVERAGE_ACCOUNT.ctidTraderAccountId,
    );
    expect(
      await moveEurusdUntil(
        lowCTrader,
        EURUSD.bid,
        async () => ((await robot.projection(userId))?.trades.length ?? 0) > 0,
      ),
    ).toBe(true);
    await robot.settled();
    const [order] = lowCTrader.requests('ProtoOANewOrderReq');
    if (!order) throw new Error('no order reached the fake');
    const [stored] = await context.app.database.db
      .select()
      .from(operations)
      .where(eq(operations.accountId, userId));
    if (!stored) throw new Error('no operation stored');
    // $1,000.00 of margin (10% of $10,000.00) at 1:10 and about 1.085: 9,216 units, 9,000 at the
    // step. At the catalogue's 1:30 it would have been about 27,600 units.
    const { unitStep } = catalogue.require('EURUSD');
    const units =
      Math.round((0.1 * 1_000_000 * 10) / (stored.entryPrice * 100) / unitStep) * unitStep;
    expect(units).toBe(9_000);
    expect(order.body.volume).toBe(units * 100);
  });
});
