import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DEMO_ACCOUNT,
  EURUSD,
  eurusdOpenAt,
  FAKE_APP,
  FakeCTraderOAuthServer,
  FakeCTraderServer,
  fakeOptions,
} from '@tradebot/robot/ctrader/fake';
import { notificationOutbox, operations, userSettings } from '../src/db/schema';
import { effectiveRobotSettings } from '../src/domain/robot-settings';
import { allCategoriesEnabled } from '../src/repositories/users.repository';
import { v1, validRegistration } from './helpers/accounts';
import {
  ctraderEnv,
  linkCTraderAccount,
  linkedCTraderTrader,
  moveEurusdUntil,
} from './helpers/ctrader';
import { paidUser } from './helpers/linking';
import { robotOf, useRobotApp } from './helpers/trading';

/**
 * The robot trading a linked cTrader account (decision 096), against the fake Open API and the
 * fake Spotware OAuth: linked through OAuth2, prices from the account's spot subscription, market
 * orders with the published geometry in the broker's units, fills and closures in the same
 * operations, projection and real-time channel as the built-in platform; unlinked, it stops.
 */

let ctrader: FakeCTraderServer;
let oauth: FakeCTraderOAuthServer;

beforeAll(async () => {
  ctrader = new FakeCTraderServer(fakeOptions());
  await ctrader.listen();
  oauth = new FakeCTraderOAuthServer({
    ...FAKE_APP,
    accessToken: DEMO_ACCOUNT.accessToken,
    onTokenReplaced: (previous, next) => {
      ctrader.replaceToken(previous, next);
    },
  });
  await oauth.listen();
});
afterAll(async () => {
  await oauth.close();
  await ctrader.close();
});

const env = () => ctraderEnv(ctrader, oauth);
const linkDemo = (app: FastifyInstance, headers: Record<string, string>) =>
  linkCTraderAccount(app, headers, DEMO_ACCOUNT.ctidTraderAccountId);

/** Where the fake's EURUSD trades now (a test moves it to hit a take-profit). */
let base = EURUSD.bid;

/** Moves the fake's EURUSD price a step at a time until `done`; false after `max` steps. */
const tickUntil = (done: () => Promise<boolean>, max = 200) =>
  moveEurusdUntil(ctrader, base, done, max);

// The fake's prices carry the wall clock: on a weekend the forex market is closed and the robot
// rightly trades nothing, so these cases run while it is open (decision 096, amended).
describe.skipIf(!eurusdOpenAt())('the robot on a linked cTrader account', () => {
  const context = useRobotApp(env);

  /** A paid user linked to the fake's demo account through OAuth, robot on in every category. */
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

  it('trades the account on its broker prices, shows it like the built-in platform, and stops when unlinked', async () => {
    const { app, publisher } = context;
    const { userId, headers } = await paidUser(app, 'ctrader-robot@example.com');
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
    const pip = 100_000 / 10 ** EURUSD.pipPosition;
    expect(body.relativeTakeProfit).toBe(pip);
    const spread = 12;
    expect(body.relativeStopLoss).toBe(spread + 5 * (spread + pip));
    const volume = Number(body.volume);
    expect(volume).toBeGreaterThanOrEqual(EURUSD.minVolume);
    expect(volume % EURUSD.stepVolume).toBe(0);

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
    base += 0.01;
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
  });

  it('an order executed while the connection dropped is reconciled by its client order id after the reconnection: recorded once, never sent twice; then trading goes on', async () => {
    const { app } = context;
    const { userId, headers, robot } = await linkedTrader('ctrader-drop@example.com');
    expect(await tickUntil(async () => (await openCount(userId)) > 0)).toBe(true);
    // The first operation closes at its take-profit, so the instrument is free again.
    base += 0.01;
    expect(await tickUntil(async () => (await openCount(userId)) === 0, 100)).toBe(true);
    await robot.settled();
    const sentBefore = ctrader.requests('ProtoOANewOrderReq').length;
    ctrader.failNextOrder('drop-after-execution');
    base += 0.001;
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

  it('a grant the broker stops accepting: the robot opens nothing more there, the dashboard asks to link again (es, pt) and the user is notified once', async () => {
    const { app } = context;
    const { userId, headers, robot } = await linkedTrader('ctrader-expired@example.com');
    await tickUntil(() => Promise.resolve(false), 3);
    ctrader.expireToken(DEMO_ACCOUNT.accessToken);
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
      base += 0.002;
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
      ctrader.replaceToken(DEMO_ACCOUNT.accessToken, DEMO_ACCOUNT.accessToken);
    }
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

    base += 0.01;
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
