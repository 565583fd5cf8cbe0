import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { brokerBacktestDays, type BrokerBacktest } from '@tradebot/contract';
import {
  DEMO_ACCOUNT,
  EURUSD,
  FAKE_APP,
  FakeCTraderOAuthServer,
  FakeCTraderServer,
  NZDUSD,
  XAUUSD,
  fakeOptions,
  serveRecordedTicks,
} from '@tradebot/robot/ctrader/fake';
import { v1 } from './helpers/accounts';
import { useTestApp } from './helpers/app';
import { ctraderEnv, linkCTraderAccount } from './helpers/ctrader';
import { paidUser } from './helpers/linking';

/**
 * The robot on a linked account's own prices (issue 36, decision 144), against the fake cTrader
 * serving the shared OANDA sample moved into the last days: linking starts the run, its progress
 * is answered while it goes, and the result names the instruments, operations, result and the
 * share of market-open time in "no edge". The fake refuses historical requests past five a
 * second and pages its answers: the run keeps within both.
 */
const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
const oanda = path.resolve(repoRoot, '..', 'shared', 'market-data', 'oanda-2014-05');

let ctrader: FakeCTraderServer;
let oauth: FakeCTraderOAuthServer;

beforeAll(async () => {
  // The broker lists gold too, with no recorded past: its download gives its current quote.
  ctrader = new FakeCTraderServer(
    fakeOptions({
      symbols: [EURUSD, NZDUSD, XAUUSD],
      tickDataChunkSize: 20_000,
      tickHistoryLimit: 2_000_000,
    }),
  );
  await ctrader.listen();
  // Two days of the sample in the last week: enough to replay on a loaded machine.
  await serveRecordedTicks(ctrader, oanda, [EURUSD, NZDUSD], { days: 2 });
  oauth = new FakeCTraderOAuthServer({ ...FAKE_APP, accessToken: DEMO_ACCOUNT.accessToken });
  await oauth.listen();
}, 60_000);
afterAll(async () => {
  await oauth.close();
  await ctrader.close();
});

const context = useTestApp(() => ctraderEnv(ctrader, oauth));

it("runs the robot on the linked account's recorded ticks after linking, with progress", async () => {
  const { app } = context;
  const { headers } = await paidUser(app, 'ticks@example.com');
  const read = async () => {
    const answer = await app.inject({ method: 'GET', url: `${v1}/ctrader/backtest`, headers });
    expect(answer.statusCode).toBe(200);
    return answer.json<{ data: BrokerBacktest }>().data;
  };
  // Not linked to cTrader: a plain 409 in the user's language.
  const before = await app.inject({ method: 'GET', url: `${v1}/ctrader/backtest`, headers });
  expect(before.statusCode).toBe(409);
  expect(before.json<{ message: string }>().message).toMatch(/cTrader/);

  await linkCTraderAccount(app, headers, DEMO_ACCOUNT.ctidTraderAccountId);
  const seen: number[] = [];
  let state = await read();
  expect(state.state).toBe('running');
  const deadline = performance.now() + 150_000;
  while (state.state === 'running' && performance.now() < deadline) {
    seen.push(state.progress);
    await new Promise((resolve) => setTimeout(resolve, 250));
    state = await read();
  }
  expect(state.state, JSON.stringify(state)).toBe('done');
  expect(state.progress).toBe(100);
  // The bar moved between the start and the end, never back.
  expect(seen.some((p) => p > 0 && p < 100)).toBe(true);
  expect(seen).toEqual([...seen].sort((a, b) => a - b));
  const result = state.result;
  // Gold has no recorded past at the fake: only its current quote.
  expect(result?.instruments.map((i) => [i.symbol, i.quotes > 1000])).toEqual([
    ['EURUSD', true],
    ['NZDUSD', true],
    ['XAUUSD', false],
  ]);
  expect(Date.parse(result?.to ?? '') - Date.parse(result?.from ?? '')).toBe(
    brokerBacktestDays * 86_400_000,
  );
  // Which hours of the week the two days hold depends on today; some are market-open.
  expect(result?.marketOpenMinutes).toBeGreaterThan(0);
  expect(result?.noEdgeShare).toBeGreaterThanOrEqual(0);
  expect(result?.noEdgeShare).toBeLessThanOrEqual(1);
  expect(result?.depositUsd).toBe(10_000);
  expect(Number.isInteger(result?.operations)).toBe(true);

  // Paged and paced: more than one page a side, never refused for frequency.
  const requests = ctrader.requests('ProtoOAGetTickDataReq');
  expect(requests.length).toBeGreaterThan(6);
  expect(ctrader.received.filter((m) => m.name === 'ProtoOAErrorRes')).toEqual([]);

  // Run again on request: answered at once as running, then done again.
  const again = await app.inject({ method: 'POST', url: `${v1}/ctrader/backtest`, headers });
  expect(again.statusCode).toBe(202);
  expect(again.json<{ data: BrokerBacktest }>().data).toMatchObject({
    state: 'running',
    progress: 0,
  });
  // Asked again while it runs: the same run.
  const twice = await app.inject({ method: 'POST', url: `${v1}/ctrader/backtest`, headers });
  expect(twice.json<{ data: BrokerBacktest }>().data.startedAt).toBe(
    again.json<{ data: BrokerBacktest }>().data.startedAt,
  );
}, 200_000);
