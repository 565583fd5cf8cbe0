import { describe, expect, it } from 'vitest';
import type { AccountState } from '../broker/broker-adapter';
import type { TradeRecord } from '../execution/trade-record';
import type { RobotRun } from './run-robot';
import { summarise } from './simulation-summary';

/** The fields of a closed operation the summary reads; the rest do not matter to it. */
function closed(accountId: string, closedAt: number, profitCents: number): TradeRecord {
  return {
    accountId,
    category: 'forex',
    closeReason: profitCents > 0 ? 'tp' : 'sl',
    closedAt,
    profitCents,
    marginCents: 1000,
    freeMarginAtEntryCents: 10_000,
    usedMarginAfterEntryCents: 1000,
    equityAtEntryCents: 10_000,
    probability: 0.92,
    breakEvenProbability: 0.91,
  } as unknown as TradeRecord;
}

function account(accountId: string, depositsCents: number): AccountState {
  return {
    accountId,
    depositsCents,
    realisedProfitCents: 0,
    balanceCents: depositsCents,
    equityCents: depositsCents,
    usedMarginCents: 0,
    freeMarginCents: depositsCents,
    openPositions: 0,
  };
}

describe('summarise', () => {
  it("gives the worst account's fall of balance from its peak, in the order operations closed", () => {
    const run = {
      // Listed out of closing order: +100 then -300 then +50 for acct-1 (peak 10,100, trough 9,800).
      trades: [
        closed('acct-1', 3, 50_00),
        closed('acct-1', 1, 100_00),
        closed('acct-2', 2, -10_00),
        closed('acct-1', 2, -300_00),
      ],
      openMarks: new Map(),
      accounts: [account('acct-1', 10_000_00), account('acct-2', 10_000_00)],
      model: { overall: {}, byCategory: {} },
      ticks: 0,
      wallClockMs: 0,
      time: { openMinutes: 100, noEdgeMinutes: 97 },
    } as unknown as RobotRun;
    const summary = summarise(run);
    expect(summary.maxDrawdownFraction).toBeCloseTo(300 / 10_100, 10);
    expect(summary.noEdgeShare).toBeCloseTo(0.97, 10);
  });
});
