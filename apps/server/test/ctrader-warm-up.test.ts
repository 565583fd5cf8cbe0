import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import {
  InstrumentCatalogue,
  SignalModel,
  type Instrument,
  type Signal,
  type Strategy,
  type TradingCosts,
  type Tick,
} from '@tradebot/robot';
import {
  BTCUSD,
  DEMO_ACCOUNT,
  FAKE_APP,
  FakeCTraderOAuthServer,
  FakeCTraderServer,
  fakeOptions,
  type FakeQuote,
} from '@tradebot/robot/ctrader/fake';
import { userSettings } from '../src/db/schema';
import { allCategoriesEnabled } from '../src/repositories/users.repository';
import { CTraderRuns } from '../src/robot/worker/ctrader-runs';
import { ctraderEnv, linkCTraderAccount } from './helpers/ctrader';
import { useTestApp } from './helpers/app';
import { paidUser } from './helpers/linking';

/**
 * A linked cTrader account's model learns from that broker's own recent ticks before its first
 * decision (decision 096, amended): read with ProtoOAGetTickDataReq from the fake, fed in time
 * order before any live tick, never a simulated one; meanwhile the robot says it is learning.
 */

let ctrader: FakeCTraderServer;
let oauth: FakeCTraderOAuthServer;
/** What the fake quoted in the half hour before the test: a BTCUSD walk, a quote a second. */
let past: FakeQuote[];
const warmUpMs = 30 * 60_000;

beforeAll(async () => {
  // 5 USD a bitcoin on each side of a trade: the model's break-even counts it.
  const commission = { commissionType: 'USD_PER_LOT', preciseTradingCommissionRate: 5e8 };
  ctrader = new FakeCTraderServer(
    fakeOptions({ symbols: [{ ...BTCUSD, commission }], tickDataChunkSize: 1000 }),
  );
  await ctrader.listen();
  oauth = new FakeCTraderOAuthServer({ ...FAKE_APP, accessToken: DEMO_ACCOUNT.accessToken });
  await oauth.listen();
  const start = Date.now() - warmUpMs + 60_000;
  let bid = BTCUSD.bid;
  let seed = 7;
  past = [];
  for (let i = 0; i < 1500; i++) {
    seed = (seed * 48_271) % 2_147_483_647;
    bid = Number((bid + ((seed % 121) - 60 || 1)).toFixed(2));
    past.push({ time: start + i * 1000, bid, ask: Number((bid + 31).toFixed(2)) });
  }
  ctrader.pastPrices(BTCUSD.symbolId, past);
});
afterAll(async () => {
  await oauth.close();
  await ctrader.close();
});

const context = useTestApp(() => ctraderEnv(ctrader, oauth));
let runs: CTraderRuns | undefined;
afterEach(async () => {
  await runs?.stop();
  runs = undefined;
});

/** The signal model, with every tick it is given recorded. */
class Recorded implements Strategy {
  readonly ticks: Tick[] = [];
  constructor(readonly model: SignalModel) {}
  onTick(tick: Tick, instrument: Instrument): Signal | undefined {
    this.ticks.push(tick);
    return this.model.onTick(tick, instrument);
  }
}

it("learns from the broker's recent ticks before the first live one, and says so meanwhile", async () => {
  const { app } = context;
  const { userId, headers } = await paidUser(app, 'warm@example.com');
  await app.database.db
    .update(userSettings)
    .set({ botOn: true, categoriesEnabled: allCategoriesEnabled })
    .where(eq(userSettings.userId, userId));
  await linkCTraderAccount(app, headers, DEMO_ACCOUNT.ctidTraderAccountId);

  const strategy = new Recorded(new SignalModel());
  const errors: unknown[] = [];
  const warmedUp: string[] = [];
  let costs: TradingCosts | undefined;
  runs = new CTraderRuns({
    db: app.database.db,
    catalogue: new InstrumentCatalogue(),
    connection: { host: '127.0.0.1', port: ctrader.port, tls: false, ...FAKE_APP },
    events: { publish: () => undefined },
    strategy: (given) => {
      costs = given;
      return strategy;
    },
    onError: (error) => errors.push(error),
    onWarmedUp: (accountId) => warmedUp.push(accountId),
    warmUpMs,
  });
  const started = await runs.sync([
    {
      accountId: userId,
      ctidTraderAccountId: DEMO_ACCOUNT.ctidTraderAccountId,
      accessToken: DEMO_ACCOUNT.accessToken,
      live: false,
    },
  ]);
  expect(started).toEqual([userId]);
  // The history is still on its way: the robot says it is learning, and the model has nothing.
  expect(runs.warming(userId)).toBe(true);
  expect(runs.accountStatus(userId).idleReason).toBe('WARMING_UP');
  expect(strategy.ticks).toEqual([]);

  const deadline = performance.now() + 10_000;
  while (runs.warming(userId) && performance.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  expect(runs.warming(userId)).toBe(false);
  expect(errors).toEqual([]);
  // The end is told once, so the dashboard stops saying WARMING_UP without a reload.
  await expect.poll(() => warmedUp).toEqual([userId]);
  // The account's strategy was given the broker's commission: 5 USD a bitcoin each way.
  const btc = new InstrumentCatalogue().require('BTCUSD');
  const cost = costs?.(btc, { symbol: 'BTCUSD', time: Date.now(), bid: 60_000, ask: 60_010 });
  expect(cost).toBeCloseTo(10, 9);
  expect(runs.accountStatus(userId).idleReason).not.toBe('WARMING_UP');

  // Before any live move: the model learned from the broker's quotes alone, every one in its
  // window, in time order, with nothing simulated in between; then the fake's current price (its
  // last quote, and the subscription's first spot, held while the history was read).
  const inWindow = past.filter((quote) => quote.time >= Date.now() - warmUpMs - 60_000);
  expect(inWindow.length).toBeGreaterThan(1000);
  expect(strategy.ticks.slice(0, inWindow.length)).toEqual(
    inWindow.map((quote) => ({ symbol: 'BTCUSD', ...quote })),
  );
  const current = strategy.ticks.slice(inWindow.length);
  expect(current.length).toBeGreaterThan(0);
  expect(current.length).toBeLessThanOrEqual(2);
  for (const tick of current) expect(tick).toMatchObject({ bid: BTCUSD.bid, ask: BTCUSD.ask });
  const times = strategy.ticks.map((tick) => tick.time);
  expect(times).toEqual([...times].sort((a, b) => a - b));
  expect(strategy.model.outcomeCounts().get('BTCUSD')).toBeGreaterThan(0);
  // Two sides, two pages each (1,000 a page): the broker's history, read as the API pages it.
  // (The link also starts the broker-prices backtest, decision 144, which reads its own 7 days.)
  const warmUpReads = ctrader
    .requests('ProtoOAGetTickDataReq')
    .filter(
      ({ body }) => Number(body.toTimestamp) - Number(body.fromTimestamp) <= warmUpMs + 3_600_000,
    );
  expect(warmUpReads).toHaveLength(4);

  // Live ticks follow the history.
  ctrader.setPrice(BTCUSD.symbolId, 63_000, 63_031);
  const live = performance.now() + 5000;
  const before = strategy.ticks.length;
  while (strategy.ticks.length === before && performance.now() < live) {
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  expect(strategy.ticks.at(-1)).toMatchObject({ symbol: 'BTCUSD', bid: 63_000, ask: 63_031 });
});
