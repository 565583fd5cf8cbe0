import type { RealQuotesReport } from '@tradebot/contract';
import { InstrumentCatalogue, type TradeRecord } from '@tradebot/robot';
import { describe, expect, it } from 'vitest';
import {
  houseAccount,
  type ProfitPoint,
  type StoredTrackRecord,
  type TrackRecordCursor,
  type TrackRecordStore,
} from '../repositories/track-record.repository';
import { TrackRecordCursorInvalid } from './track-record.errors';
import {
  encodeTrackRecordCursor,
  TrackRecordService,
  trackRecordCacheMs,
} from './track-record.service';

const wall = new Date('2026-11-21T12:00:00Z');
const openedAt = Date.parse('2026-11-01T00:00:00.400Z');
const robotNow = Date.parse('2026-11-21T11:59:59.900Z');

/** $10,000 deposited; 10 operations, 8 closed (5 won), $123.45 made. */
const stored: StoredTrackRecord = {
  openedAt,
  depositsCents: 1_000_000,
  operations: 10,
  open: 2,
  closed: 8,
  wins: 5,
  profitCents: 12_345,
  averageWinCents: 4_000.4,
  averageLossCents: 2_000,
  geometryBreakEvenRate: 0.4,
  forecasts: 8,
  accuracy: 0.625,
  brierScore: 0.21,
  baseRate: 0.5,
  baseRateAccuracy: 0.5,
  baseRateBrierScore: 0.25,
  meanProbability: 0.6,
  calibration: [],
};

/** A closed (or open) EURUSD operation of the house account. */
function trade(positionId: string, fields: Partial<TradeRecord> = {}): TradeRecord {
  return {
    positionId,
    clientOrderId: `c-${positionId}`,
    accountId: houseAccount.accountId,
    symbol: 'EURUSD',
    category: 'forex',
    side: 'buy',
    units: 1_000,
    openedAt: robotNow - 3_600_000,
    entryBid: 1.1,
    entryAsk: 1.1001,
    entryPrice: 1.1001,
    pipSize: 0.0001,
    takeProfit: 1.11,
    stopLoss: 1.09,
    probability: 0.6,
    breakEvenProbability: 0.5,
    marginCents: 2_000,
    equityAtEntryCents: 1_000_000,
    freeMarginAtEntryCents: 1_000_000,
    usedMarginAfterEntryCents: 2_000,
    closedAt: robotNow - 60_000,
    closePrice: 1.11,
    closeReason: 'takeProfit',
    profitCents: 1_000,
    currency: 'USD',
    ...fields,
  } as TradeRecord;
}

interface RigOptions {
  record?: StoredTrackRecord | undefined;
  trades?: TradeRecord[];
  more?: boolean;
  profits?: ProfitPoint[];
  /** The store's reads fail (the database is down). */
  failing?: boolean;
  accountId?: string;
  robotNow?: number;
}

/** The service with a plain stub store: what it was asked, in order. */
function rig(options: RigOptions = {}) {
  let now = wall;
  const reads: string[] = [];
  const pages: { accountId: string; limit: number; before: TrackRecordCursor | undefined }[] = [];
  let failing = options.failing ?? false;
  const store: TrackRecordStore = {
    ensureHouseAccount: () => Promise.reject(new Error('not written here')),
    record: (accountId) => {
      reads.push(`record ${accountId}`);
      if (failing) return Promise.reject(new Error('database down'));
      return Promise.resolve('record' in options ? options.record : stored);
    },
    operationsPage: (accountId, page) => {
      pages.push({ accountId, ...page });
      return Promise.resolve({ trades: options.trades ?? [], more: options.more ?? false });
    },
    profitAfterClosures: (accountId, maxPoints) => {
      reads.push(`profitAfterClosures ${accountId} ${String(maxPoints)}`);
      return Promise.resolve(options.profits ?? []);
    },
  };
  const realQuotes: RealQuotesReport = { status: 'unavailable' };
  const service = new TrackRecordService(
    store,
    new InstrumentCatalogue(),
    true,
    { now: () => now },
    () => options.robotNow ?? robotNow,
    () => realQuotes,
    ...(options.accountId ? [options.accountId] : []),
  );
  return {
    service,
    reads,
    pages,
    realQuotes,
    later: (ms: number) => {
      now = new Date(now.getTime() + ms);
    },
    recover: () => {
      failing = false;
    },
  };
}

