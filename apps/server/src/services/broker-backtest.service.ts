import {
  brokerBacktestDays,
  type BrokerBacktest,
  type BrokerBacktestFailure,
  type BrokerBacktestResult,
} from '@tradebot/contract';
import type {
  BrokerBacktestsStore,
  StoredBrokerBacktest,
} from '../repositories/broker-backtests.repository';
import { NotLinkedToCTrader } from './linking.errors';

const dayMs = 86_400_000;

/** The download's share of the progress bar; the replay takes the rest. */
const downloadShare = 0.6;

/** What the download gives the replay: opaque to this service. */
export interface DownloadedQuotes<Series> {
  readonly series: Series;
  /** Quotes downloaded in all: none is the "no ticks" answer. */
  readonly quotes: number;
}

/** Why a run failed, as the service tells it (the adapters map their errors to these). */
export class BrokerBacktestFailed extends Error {
  constructor(readonly failure: BrokerBacktestFailure) {
    super(`broker backtest failed: ${failure}`);
    this.name = 'BrokerBacktestFailed';
  }
}

export interface BrokerBacktestDependencies<Series> {
  readonly repository: BrokerBacktestsStore;
  /** The linked account's grant, opened, or undefined when it cannot be read. */
  grantOf(
    userId: string,
  ): Promise<{ ctidTraderAccountId: number; accessToken: string } | undefined>;
  /** The broker's quotes from `from` to `to`; `onProgress` with the share done, 0 to 1. */
  download(
    grant: { ctidTraderAccountId: number; accessToken: string },
    from: number,
    to: number,
    onProgress: (done: number) => void,
    signal: AbortSignal,
  ): Promise<DownloadedQuotes<Series>>;
  /** The robot on them (the same backtest as `npm run backtest`); undefined: nothing to replay. */
  replay(
    series: Series,
    risk: number,
    onProgress: (done: number) => void,
    signal: AbortSignal,
  ): Promise<Omit<BrokerBacktestResult, 'from' | 'to'> | undefined>;
  readonly now: () => Date;
  /** A failure that is not the broker's plain answer (logged, never with a token). */
  onFailure(error: unknown): void;
  /** Progress is written at most this often (default 1 s). */
  readonly writeEveryMs?: number;
  /** A running row not written for this long belongs to a process that stopped (default 2 min). */
  readonly staleAfterMs?: number;
}

const none: BrokerBacktest = {
  state: 'none',
  progress: 0,
  days: brokerBacktestDays,
  startedAt: null,
  finishedAt: null,
  result: null,
  failure: null,
};

/**
 * The robot on a linked cTrader account's own recorded prices (issue 36, decision 144): after a
 * link and on request, the broker's ticks of the last `brokerBacktestDays` days are downloaded
 * and replayed in the background, the progress and then the result or the failure written on
 * the link's row, where any process answers it.
 */
export class BrokerBacktestService<Series> {
  private readonly runs = new Map<string, { abort: AbortController; done: Promise<void> }>();

  constructor(private readonly deps: BrokerBacktestDependencies<Series>) {}

  /** The last run of the user's linked cTrader account ('none' before the first). */
  async status(userId: string): Promise<BrokerBacktest> {
    const link = await this.deps.repository.linkOf(userId);
    if (link === undefined) throw new NotLinkedToCTrader();
    return this.view(link.backtest);
  }

  /**
   * Starts a run unless one is under way (then answers it): the answer says `running` at 0%.
   * The run goes on in the background.
   */
  async start(userId: string): Promise<BrokerBacktest> {
    const link = await this.deps.repository.linkOf(userId);
    if (link === undefined) throw new NotLinkedToCTrader();
    const current = this.view(link.backtest);
    if (current.state === 'running') return current;
    const now = this.deps.now();
    const startedAt = now.toISOString();
    const stored: StoredBrokerBacktest = {
      state: 'running',
      progress: 0,
      days: brokerBacktestDays,
      startedAt,
      finishedAt: null,
      result: null,
      failure: null,
      writtenAt: startedAt,
    };
    if (!(await this.deps.repository.write(userId, link.ctidTraderAccountId, stored))) {
      throw new NotLinkedToCTrader();
    }
    this.runs.get(userId)?.abort.abort();
    const abort = new AbortController();
    const done = this.run(userId, link.ctidTraderAccountId, link.risk, stored, abort.signal)
      .catch((error: unknown) => {
        this.deps.onFailure(error);
      })
      .finally(() => {
        if (this.runs.get(userId)?.abort === abort) this.runs.delete(userId);
      });
    this.runs.set(userId, { abort, done });
    return this.view(stored);
  }

