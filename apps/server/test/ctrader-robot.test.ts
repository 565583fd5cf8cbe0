import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FixedSignalStrategy } from '@tradebot/robot';
import {
  ALWAYS_OPEN,
  BTCUSD,
  closedFor,
  DEMO_ACCOUNT,
  EURUSD,
  FAKE_APP,
  FakeCTraderOAuthServer,
  FakeCTraderServer,
  fakeOptions,
  type FakeSymbol,
} from '@tradebot/robot/ctrader/fake';
import {
  notificationOutbox,
  operations,
  orderIntents,
  tradingPlatformLinks,
  userSettings,
} from '../src/db/schema';
import { effectiveRobotSettings } from '../src/domain/robot-settings';
import { allCategoriesEnabled } from '../src/repositories/users.repository';
import { v1, validRegistration } from './helpers/accounts';
import { replica } from './helpers/app';
import { ctraderEnv, linkCTraderAccount, linkedCTraderTrader } from './helpers/ctrader';
import { paidUser } from './helpers/linking';
import { robotOf, useRobotApp, type RobotTestContext } from './helpers/trading';

/**
 * The robot trading a linked cTrader account (decision 096), against the fake Open API and the
 * fake Spotware OAuth: linked through OAuth2, prices from the account's spot subscription, market
 * orders with the published geometry in the broker's units, fills and closures in the same
 * operations, projection and real-time channel as the built-in platform; unlinked, it stops.
 */

/**
 * Two fake brokers: one listing BTCUSD, which trades every day, so these cases run on any day;
 * one listing EURUSD, whose case runs while forex is open (the fakes stamp prices with the wall
 * clock, and the robot rightly trades nothing on a closed market; decision 096, amended).
 */
let crypto: FakeCTraderServer;
let forex: FakeCTraderServer;
/** The fake broker and the symbol the cases of the current block trade. */
let ctrader: FakeCTraderServer;
let market: FakeSymbol = BTCUSD;
let oauth: FakeCTraderOAuthServer;

beforeAll(async () => {
  crypto = new FakeCTraderServer(fakeOptions({ symbols: [BTCUSD] }));
  forex = new FakeCTraderServer(fakeOptions({ symbols: [EURUSD] }));
  await crypto.listen();
  await forex.listen();
  ctrader = crypto;
  oauth = new FakeCTraderOAuthServer({
    ...FAKE_APP,
    accessToken: DEMO_ACCOUNT.accessToken,
    onTokenReplaced: (previous, next) => {
      crypto.replaceToken(previous, next);
      forex.replaceToken(previous, next);
    },
  });
  await oauth.listen();
});
afterAll(async () => {
  await oauth.close();
  await crypto.close();
  await forex.close();
});

/** The cases that follow trade `symbol` at `fake`. */
function trading(fake: () => FakeCTraderServer, symbol: FakeSymbol): void {
  beforeAll(() => {
    ctrader = fake();
    market = symbol;
    base = symbol.bid;
  });
}

/** The environment of the test's app, kept for a restarted one. */
let lastEnv: Record<string, string> = {};
const env = () => (lastEnv = freshEnv());
const freshEnv = () => ctraderEnv(ctrader, oauth);

const linkDemo = (app: FastifyInstance, headers: Record<string, string>) =>
  linkCTraderAccount(app, headers, DEMO_ACCOUNT.ctidTraderAccountId);

/** Where the fake's symbol trades now (a test moves it to hit a take-profit). */
let base = BTCUSD.bid;
/** The symbol's pip, in price units. */
const pip = () => 10 ** -market.pipPosition;