describe('TrackRecordService.read', () => {
  it('answers no summary and no operations until the account opened, reading no page', async () => {
    const { service, pages, realQuotes } = rig({ record: undefined });

    expect(await service.read({ limit: 20 })).toEqual({
      running: true,
      summary: null,
      operations: [],
      nextCursor: null,
      equity: [],
      realQuotes,
    });
    expect(pages).toEqual([]);
  });

  it('sums up the stored figures in dollars, next to a coin flip', async () => {
    const { service } = rig();

    const { summary } = await service.read({ limit: 20 });

    expect(summary).toEqual({
      startedAt: '2026-11-01T00:00:00.400Z',
      startingBalance: 10_000,
      balance: 10_123.45,
      profit: 123.45,
      operations: 10,
      open: 2,
      closed: 8,
      wins: 5,
      losses: 3,
      winRate: 5 / 8,
      averageWin: 40,
      averageLoss: 20,
      // A loss of 20 for a win of 40 breaks even at a third won.
      breakEvenWinRate: 2_000 / 6_000.4,
      geometryBreakEvenRate: 0.4,
      model: {
        forecasts: 8,
        accuracy: 0.625,
        brierScore: 0.21,
        coinFlipAccuracy: 0.5,
        coinFlipBrierScore: 0.25,
        baseRate: 0.5,
        baseRateAccuracy: 0.5,
        baseRateBrierScore: 0.25,
        meanProbability: 0.6,
        calibration: [],
      },
    });
  });

  it('claims no win rate before a closure, and no break-even rate without both a win and a loss', async () => {
    const none = rig({
      record: { ...stored, closed: 0, wins: 0, averageWinCents: null, averageLossCents: null },
    });
    expect((await none.service.read({ limit: 20 })).summary).toMatchObject({
      winRate: null,
      averageWin: null,
      averageLoss: null,
      breakEvenWinRate: null,
    });

    const onlyWins = rig({ record: { ...stored, wins: 8, averageLossCents: null } });
    expect((await onlyWins.service.read({ limit: 20 })).summary).toMatchObject({
      winRate: 1,
      losses: 0,
      breakEvenWinRate: null,
    });

    const nothingAtStake = rig({ record: { ...stored, averageWinCents: 0, averageLossCents: 0 } });
    expect((await nothingAtStake.service.read({ limit: 20 })).summary?.breakEvenWinRate).toBeNull();
  });

  it("lists the house account's operations in dollars, with a cursor to the next page", async () => {
    const last = trade('p2', { openedAt: robotNow - 2_000 });
    const trades = [
      trade('p3', { openedAt: robotNow - 1_000, closeReason: 'open', closedAt: null }),
      last,
    ];
    const { service, pages } = rig({ trades, more: true });

    const answer = await service.read({ limit: 2 });

    expect(pages).toEqual([{ accountId: houseAccount.accountId, limit: 2, before: undefined }]);
    expect(answer.operations.map((row) => [row.id, row.status])).toEqual([
      ['p3', 'open'],
      ['p2', 'closed'],
    ]);
    expect(answer.operations[1]?.Profit).toBe(10);
    // The house account trades the built-in platform: every amount names dollars (decision 060).
    expect(answer.operations.map((row) => row.currency)).toEqual(['USD', 'USD']);
    expect(answer.nextCursor).toBe(`${String(robotNow - 2_000)}:p2`);
    expect(answer.nextCursor).toBe(encodeTrackRecordCursor(last));
  });

  it('answers no cursor on the last page', async () => {
    const { service } = rig({ trades: [trade('p1')], more: false });

    expect((await service.read({ limit: 20 })).nextCursor).toBeNull();
  });

  it('reads the page after the cursor it wrote', async () => {
    const { service, pages } = rig();

    await service.read({ limit: 20, before: '1790000000000:ct44-17.a_b' });

    expect(pages[0]?.before).toEqual({ openedAt: 1_790_000_000_000, positionId: 'ct44-17.a_b' });
  });

  it.each([
    ['not a cursor', 'abc'],
    ['no position', '1790000000000:'],
    ['no instant', ':p1'],
    ['an instant of 14 digits', '12345678901234:p1'],
    ['a space in the position', '1790000000000:p 1'],
    ['a position over 100 characters', `1:${'p'.repeat(101)}`],
  ])('refuses %s with TrackRecordCursorInvalid, reading nothing', (_case, before) => {
    const { service, reads } = rig();

    let refusal: unknown;
    try {
      void service.read({ limit: 20, before });
    } catch (error) {
      refusal = error;
    }

    expect(refusal).toBeInstanceOf(TrackRecordCursorInvalid);
    expect((refusal as TrackRecordCursorInvalid).field).toBe('before');
    expect(reads).toEqual([]);
  });

  it('reads the record of the account it was given', async () => {
    const { service, reads } = rig({ accountId: 'acc-2' });

    await service.read({ limit: 20 });

    expect(reads).toEqual(['record acc-2', 'profitAfterClosures acc-2 500']);
  });
});

