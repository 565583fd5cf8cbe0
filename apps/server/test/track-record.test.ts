import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { builtInPlatform, trackRecordResponseSchema, type TrackRecord } from '@tradebot/contract';
import { FixedSignalStrategy, type TradeRecord } from '@tradebot/robot';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import { AdminUsersRepository } from '../src/repositories/admin-users.repository';
import { PartnerReportRepository } from '../src/repositories/partner-report.repository';
import { houseAccount } from '../src/repositories/track-record.repository';
import { manualClock, registeredToken, v1 } from './helpers/accounts';
import { useTestApp } from './helpers/app';
import { createTestDatabase } from './helpers/database';
import {
  marketTickMs,
  robotOf,
  runMarket,
  storedTrades,
  useRobotApp,
  useWorkerRobotApp,
  type RobotTestContext,
} from './helpers/trading';

const house = houseAccount.accountId;

async function read(app: FastifyInstance, query = ''): Promise<TrackRecord> {
  const response = await app.inject({ url: `${v1}/track-record${query}` });
  expect(response.statusCode).toBe(200);
  return trackRecordResponseSchema.parse(response.json()).data;
}

/** Waits out the answers' cache (5 s of the app's clock). */
function pastTheCache(context: RobotTestContext) {
  context.clock.advance(6_000);
}

async function closedHouseTrades(app: FastifyInstance): Promise<TradeRecord[]> {
  return (await storedTrades(app, house)).filter((trade) => trade.closeReason !== 'open');
}

/** The figures computed here, from the stored operations, without the server's SQL. */
function independently(all: readonly TradeRecord[]) {
  const closed = all
    .filter((trade) => trade.closeReason !== 'open')
    .sort(
      (a, b) =>
        (a.closedAt ?? 0) - (b.closedAt ?? 0) ||
        (a.positionId < b.positionId ? -1 : a.positionId > b.positionId ? 1 : 0),
    );
  const profits = closed.map((trade) => trade.profitCents ?? 0);
  const wins = profits.filter((cents) => cents > 0);
  const losses = profits.filter((cents) => cents <= 0).map((cents) => -cents);
  const mean = (values: readonly number[]) =>
    values.length === 0 ? null : values.reduce((sum, value) => sum + value, 0) / values.length;
  let tpSoFar = 0;
  let scoredSoFar = 0;
  const scored = closed
    .filter((trade) => trade.closeReason === 'tp' || trade.closeReason === 'sl')
    .map((trade) => {
      const outcome = trade.closeReason === 'tp' ? 1 : 0;
      const baseRate = scoredSoFar === 0 ? 0.5 : tpSoFar / scoredSoFar;
      tpSoFar += outcome;
      scoredSoFar++;
      return { p: trade.probability, outcome, baseRate, positionId: trade.positionId };
    });
  const averageWin = mean(wins);
  const averageLoss = mean(losses);
  const hit = (p: number, outcome: number) => ((p >= 0.5 ? 1 : 0) === outcome ? 1 : 0);
  return {
    operations: all.length,
    open: all.length - closed.length,
    closed: closed.length,
    wins: wins.length,
    losses: losses.length,
    profitCents: profits.reduce((sum, cents) => sum + cents, 0),
    winRate: closed.length === 0 ? null : wins.length / closed.length,
    averageWin,
    averageLoss,
    breakEvenWinRate:
      averageWin === null || averageLoss === null ? null : averageLoss / (averageWin + averageLoss),
    geometry: mean(all.map((trade) => trade.breakEvenProbability)),
    forecasts: scored.length,
    accuracy: mean(scored.map((s) => hit(s.p, s.outcome))),
    brier: mean(scored.map((s) => (s.p - s.outcome) ** 2)),
    baseRate: mean(scored.map((s) => s.outcome)),
    baseRateAccuracy: mean(scored.map((s) => hit(s.baseRate, s.outcome))),
    baseRateBrier: mean(scored.map((s) => (s.baseRate - s.outcome) ** 2)),
    meanProbability: mean(scored.map((s) => s.p)),
    calibration: deciles(scored),
  };
}

/** Postgres' ntile(10) by claimed probability: the first n mod 10 groups hold one more. */
function deciles(scored: readonly { p: number; outcome: number; positionId: string }[]) {
  const sorted = [...scored].sort((a, b) =>
    a.p === b.p ? (a.positionId < b.positionId ? -1 : 1) : a.p - b.p,
  );
  const base = Math.floor(sorted.length / 10);
  const extra = sorted.length % 10;
  const rows = [];
  let start = 0;
  for (let decile = 1; decile <= 10; decile++) {
    const size = base + (decile <= extra ? 1 : 0);
    if (size === 0) continue;
    const group = sorted.slice(start, start + size);
    start += size;
    rows.push({
      decile,
      claimed: group.reduce((sum, s) => sum + s.p, 0) / size,
      hit: group.reduce((sum, s) => sum + s.outcome, 0) / size,
      count: size,
    });
  }
  return rows;
}

