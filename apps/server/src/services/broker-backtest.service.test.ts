import { describe, expect, it } from 'vitest';
import type {
  BrokerBacktestsStore,
  CTraderLinkForBacktest,
  StoredBrokerBacktest,
} from '../repositories/broker-backtests.repository';
import {
  BrokerBacktestFailed,
  BrokerBacktestService,
  type BrokerBacktestDependencies,
} from './broker-backtest.service';
import { NotLinkedToCTrader } from './linking.errors';

/** The broker-prices backtest's service on plain stubs (decision 144). */
class MemoryRepository implements BrokerBacktestsStore {
  readonly writes: StoredBrokerBacktest[] = [];
  link: CTraderLinkForBacktest | undefined = { ctidTraderAccountId: 7, risk: 2, backtest: null };

  linkOf(): Promise<CTraderLinkForBacktest | undefined> {
    return Promise.resolve(this.link);
  }

  write(
    _userId: string,
    account: number,
    backtest: StoredBrokerBacktest,
    startedAt?: string,
  ): Promise<boolean> {
    const link = this.link;
    if (link?.ctidTraderAccountId !== account) return Promise.resolve(false);
    if (startedAt !== undefined && link.backtest?.startedAt !== startedAt) {
      return Promise.resolve(false);
    }
    this.link = { ...link, backtest };
    this.writes.push(backtest);
    return Promise.resolve(true);
  }
}

const grant = { ctidTraderAccountId: 7, accessToken: 'token' };
const summary = {
  instruments: [
    {
      symbol: 'EURUSD',
      quotes: 3,
      first: '2026-11-20T00:00:00.000Z',
      last: '2026-11-25T11:00:00.000Z',
    },
  ],
  leftOut: [],
  operations: 1,
  resultUsd: 2.5,
  depositUsd: 10_000,
  noEdgeShare: 0.9,
  marketOpenMinutes: 100,
};

function service(
  repository: MemoryRepository,
  overrides: Partial<BrokerBacktestDependencies<string[]>> = {},
) {
  let time = Date.parse('2026-11-25T12:00:00Z');
  const failures: unknown[] = [];
  const made = new BrokerBacktestService<string[]>({
    repository,
    grantOf: () => Promise.resolve(grant),
    download: (_grant, _from, _to, onProgress) => {
      for (const share of [0.25, 0.5, 1]) {
        time += 2000;
        onProgress(share);
      }
      return Promise.resolve({ series: ['EURUSD'], quotes: 3 });
    },
    replay: (_series, risk, onProgress) => {
      expect(risk).toBe(2);
      time += 2000;
      onProgress(0.5);
      return Promise.resolve(summary);
    },
    now: () => new Date(time),
    onFailure: (error) => failures.push(error),
    ...overrides,
  });
  return { made, failures, advance: (ms: number) => (time += ms) };
}

async function settle(made: BrokerBacktestService<string[]>): Promise<void> {
  await made.settled();
}

describe('BrokerBacktestService', () => {
  it('refuses a user with no cTrader link', async () => {
    const repository = new MemoryRepository();
    repository.link = undefined;
    const { made } = service(repository);
    await expect(made.status('u')).rejects.toBeInstanceOf(NotLinkedToCTrader);
    await expect(made.start('u')).rejects.toBeInstanceOf(NotLinkedToCTrader);
  });

  it('says none before a run, then running, its progress, and the result over the last 7 days', async () => {
    const repository = new MemoryRepository();
    const { made } = service(repository);
    expect((await made.status('u')).state).toBe('none');
    const started = await made.start('u');
    expect(started).toMatchObject({ state: 'running', progress: 0, days: 7 });
    await settle(made);
    const done = await made.status('u');
    expect(done).toMatchObject({ state: 'done', progress: 100, failure: null });
    expect(done.result).toEqual({
      ...summary,
      from: '2026-11-18T12:00:00.000Z',
      to: '2026-11-25T12:00:00.000Z',
    });
    // The download is 60% of the bar and the replay the rest; never back.
    expect(repository.writes.map((w) => w.progress)).toEqual([0, 15, 30, 60, 80, 100]);
  });

  it('says no ticks, and the broker failure the download names', async () => {
    const empty = new MemoryRepository();
    const noTicks = service(empty, {
      download: () => Promise.resolve({ series: [], quotes: 0 }),
    });
    await noTicks.made.start('u');
    await settle(noTicks.made);
    expect(await noTicks.made.status('u')).toMatchObject({ state: 'failed', failure: 'NO_TICKS' });

    const down = new MemoryRepository();
    const unreachable = service(down, {
      download: () => Promise.reject(new BrokerBacktestFailed('BROKER_UNAVAILABLE')),
    });
    await unreachable.made.start('u');
    await settle(unreachable.made);
    expect(await unreachable.made.status('u')).toMatchObject({
      state: 'failed',
      failure: 'BROKER_UNAVAILABLE',
    });
    expect(unreachable.failures).toEqual([]);

    const broken = service(new MemoryRepository(), {
      replay: () => Promise.reject(new Error('boom')),
    });
    await broken.made.start('u');
    await settle(broken.made);
    expect(await broken.made.status('u')).toMatchObject({ state: 'failed', failure: 'FAILED' });
    expect(broken.failures).toHaveLength(1);
  });

  it('answers the run under way instead of starting another, and calls a silent one interrupted', async () => {
    const repository = new MemoryRepository();
    let release: () => void = () => undefined;
    const { made, advance } = service(repository, {
      download: () =>
        new Promise((resolve) => {
          release = () => {
            resolve({ series: ['EURUSD'], quotes: 3 });
          };
        }),
    });
    const first = await made.start('u');
    const second = await made.start('u');
    expect(second.startedAt).toBe(first.startedAt);
    // A run that stopped writing for more than two minutes belongs to a process that stopped.
    advance(121_000);
    expect(await made.status('u')).toMatchObject({ state: 'failed', failure: 'INTERRUPTED' });
    release();
    await settle(made);
  });

  it('a grant for another account is refused, never read as this one', async () => {
    const repository = new MemoryRepository();
    const { made } = service(repository, {
      grantOf: () => Promise.resolve({ ctidTraderAccountId: 8, accessToken: 't' }),
    });
    await made.start('u');
    await settle(made);
    expect(await made.status('u')).toMatchObject({ state: 'failed', failure: 'ACCESS_REFUSED' });
  });
});