describe('TrackRecordService equity curve', () => {
  it('starts at the deposit, steps at each closure, and ends now at the balance, one point a second', async () => {
    const second = (ms: number) => Math.floor(ms / 1000);
    const { service } = rig({
      profits: [
        { at: openedAt + 10_000, cents: 500 },
        { at: openedAt + 20_000, cents: -300 },
        // Two closures within one second: the later figure stands.
        { at: openedAt + 20_500, cents: 200 },
      ],
    });

    const { equity } = await service.read({ limit: 20 });

    expect(equity).toEqual([
      { time: second(openedAt), value: 10_000 },
      { time: second(openedAt) + 10, value: 10_005 },
      { time: second(openedAt) + 20, value: 10_002 },
      { time: second(robotNow), value: 10_123.45 },
    ]);
  });

  it('adds no point for now when the last closure is this very second', async () => {
    const { service } = rig({
      profits: [{ at: robotNow - 500, cents: 12_000 }],
    });

    const { equity } = await service.read({ limit: 20 });

    expect(equity).toEqual([
      { time: Math.floor(openedAt / 1000), value: 10_000 },
      { time: Math.floor(robotNow / 1000), value: 10_120 },
    ]);
  });

  it('is in time order whatever order the store answers in', async () => {
    const { service } = rig({
      profits: [
        { at: openedAt + 20_000, cents: 200 },
        { at: openedAt + 10_000, cents: 500 },
      ],
    });

    const { equity } = await service.read({ limit: 20 });

    const times = equity.map((point) => point.time);
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(times).toHaveLength(4);
  });
});

describe('TrackRecordService answers cache', () => {
  it('reuses an answer for five seconds, then computes it again', async () => {
    const { service, reads, later } = rig();

    const first = await service.read({ limit: 20 });
    later(trackRecordCacheMs - 1);
    expect(await service.read({ limit: 20 })).toBe(first);
    expect(reads.filter((read) => read.startsWith('record'))).toHaveLength(1);

    later(2);
    await service.read({ limit: 20 });
    expect(reads.filter((read) => read.startsWith('record'))).toHaveLength(2);
  });

  it('keeps pages of another size or cursor apart', async () => {
    const { service, pages } = rig();

    await service.read({ limit: 20 });
    await service.read({ limit: 50 });
    await service.read({ limit: 20, before: '1:p1' });
    await service.read({ limit: 20 });

    expect(pages.map((page) => [page.limit, page.before?.positionId])).toEqual([
      [20, undefined],
      [50, undefined],
      [20, 'p1'],
    ]);
  });

  it('shares one computation between readers that ask at once', async () => {
    const { service, reads } = rig();

    const [a, b] = await Promise.all([service.read({ limit: 20 }), service.read({ limit: 20 })]);

    expect(a).toBe(b);
    expect(reads.filter((read) => read.startsWith('record'))).toHaveLength(1);
  });

  it('does not keep a failure: the next read tries again', async () => {
    const { service, reads, recover } = rig({ failing: true });

    await expect(service.read({ limit: 20 })).rejects.toThrow('database down');
    recover();
    await expect(service.read({ limit: 20 })).resolves.toMatchObject({ running: true });

    expect(reads.filter((read) => read.startsWith('record'))).toHaveLength(2);
  });
});