function expectClose(actual: number | null, expected: number | null) {
  if (expected === null) expect(actual).toBeNull();
  else expect(actual).toBeCloseTo(expected, 9);
}

describe('the track record: the robot trading its own account (decision 060)', () => {
  const context = useRobotApp({ TRACK_RECORD_ENABLED: 'true' });

  it('opens the account at start with the published rules, and keeps it out of the user lists', async () => {
    const { app } = context;
    const robot = robotOf(app);
    expect(robot.hasAccount(house)).toBe(true);
    expect((await robot.accountStatus(house)).idleReason).not.toBe('ROBOT_OFF');
    const record = await read(app);
    expect(record.running).toBe(true);
    expect(record.summary).toMatchObject({
      startingBalance: builtInPlatform.startingBalanceCents / 100,
      balance: builtInPlatform.startingBalanceCents / 100,
      operations: 0,
      winRate: null,
      breakEvenWinRate: null,
      model: {
        forecasts: 0,
        accuracy: null,
        coinFlipAccuracy: 0.5,
        coinFlipBrierScore: 0.25,
        calibration: [],
      },
    });
    expect(record.operations).toEqual([]);

    await registeredToken(app, 'robin@example.com');
    const admin = new AdminUsersRepository(app.database.db);
    for (const query of ['robot', 'Tradebot', 'track-record', 'o']) {
      expect((await admin.search(query, 100)).map((row) => row.user.id)).not.toContain(house);
    }
    const report = await new PartnerReportRepository(app.database.db).registrations(
      'partner_id',
      new Date('2000-01-01T00:00:00Z'),
      new Date('2100-01-01T00:00:00Z'),
    );
    expect(report.total).toBe(1);
  });

  it('answers figures equal to a computation over the stored operations, and the curve ends at the balance', async () => {
    const { app } = context;
    const enough = await runMarket(
      context,
      async () => (await closedHouseTrades(app)).length >= 8,
      900,
    );
    expect(enough).toBe(true);
    pastTheCache(context);
    const record = await read(app, '?limit=200');
    const summary = record.summary;
    if (!summary) throw new Error('no summary');
    const expected = independently(await storedTrades(app, house));
    expect(summary).toMatchObject({
      operations: expected.operations,
      open: expected.open,
      closed: expected.closed,
      wins: expected.wins,
      losses: expected.losses,
      profit: expected.profitCents / 100,
      balance: (builtInPlatform.startingBalanceCents + expected.profitCents) / 100,
    });
    expectClose(summary.winRate, expected.winRate);
    expectClose(
      summary.averageWin,
      expected.averageWin === null ? null : Math.round(expected.averageWin) / 100,
    );
    expectClose(
      summary.averageLoss,
      expected.averageLoss === null ? null : Math.round(expected.averageLoss) / 100,
    );
    expectClose(summary.breakEvenWinRate, expected.breakEvenWinRate);
    expectClose(summary.geometryBreakEvenRate, expected.geometry);
    expect(summary.model.forecasts).toBe(expected.forecasts);
    expectClose(summary.model.accuracy, expected.accuracy);
    expectClose(summary.model.brierScore, expected.brier);
    expectClose(summary.model.baseRate, expected.baseRate);
    expectClose(summary.model.baseRateAccuracy, expected.baseRateAccuracy);
    expectClose(summary.model.baseRateBrierScore, expected.baseRateBrier);
    expectClose(summary.model.meanProbability, expected.meanProbability);
    // Decision 093: claimed against hit by decile of the claim.
    expect(summary.model.calibration.map((row) => [row.decile, row.count])).toEqual(
      expected.calibration.map((row) => [row.decile, row.count]),
    );
    summary.model.calibration.forEach((row, i) => {
      expectClose(row.claimed, expected.calibration[i]?.claimed ?? null);
      expectClose(row.hit, expected.calibration[i]?.hit ?? null);
    });
    // Every operation is listed, the open ones too.
    expect(record.operations).toHaveLength(expected.operations);
    expect(record.equity[0]?.value).toBe(builtInPlatform.startingBalanceCents / 100);
    expect(record.equity.at(-1)?.value).toBe(summary.balance);
    const times = record.equity.map((point) => point.time);
    expect(times).toEqual([...new Set(times)].sort((a, b) => a - b));
  });

  it('pages every operation newest first with a cursor, validates its query, and is cached briefly', async () => {
    const { app } = context;
    await runMarket(context, async () => (await storedTrades(app, house)).length >= 5, 900);
    pastTheCache(context);
    const all = [...(await storedTrades(app, house))].sort(
      (a, b) =>
        b.openedAt - a.openedAt ||
        (a.positionId < b.positionId ? 1 : a.positionId > b.positionId ? -1 : 0),
    );
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: TrackRecord = await read(
        app,
        `?limit=2${cursor ? `&before=${encodeURIComponent(cursor)}` : ''}`,
      );
      expect(page.operations.length).toBeLessThanOrEqual(2);
      seen.push(...page.operations.map((row) => row.id));
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toEqual(all.map((trade) => trade.positionId));

    // A cursor from before the first operation ends the list; one past 13 digits is refused.
    expect((await read(app, '?before=1:P1')).operations).toEqual([]);
    expect((await read(app, '?before=9999999999999:P1')).operations).toHaveLength(
      Math.min(all.length, 50),
    );
    const response = await app.inject({ url: `${v1}/track-record` });
    expect(response.headers['cache-control']).toBe('public, max-age=5');
    // Within the cache's seconds the answer is the same, whatever happened since.
    const before = await read(app);
    await runMarket(context, async () => false, 3);
    expect(await read(app)).toEqual(before);

    for (const query of [
      '?limit=0',
      '?limit=201',
      '?limit=two',
      '?before=yesterday',
      '?before=1:a%20b',
      '?before=99999999999999:P1',
    ]) {
      const bad = await app.inject({
        url: `${v1}/track-record${query}`,
        headers: { 'accept-language': 'pt' },
      });
      expect(bad.statusCode, query).toBe(422);
      expect(bad.json()).toMatchObject({
        code: 'VALIDATION_FAILED',
        message: 'Verifique os dados enviados.',
      });
    }
  });
});