  /** After a link: a first run, never failing the link itself. */
  afterLink(userId: string): void {
    this.start(userId).catch((error: unknown) => {
      this.deps.onFailure(error);
    });
  }

  /** Waits for the runs of this process to end (tests). */
  async settled(): Promise<void> {
    await Promise.all([...this.runs.values()].map((run) => run.done));
  }

  /** Stops the runs of this process (the server closes); they are written as interrupted. */
  async close(): Promise<void> {
    const runs = [...this.runs.values()];
    for (const run of runs) run.abort.abort();
    await Promise.all(runs.map((run) => run.done));
  }

  private view(stored: StoredBrokerBacktest | null): BrokerBacktest {
    if (stored === null) return none;
    const { writtenAt, ...backtest } = stored;
    const stale = this.deps.staleAfterMs ?? 120_000;
    if (backtest.state === 'running' && this.deps.now().getTime() - Date.parse(writtenAt) > stale) {
      return { ...backtest, state: 'failed', failure: 'INTERRUPTED', finishedAt: writtenAt };
    }
    return backtest;
  }

  private async run(
    userId: string,
    ctidTraderAccountId: number,
    risk: number,
    started: StoredBrokerBacktest,
    signal: AbortSignal,
  ): Promise<void> {
    const startedAt = started.startedAt ?? '';
    const write = (backtest: Partial<StoredBrokerBacktest>) =>
      this.deps.repository.write(
        userId,
        ctidTraderAccountId,
        { ...started, ...backtest, writtenAt: this.deps.now().toISOString() },
        startedAt,
      );
    let written = Date.parse(startedAt);
    let shown = 0;
    let writing: Promise<unknown> = Promise.resolve();
    const progress = (share: number) => {
      const percent = Math.min(99, Math.floor(share * 100));
      const at = this.deps.now().getTime();
      if (percent <= shown || at - written < (this.deps.writeEveryMs ?? 1000)) return;
      shown = percent;
      written = at;
      writing = writing
        .then(() => write({ progress: percent }))
        .catch((error: unknown) => {
          this.deps.onFailure(error);
        });
    };
    const to = Date.parse(startedAt);
    const from = to - brokerBacktestDays * dayMs;
    try {
      const grant = await this.deps.grantOf(userId);
      if (grant?.ctidTraderAccountId !== ctidTraderAccountId) {
        throw new BrokerBacktestFailed('ACCESS_REFUSED');
      }
      const downloaded = await this.deps.download(
        grant,
        from,
        to,
        (done) => {
          progress(done * downloadShare);
        },
        signal,
      );
      if (downloaded.quotes === 0) throw new BrokerBacktestFailed('NO_TICKS');
      signal.throwIfAborted();
      const result = await this.deps.replay(
        downloaded.series,
        risk,
        (done) => {
          progress(downloadShare + done * (1 - downloadShare));
        },
        signal,
      );
      if (result === undefined) throw new BrokerBacktestFailed('NO_TICKS');
      await writing;
      await write({
        state: 'done',
        progress: 100,
        finishedAt: this.deps.now().toISOString(),
        result: { ...result, from: new Date(from).toISOString(), to: startedAt },
      });
    } catch (error) {
      await writing;
      const failure: BrokerBacktestFailure =
        error instanceof BrokerBacktestFailed
          ? error.failure
          : signal.aborted
            ? 'INTERRUPTED'
            : 'FAILED';
      if (failure === 'FAILED') this.deps.onFailure(error);
      await write({ state: 'failed', finishedAt: this.deps.now().toISOString(), failure });
    }
  }
}