/** Moves the fake's price a step at a time until `done`; false after `max` steps. */
async function tickUntil(done: () => Promise<boolean>, max = 200): Promise<boolean> {
  for (let step = 0; step < max; step++) {
    if (await done()) return true;
    const bid = Number((base + (step % 5) * 10 ** -market.digits).toFixed(market.digits));
    const ask = Number((bid + market.ask - market.bid).toFixed(market.digits));
    ctrader.setPrice(market.symbolId, bid, ask);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return done();
}

/**
 * Links the fake's demo account, lets the robot trade the block's symbol, checks the order in the
 * broker's units, the stored operation, the live push, the 50% cap and the take-profit closure,
 * then unlinks.
 */
async function tradesShowsAndUnlinks(context: RobotTestContext, email: string): Promise<void> {
  const { app, publisher } = context;
  const { userId, headers } = await paidUser(app, email);
  await linkDemo(app, headers);
  const [settings] = await app.database.db
    .update(userSettings)
    .set({ botOn: true, categoriesEnabled: allCategoriesEnabled })
    .where(eq(userSettings.userId, userId))
    .returning();
  if (!settings) throw new Error('no settings');
  const robot = robotOf(app);
  publisher.listening.add(userId);
  robot.watch(userId);
  await robot.applySettings(userId, effectiveRobotSettings(settings));

  // The account as the broker reports it: its balance, nothing simulated.
  const first = await robot.projection(userId);
  expect(first?.figures.balanceCents).toBe(1_000_000);
  expect(first?.trades).toEqual([]);
  expect(ctrader.requests('ProtoOASubscribeSpotsReq').length).toBeGreaterThan(0);

  const opened = await tickUntil(
    async () => ((await robot.projection(userId))?.trades.length ?? 0) > 0,
  );
  expect(opened).toBe(true);
  await robot.settled();

  // A market order in the broker's units, with the geometry relative to its own pip.
  const [order] = ctrader.requests('ProtoOANewOrderReq');
  if (!order) throw new Error('no order reached the fake');
  const body = order.body;
  expect(body.orderType).toBe('MARKET');
  expect(body.ctidTraderAccountId).toBe(DEMO_ACCOUNT.ctidTraderAccountId);
  expect(typeof body.clientOrderId).toBe('string');
  expect(body.symbolId).toBe(market.symbolId);
  const onePip = Math.round(100_000 * pip());
  expect(body.relativeTakeProfit).toBe(onePip);
  const spread = Math.round((market.ask - market.bid) * 100_000);
  expect(body.relativeStopLoss).toBe(spread + 5 * (spread + onePip));
  const volume = Number(body.volume);
  expect(volume).toBeGreaterThanOrEqual(market.minVolume);
  expect(volume % market.stepVolume).toBe(0);

  // Stored as an operation, keyed in the broker's own namespace, and shown live.
  const stored = await app.database.db
    .select()
    .from(operations)
    .where(eq(operations.accountId, userId));
  expect(stored.length).toBeGreaterThan(0);
  expect(stored[0]?.positionId).toMatch(
    new RegExp(`^ct${String(DEMO_ACCOUNT.ctidTraderAccountId)}-`),
  );
  expect(stored[0]?.clientOrderId).toBe(body.clientOrderId);
  const projection = await robot.projection(userId);
  expect(projection?.figures.usedMarginCents).toBeGreaterThan(0);
  // The real-time channel told the user's browser, as for the built-in platform.
  expect(
    publisher
      .to(userId)
      .some((info) => JSON.stringify(info).includes(stored[0]?.positionId ?? '-')),
  ).toBe(true);
  // The 50% cap by the broker's figures: used margin never passes half the equity.
  expect(projection?.figures.usedMarginCents ?? 0).toBeLessThanOrEqual(
    (projection?.figures.equityCents ?? 0) / 2,
  );

  // Its take-profit is hit at the broker: the closure lands in the history.
  const positionId = stored[0]?.positionId ?? '';
  base += 100 * pip();
  const closed = await tickUntil(async () => {
    const [row] = await app.database.db
      .select()
      .from(operations)
      .where(eq(operations.positionId, positionId));
    return row?.closedAt !== null && row?.closedAt !== undefined;
  }, 100);
  expect(closed).toBe(true);
  const [row] = await app.database.db
    .select()
    .from(operations)
    .where(eq(operations.positionId, positionId));
  expect(row?.closeReason).toBe('tp');

  // Unlinked: the robot stops on that account, its connection closes, nothing more is sent.
  const connections = ctrader.connections;
  const unlinked = await app.inject({
    method: 'POST',
    url: `${v1}/unlink-account`,
    headers,
    payload: { password: validRegistration.password, closeOperations: true },
  });
  expect(unlinked.statusCode).toBe(200);
  expect(robot.hasAccount(userId)).toBe(false);
  const deadline = Date.now() + 2000;
  while (ctrader.connections >= connections && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  expect(ctrader.connections).toBeLessThan(connections);
  const sent = ctrader.requests('ProtoOANewOrderReq').length;
  await tickUntil(() => Promise.resolve(false), 20);
  expect(ctrader.requests('ProtoOANewOrderReq').length).toBe(sent);
}

describe('the robot on a linked cTrader account (BTCUSD, traded every day)', () => {
  const context = useRobotApp(env);
  trading(() => crypto, BTCUSD);

  /** A paid user linked to the fake's demo account through OAuth, robot on in every category. */
  const linkedTrader = (email: string) =>
    linkedCTraderTrader(context, email, DEMO_ACCOUNT.ctidTraderAccountId);

  const openCount = async (userId: string) =>
    (await robotOf(context.app).projection(userId))?.trades.length ?? 0;

  const unlinkClosing = (headers: Record<string, string>) =>
    context.app.inject({
      method: 'POST',
      url: `${v1}/unlink-account`,
      headers,
      payload: { password: validRegistration.password, closeOperations: true },
    });

  it('trades the account on its broker prices, shows it like the built-in platform, and stops when unlinked', () =>
    tradesShowsAndUnlinks(context, 'ctrader-robot@example.com'));

  it("while the model learns the broker's history the dashboard says so, and a listening browser is told when it ends, without a reload", async () => {
    const release = ctrader.holdTickData();
    try {
      const { userId, headers, robot } = await linkedTrader('ctrader-warm-up@example.com');
      await expect
        .poll(async () => (await robot.projection(userId))?.status.idleReason)
        .toBe('WARMING_UP');
      const data = await context.app.inject({ method: 'GET', url: `${v1}/get-all-data`, headers });
      expect(data.json<{ data: { robot: { idleReason: string } } }>().data.robot).toMatchObject({
        trading: false,
        idleReason: 'WARMING_UP',
      });
      const toldBefore = context.publisher.to(userId).filter((info) => info.robot).length;
      release();
      await expect
        .poll(() =>
          context.publisher
            .to(userId)
            .filter((info) => info.robot)
            .slice(toldBefore)
            .some((info) => info.robot?.idleReason !== 'WARMING_UP'),
        )
        .toBe(true);
      expect((await robot.projection(userId))?.status.idleReason).not.toBe('WARMING_UP');
      expect((await unlinkClosing(headers)).statusCode).toBe(200);
    } finally {
      release();
    }
  });

  it('an order executed while the connection dropped is reconciled by its client order id after the reconnection: recorded once, never sent twice; then trading goes on', async () => {
    const { app } = context;
    const { userId, headers, robot } = await linkedTrader('ctrader-drop@example.com');
    expect(await tickUntil(async () => (await openCount(userId)) > 0)).toBe(true);
    // The first operation closes at its take-profit, so the instrument is free again.
    base += 100 * pip();
    expect(await tickUntil(async () => (await openCount(userId)) === 0, 100)).toBe(true);
    await robot.settled();
    const sentBefore = ctrader.requests('ProtoOANewOrderReq').length;
    ctrader.failNextOrder('drop-after-execution');
    base += 10 * pip();
    expect(
      await tickUntil(
        () => Promise.resolve(ctrader.requests('ProtoOANewOrderReq').length > sentBefore),
        100,
      ),
    ).toBe(true);
    const dropped = ctrader.requests('ProtoOANewOrderReq')[sentBefore]?.body.clientOrderId;
    expect(typeof dropped).toBe('string');
    const storedIds = async () =>
      (
        await app.database.db
          .select({ clientOrderId: operations.clientOrderId })
          .from(operations)
          .where(eq(operations.accountId, userId))
      ).map((row) => row.clientOrderId);
    // Reconnected and reconciled: the order executed in the dark becomes its operation.
    expect(await tickUntil(async () => (await storedIds()).includes(String(dropped)), 200)).toBe(
      true,
    );
    await robot.settled();
    // Every order the broker executed is one operation here; none was sent twice.
    const executed = ctrader.orders
      .filter((order) => order.accountId === DEMO_ACCOUNT.ctidTraderAccountId)
      .map((order) => order.clientOrderId)
      .filter((id) => id?.startsWith(userId));
    expect(new Set(executed).size).toBe(executed.length);
    expect((await storedIds()).sort()).toEqual([...executed].sort());
    expect((await robot.projection(userId))?.status.idleReason ?? null).toBe(null);
    expect((await unlinkClosing(headers)).statusCode).toBe(200);
  });

  it('a token the broker expires early is refreshed once, and the robot runs on the new token without a new link', async () => {
    const { app } = context;
    const { userId, headers, robot } = await linkedTrader('ctrader-early@example.com');
    await tickUntil(() => Promise.resolve(false), 3);
    const [before] = await app.database.db
      .select()
      .from(tradingPlatformLinks)
      .where(eq(tradingPlatformLinks.userId, userId));
    const refreshes = () =>
      oauth.tokenRequests.filter((request) => request.grant_type === 'refresh_token').length;
    const refreshedBefore = refreshes();
    const expired = oauth.currentAccessToken;
    ctrader.expireToken(expired);
    // The refresh token is still good: one refresh, a new token stored, the run back on it.
    expect(
      await tickUntil(
        async () =>
          oauth.currentAccessToken !== expired &&
          (await robot.projection(userId))?.status.idleReason !== 'BROKER_RECONNECT_NEEDED',
        200,
      ),
    ).toBe(true);
    expect(refreshes()).toBe(refreshedBefore + 1);
    const [after] = await app.database.db
      .select()
      .from(tradingPlatformLinks)
      .where(eq(tradingPlatformLinks.userId, userId));
    expect(after?.credentialsCiphertext).not.toBe(before?.credentialsCiphertext);
    // The run is back at the broker on the new token: the account authorised with it, and the
    // robot's status clear of the broker's trouble.
    expect(
      await tickUntil(
        async () =>
          ctrader
            .requests('ProtoOAAccountAuthReq')
            .some((request) => request.body.accessToken === oauth.currentAccessToken) &&
          (await robot.projection(userId))?.status.idleReason !== 'BROKER_DISCONNECTED',
        200,
      ),
    ).toBe(true);
    expect((await robot.projection(userId))?.status.idleReason ?? null).not.toBe(
      'BROKER_RECONNECT_NEEDED',
    );
    expect(refreshes()).toBe(refreshedBefore + 1);
    expect((await unlinkClosing(headers)).statusCode).toBe(200);
  });

  it('a grant the broker stops accepting: the robot opens nothing more there, the dashboard asks to link again (es, pt) and the user is notified once', async () => {
    const { app } = context;
    const { userId, headers, robot } = await linkedTrader('ctrader-expired@example.com');
    await tickUntil(() => Promise.resolve(false), 3);
    // The user removed us at cTrader ID: the refresh tried once is refused too.
    oauth.revokeGrant();
    ctrader.expireToken(oauth.currentAccessToken);
    try {
      await tickUntil(
        async () =>
          (await robot.projection(userId))?.status.idleReason === 'BROKER_RECONNECT_NEEDED',
        100,
      );
      expect((await robot.projection(userId))?.status.idleReason).toBe('BROKER_RECONNECT_NEEDED');
      const data = await app.inject({ method: 'GET', url: `${v1}/get-all-data`, headers });
      // A broker's demo account is said to be one; its figures are the broker's, never a ledger.
      expect(data.json<{ data: { accountKind: string } }>().data.accountKind).toBe('demo');
      // A browser listening was told at once, without a reload.
      expect(
        context.publisher
          .to(userId)
          .some((info) => info.robot?.idleReason === 'BROKER_RECONNECT_NEEDED'),
      ).toBe(true);
      expect(data.json<{ data: { robot: { idleReason: string } } }>().data.robot).toMatchObject({
        trading: false,
        idleReason: 'BROKER_RECONNECT_NEEDED',
      });
      const sent = ctrader.requests('ProtoOANewOrderReq').length;
      base += 20 * pip();
      await tickUntil(() => Promise.resolve(false), 30);
      await robot.settled();
      expect(ctrader.requests('ProtoOANewOrderReq').length).toBe(sent);
      await new Promise((resolve) => setTimeout(resolve, 50));
      const notices = await app.database.db
        .select()
        .from(notificationOutbox)
        .where(eq(notificationOutbox.userId, userId));
      const stopped = notices.filter((notice) => notice.kind === 'robot_stopped');
      expect(stopped.map((notice) => notice.payload)).toEqual([
        { reason: 'broker_reconnect_needed' },
      ]);
    } finally {
      // The fake's account answers to its token again, for the next test.
      ctrader.replaceToken(oauth.currentAccessToken, oauth.currentAccessToken);
    }
    expect((await unlinkClosing(headers)).statusCode).toBe(200);
  });

  /** The orders of the user's robot that reached the fake. */
  const ordersSentFor = (userId: string) =>
    ctrader
      .requests('ProtoOANewOrderReq')
      .filter((order) => String(order.body.clientOrderId).startsWith(userId));

  it("while the broker's session for the symbol is closed the robot sends nothing and the dashboard says the market is closed; when the broker reopens it, the robot trades", async () => {
    const { app } = context;
    // The broker closes its bitcoin for a while from now, whatever our catalogue says.
    ctrader.setHours(market.symbolId, closedFor(30));
    try {
      const { userId, headers, robot } = await linkedTrader('ctrader-closed@example.com');
      const mine = () => ordersSentFor(userId);
      base += 20 * pip();
      await tickUntil(() => Promise.resolve(false), 30);
      await robot.settled();
      expect(mine()).toHaveLength(0);
      expect(await openCount(userId)).toBe(0);
      expect((await robot.projection(userId))?.status.idleReason).toBe('MARKET_CLOSED');
      const data = await app.inject({ method: 'GET', url: `${v1}/get-all-data`, headers });
      expect(data.json<{ data: { robot: { idleReason: string } } }>().data.robot).toMatchObject({
        trading: false,
        idleReason: 'MARKET_CLOSED',
      });

      // The broker reopens it (ProtoOASymbolChangedEvent): the robot trades again.
      ctrader.setHours(market.symbolId, ALWAYS_OPEN);
      expect(await tickUntil(async () => (await openCount(userId)) > 0)).toBe(true);
      expect(mine().length).toBeGreaterThan(0);
      expect((await unlinkClosing(headers)).statusCode).toBe(200);
    } finally {
      ctrader.setHours(market.symbolId, ALWAYS_OPEN);
    }
  });

  it('an order the broker refuses because its market is closed (a maintenance its hours did not show) is stored with that reason, not sent again while it lasts, and the dashboard says the market is closed', async () => {
    const { app } = context;
    ctrader.setMarketOpen(false);
    try {
      const { userId, headers, robot } = await linkedTrader('ctrader-refused@example.com');
      const mine = () => ordersSentFor(userId);
      expect(await tickUntil(() => Promise.resolve(mine().length > 0))).toBe(true);
      await robot.settled();
      const rejected = async () =>
        app.database.db
          .select({ status: orderIntents.status, reason: orderIntents.rejectReason })
          .from(orderIntents)
          .where(eq(orderIntents.accountId, userId));
      expect(
        await tickUntil(async () => (await rejected()).some((row) => row.status === 'rejected')),
      ).toBe(true);
      // On a loaded machine the price can move while a first intent is being stored: that one
      // expires unsent (order-execution), and is no refusal. The one sent is the one refused.
      const intents = await rejected();
      expect(intents.filter((row) => row.status !== 'expired')).toEqual([
        { status: 'rejected', reason: 'MARKET_CLOSED' },
      ]);
      expect(intents.filter((row) => row.status === 'expired')).toEqual(
        intents
          .filter((row) => row.status === 'expired')
          .map(() => ({ status: 'expired', reason: null })),
      );
      // The price goes on moving: nothing more is sent, no loop of refusals.
      base += 20 * pip();
      await tickUntil(() => Promise.resolve(false), 30);
      await robot.settled();
      expect(mine()).toHaveLength(1);
      expect(await rejected()).toHaveLength(intents.length);
      expect((await robot.projection(userId))?.status.idleReason).toBe('MARKET_CLOSED');
      expect((await unlinkClosing(headers)).statusCode).toBe(200);
    } finally {
      ctrader.setMarketOpen(true);
    }
  });

  /** The user's one open position at the fake, and its operation's id here. */
  async function openPosition(userId: string) {
    expect(await tickUntil(async () => (await openCount(userId)) > 0)).toBe(true);
    await robotOf(context.app).settled();
    const mine = ctrader
      .openPositions(DEMO_ACCOUNT.ctidTraderAccountId)
      .filter((position) => position.label?.startsWith(userId));
    expect(mine).toHaveLength(1);
    const position = mine[0];
    if (!position) throw new Error('no position at the fake');
    return {
      position,
      operationId: `ct${String(DEMO_ACCOUNT.ctidTraderAccountId)}-${String(position.positionId)}`,
    };
  }

  /** The fake's price reaches the position's take-profit (no one may be connected). */
  function hitTakeProfit(takeProfit: number): void {
    base = takeProfit;
    ctrader.setPrice(market.symbolId, takeProfit, takeProfit + market.ask - market.bid);
  }

  /**
   * The operation is closed once, at the broker's take-profit with the broker's profit, and the
   * account's balance and equity are the fake's; after another reconciliation (a reconnection),
   * still so, nothing booked twice.
   */
  async function expectClosedOnce(
    userId: string,
    operationId: string,
    position: { price: number; takeProfit: number; volume: number },
  ): Promise<void> {
    const { app } = context;
    const rows = () =>
      app.database.db.select().from(operations).where(eq(operations.positionId, operationId));
    const deadline = Date.now() + 10_000;
    while ((await rows())[0]?.closedAt == null && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const robot = robotOf(app);
    await robot.settled();
    const [closed, ...more] = await rows();
    expect(more).toEqual([]);
    const profitCents = Math.round((position.takeProfit - position.price) * position.volume);
    expect(closed).toMatchObject({
      closeReason: 'tp',
      closePrice: position.takeProfit,
      profitCents,
    });
    const ctid = DEMO_ACCOUNT.ctidTraderAccountId;
    const figures = async () => {
      const projection = await robot.projection(userId);
      // The fake's equity: its balance plus each labelled open position's result at its price.
      const unrealised = ctrader
        .openPositions(ctid)
        .filter((open) => open.label !== undefined)
        .reduce((sum, open) => sum + Math.round((base - open.price) * open.volume), 0);
      return {
        balance: [projection?.figures.balanceCents, ctrader.balance(ctid)],
        equity: [projection?.figures.equityCents, ctrader.balance(ctid) + unrealised],
      };
    };
    const before = await figures();
    expect(before.balance[0]).toBe(before.balance[1]);
    expect(before.equity[0]).toBe(before.equity[1]);

    const reads = ctrader.requests('ProtoOADealListReq').length;
    ctrader.dropConnections();
    const again = Date.now() + 10_000;
    while (ctrader.requests('ProtoOADealListReq').length === reads && Date.now() < again) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(ctrader.requests('ProtoOADealListReq').length).toBeGreaterThan(reads);
    await new Promise((resolve) => setTimeout(resolve, 100));
    await robot.settled();
    expect(await rows()).toEqual([closed]);
    // The robot may have opened again since: the balance is unchanged, the equity still the fake's.
    const after = await figures();
    expect(after.balance).toEqual(before.balance);
    expect(after.equity[0]).toBe(after.equity[1]);
  }

  it("a take-profit hit at the broker while the connection is down: after the reconnection, one closed operation with the broker close price and profit, the figures the broker's, and a second reconciliation books nothing twice", async () => {
    const { userId, headers } = await linkedTrader('ctrader-dark-tp@example.com');
    const { position, operationId } = await openPosition(userId);
    const port = ctrader.port;
    await ctrader.pause();
    hitTakeProfit(position.takeProfit);
    expect(ctrader.openPositions(DEMO_ACCOUNT.ctidTraderAccountId)).not.toContainEqual(position);
    await ctrader.resume(port);
    await expectClosedOnce(userId, operationId, position);
    expect((await unlinkClosing(headers)).statusCode).toBe(200);
  });

  it("a take-profit hit at the broker while the robot process is down: the next process books the operation closed, once, from the broker's deals", async () => {
    const { userId, headers } = await linkedTrader('ctrader-down-tp@example.com');
    const { position, operationId } = await openPosition(userId);
    // The process ends (its connection with it); the take-profit is hit while none listens.
    await context.app.close();
    hitTakeProfit(position.takeProfit);
    expect(ctrader.openPositions(DEMO_ACCOUNT.ctidTraderAccountId)).not.toContainEqual(position);
    // A new process on the same database (the next test's cleanup closes it).
    context.app = await replica(
      context,
      { ...lastEnv, ROBOT_ENABLED: 'true', MARKET_TICK_MS: '1000', MARKET_SEED: '11' },
      undefined,
      {
        clock: context.clock,
        realtime: context.publisher,
        robotTimers: false,
        robotStrategy: new FixedSignalStrategy(0.999, ['buy']),
      },
    );
    await expectClosedOnce(userId, operationId, position);
    expect((await unlinkClosing(headers)).statusCode).toBe(200);
  });

  it("a position the user closes in part at the broker: one closed operation when its last part closes, with every part's profit, the balance the fake's", async () => {
    const { app } = context;
    const { userId, headers } = await linkedTrader('ctrader-part@example.com');
    const { position, operationId } = await openPosition(userId);
    expect(position.volume).toBeGreaterThanOrEqual(2 * market.stepVolume);
    const part = Math.floor(position.volume / 2 / market.stepVolume) * market.stepVolume;
    // Half-way to the take-profit, the user closes part of it in their own cTrader application.
    const partBid = Number(((position.price + position.takeProfit) / 2).toFixed(market.digits));
    base = partBid;
    ctrader.setPrice(market.symbolId, partBid, partBid + market.ask - market.bid);
    ctrader.closePart(position.positionId, part);
    const ctid = DEMO_ACCOUNT.ctidTraderAccountId;
    const robot = robotOf(app);
    const deadline = Date.now() + 5000;
    while (
      (await robot.projection(userId))?.figures.balanceCents !== ctrader.balance(ctid) &&
      Date.now() < deadline
    ) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const row = async () =>
      (
        await app.database.db
          .select()
          .from(operations)
          .where(eq(operations.positionId, operationId))
      )[0];
    expect((await robot.projection(userId))?.figures.balanceCents).toBe(ctrader.balance(ctid));
    expect((await row())?.closedAt).toBeNull();

    hitTakeProfit(position.takeProfit);
    const closing = Date.now() + 5000;
    while ((await row())?.closedAt == null && Date.now() < closing) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await robot.settled();
    const rest = position.volume - part;
    expect(await row()).toMatchObject({
      closeReason: 'tp',
      closePrice: Number(
        ((partBid * part + position.takeProfit * rest) / position.volume).toFixed(market.digits),
      ),
      profitCents:
        Math.round((partBid - position.price) * part) +
        Math.round((position.takeProfit - position.price) * rest),
    });
    expect((await robot.projection(userId))?.figures.balanceCents).toBe(ctrader.balance(ctid));
    expect((await unlinkClosing(headers)).statusCode).toBe(200);
  });

  it('a refreshed grant restarts the account on a new connection: the open operation is reconciled by its client order id, nothing is sent again, and it closes into the history', async () => {
    const { app, clock } = context;
    const { userId, robot } = await linkedTrader('ctrader-restart@example.com');
    expect(await tickUntil(async () => (await openCount(userId)) > 0)).toBe(true);
    await robot.settled();
    const [open] = (await robot.projection(userId))?.trades ?? [];
    const orders = ctrader.requests('ProtoOANewOrderReq').length;
    const authorisations = ctrader.requests('ProtoOAAccountAuthReq').length;

    // Within the week before the token expires: refreshed, and the robot takes the new token.
    clock.advance(24 * 24 * 60 * 60_000);
    expect(await app.services.ctraderLinking.refreshDue()).toBe(1);
    expect(ctrader.requests('ProtoOAAccountAuthReq').length).toBeGreaterThan(authorisations);
    expect(ctrader.requests('ProtoOAAccountAuthReq').at(-1)?.body.accessToken).toBe(
      oauth.currentAccessToken,
    );
    // The new run found the position at the broker by its label, the same operation.
    const after = await robot.projection(userId);
    expect(after?.trades.map((trade) => trade.id)).toEqual([open?.id]);
    expect(ctrader.requests('ProtoOANewOrderReq').length).toBe(orders);

    base += 100 * pip();
    const closed = await tickUntil(async () => {
      const [row] = await app.database.db
        .select()
        .from(operations)
        .where(eq(operations.positionId, String(open?.id)));
      return row?.closeReason === 'tp';
    }, 100);
    expect(closed).toBe(true);
    const ids = ctrader.orders
      .map((order) => order.clientOrderId)
      .filter((id) => id?.startsWith(userId));
    expect(new Set(ids).size).toBe(ids.length);
    // The session lapsed with the 24 days: no unlink here; the app's close stops the run.
  });
});

// Forex: the same case on EURUSD. A cTrader run trades by the broker's hours (decision 096,
// addendum 5), and the fake's EURUSD quotes round the clock, so this runs at weekends too.
describe('the robot on a linked cTrader account (EURUSD)', () => {
  const context = useRobotApp(env);
  trading(() => forex, EURUSD);

  it('trades the account on its broker prices, shows it like the built-in platform, and stops when unlinked', () =>
    tradesShowsAndUnlinks(context, 'ctrader-forex@example.com'));
});