describe('the track record across a restart', () => {
  it('keeps the same account and every operation; the robot trades on', async () => {
    const testDatabase = await createTestDatabase();
    const dataDir = path.join(os.tmpdir(), `tradebot-test-${testDatabase.schema}`);
    const clock = manualClock(new Date('2026-11-21T12:00:00Z'));
    const start = async () => {
      const config = loadConfig({
        NODE_ENV: 'test',
        LOG_LEVEL: 'silent',
        DATA_DIR: dataDir,
        WEB_DIST_DIR: path.join(os.tmpdir(), 'tradebot-no-web-build'),
        ROBOT_ENABLED: 'true',
        ROBOT_THREAD: 'inline',
        TRACK_RECORD_ENABLED: 'true',
        MARKET_TICK_MS: String(marketTickMs),
        MARKET_SEED: '11',
      });
      const app = await buildApp(config, {
        rateLimitRedisPrefix: `test:${testDatabase.schema}:rate-limit:`,
        database: testDatabase.database,
        clock,
        robotTimers: false,
        robotStrategy: new FixedSignalStrategy(0.999, ['buy']),
      });
      await app.ready();
      return app;
    };
    const run = async (app: FastifyInstance, done: () => Promise<boolean>) => {
      const robot = robotOf(app);
      for (let tick = 0; tick < 900 && !(await done()); tick++) {
        clock.advance(marketTickMs);
        await robot.advance();
        await robot.settled();
      }
    };
    try {
      const first = await start();
      await run(first, async () => (await closedHouseTrades(first)).length >= 3);
      clock.advance(6_000);
      const before = await read(first, '?limit=200');
      await first.close();

      const second = await start();
      try {
        const after = await read(second, '?limit=200');
        expect(after.summary?.startedAt).toBe(before.summary?.startedAt);
        expect(after.summary?.closed).toBe(before.summary?.closed);
        expect(after.summary?.profit).toBe(before.summary?.profit);
        const closedBefore = before.operations.filter((row) => row.status === 'closed');
        expect(after.operations.filter((row) => closedBefore.some((b) => b.id === row.id))).toEqual(
          closedBefore,
        );
        const count = before.summary?.operations ?? 0;
        await run(second, async () => (await storedTrades(second, house)).length > count);
        clock.advance(6_000);
        expect((await read(second)).summary?.operations).toBeGreaterThan(count);
      } finally {
        await second.close();
      }
    } finally {
      await testDatabase.drop();
      await fs.rm(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});

describe('the track record with the robot in its worker thread', () => {
  const context = useWorkerRobotApp({ TRACK_RECORD_ENABLED: 'true', ROBOT_WARM_UP_MS: '0' });

  it('opens the account there and answers its record', async () => {
    expect(robotOf(context.app).hasAccount(house)).toBe(true);
    const record = await read(context.app);
    expect(record.running).toBe(true);
    expect(record.summary?.startingBalance).toBe(builtInPlatform.startingBalanceCents / 100);
  });
});

describe('the track record without a robot in this server (ROBOT_ENABLED=false)', () => {
  const context = useTestApp({ TRACK_RECORD_ENABLED: 'true' });

  it('says the robot is not running, with nothing recorded', async () => {
    expect(await read(context.app)).toEqual({
      running: false,
      summary: null,
      operations: [],
      nextCursor: null,
      equity: [],
      // No recorded quotes in this test's server (RECORDED_QUOTES_DIR=off).
      realQuotes: { status: 'unavailable' },
    });
  });
});
