import { LRUCache } from 'lru-cache';
import {
  type EquityPoint,
  type RealQuotesReport,
  type TrackRecord,
  type TrackRecordSummary,
} from '@tradebot/contract';
import { centsToDollars, type InstrumentCatalogue, type TradeRecord } from '@tradebot/robot';
import type { Clock } from '../repositories/clock';
import {
  houseAccount,
  type StoredTrackRecord,
  type TrackRecordCursor,
  type TrackRecordStore,
} from '../repositories/track-record.repository';
import { tradeRowOf } from '../domain/trading-rows';
import { TrackRecordCursorInvalid } from './track-record.errors';

/** How long an answer is reused: the page polls, many readers share one computation. */
export const trackRecordCacheMs = 5_000;
/** The equity curve keeps about this many points (a chart needs no more). */
const equityMaxPoints = 500;
/** Distinct pages kept at once; beyond that the oldest go. */
const cachedAnswersMax = 256;

export function encodeTrackRecordCursor(trade: TradeRecord): string {
  return `${String(trade.openedAt)}:${trade.positionId}`;
}

function decodeCursor(cursor: string): TrackRecordCursor {
  // Up to 13 digits (until the year 2286): an instant every database parses.
  const match = /^(\d{1,13}):([\w.-]{1,100})$/.exec(cursor);
  if (!match?.[1] || !match[2]) throw new TrackRecordCursorInvalid();
  return { openedAt: Number(match[1]), positionId: match[2] };
}

const ratio = (part: number, whole: number): number | null => (whole === 0 ? null : part / whole);
const dollars = (cents: number | null): number | null =>
  cents === null ? null : centsToDollars(Math.round(cents));

/** The summary the page shows, from the stored figures. */
export function trackRecordSummaryOf(stored: StoredTrackRecord): TrackRecordSummary {
  const { averageWinCents: win, averageLossCents: loss } = stored;
  return {
    startedAt: new Date(stored.openedAt).toISOString(),
    startingBalance: centsToDollars(stored.depositsCents),
    balance: centsToDollars(stored.depositsCents + stored.profitCents),
    profit: centsToDollars(stored.profitCents),
    operations: stored.operations,
    open: stored.open,
    closed: stored.closed,
    wins: stored.wins,
    losses: stored.closed - stored.wins,
    winRate: ratio(stored.wins, stored.closed),
    averageWin: dollars(win),
    averageLoss: dollars(loss),
    // Needs a measured win and a measured loss: one alone says nothing about the other's size.
    breakEvenWinRate: win !== null && loss !== null && win + loss > 0 ? loss / (win + loss) : null,
    geometryBreakEvenRate: stored.geometryBreakEvenRate,
    model: {
      forecasts: stored.forecasts,
      accuracy: stored.accuracy,
      brierScore: stored.brierScore,
      coinFlipAccuracy: 0.5,
      coinFlipBrierScore: 0.25,
      baseRate: stored.baseRate,
      baseRateAccuracy: stored.baseRateAccuracy,
      baseRateBrierScore: stored.baseRateBrierScore,
      meanProbability: stored.meanProbability,
      calibration: [...stored.calibration],
    },
  };
}

/**
 * The public track record: every figure is computed from the stored operations, so a restart
 * (or another process) shows the same record. Answers are reused for `trackRecordCacheMs`.
 */
export class TrackRecordService {
  /** Answers by query, each for `trackRecordCacheMs` of wall time (lru-cache, decision 090). */
  private readonly answers: LRUCache<string, Promise<TrackRecord>>;

  constructor(
    private readonly repository: TrackRecordStore,
    private readonly catalogue: InstrumentCatalogue,
    /** Whether the robot runs in this process (ROBOT_ENABLED). */
    private readonly running: boolean,
    /** Wall time, for the cache. */
    clock: Clock,
    /** The robot's time: the curve ends at it. */
    private readonly robotNow: () => number,
    /** The same robot on recorded real quotes (real-quotes/, decision 142), as it stands. */
    private readonly realQuotes: () => RealQuotesReport = () => ({ status: 'unavailable' }),
    private readonly accountId: string = houseAccount.accountId,
  ) {
    this.answers = new LRUCache({
      max: cachedAnswersMax,
      ttl: trackRecordCacheMs,
      ttlResolution: 0,
      perf: { now: () => clock.now().getTime() },
    });
  }

  read(query: { limit: number; before?: string | undefined }): Promise<TrackRecord> {
    const before = query.before === undefined ? undefined : decodeCursor(query.before);
    const key = `${String(query.limit)}|${query.before ?? ''}`;
    const cached = this.answers.get(key);
    if (cached) return cached;
    const answer = this.compute(query.limit, before);
    this.answers.set(key, answer);
    answer.catch(() => {
      if (this.answers.peek(key) === answer) this.answers.delete(key);
    });
    return answer;
  }

  private async compute(
    limit: number,
    before: TrackRecordCursor | undefined,
  ): Promise<TrackRecord> {
    const stored = await this.repository.record(this.accountId);
    if (!stored) {
      return {
        running: this.running,
        summary: null,
        operations: [],
        nextCursor: null,
        equity: [],
        realQuotes: this.realQuotes(),
      };
    }
    const [page, profits] = await Promise.all([
      this.repository.operationsPage(this.accountId, { limit, before }),
      this.repository.profitAfterClosures(this.accountId, equityMaxPoints),
    ]);
    const last = page.trades.at(-1);
    return {
      running: this.running,
      summary: trackRecordSummaryOf(stored),
      // The house account trades the built-in platform: dollars (decision 060).
      operations: page.trades.map((trade) => tradeRowOf(trade, this.catalogue, 'USD')),
      nextCursor: last && page.more ? encodeTrackRecordCursor(last) : null,
      equity: this.equity(stored, profits),
      realQuotes: this.realQuotes(),
    };
  }

  /** The balance at the opening, after each closure, and now; one point per second. */
  private equity(
    stored: StoredTrackRecord,
    profits: readonly { at: number; cents: number }[],
  ): EquityPoint[] {
    const bySecond = new Map<number, number>();
    const second = (ms: number) => Math.floor(ms / 1000);
    bySecond.set(second(stored.openedAt), stored.depositsCents);
    for (const point of profits) {
      bySecond.set(second(point.at), stored.depositsCents + point.cents);
    }
    const nowSecond = second(this.robotNow());
    const lastSecond = Math.max(...bySecond.keys());
    if (nowSecond > lastSecond) {
      bySecond.set(nowSecond, stored.depositsCents + stored.profitCents);
    }
    return [...bySecond]
      .sort(([a], [b]) => a - b)
      .map(([time, cents]) => ({ time, value: centsToDollars(cents) }));
  }
}
