import { describe, expect, it } from 'vitest';
import type { TradeRecord } from '../execution/trade-record';
import { InstrumentCatalogue } from '../instruments/catalogue';
import { toAccountSummary, toTradeRow } from './dashboard-rows';

const catalogue = new InstrumentCatalogue();
const trade: TradeRecord = {
  positionId: 'P1',
  clientOrderId: 'a/EURUSD/0',
  accountId: 'a',
  symbol: 'EURUSD',
  category: 'forex',
  side: 'sale',
  units: 25_000,
  openedAt: Date.parse('2024-06-11T14:00:00Z'),
  entryBid: 1.1,
  entryAsk: 1.1001,
  entryPrice: 1.1,
  pipSize: 0.0001,
  takeProfit: 1.0999,
  stopLoss: 1.1011,
  probability: 0.95,
  breakEvenProbability: 0.92,
  marginCents: 91_667,
  equityAtEntryCents: 1_000_000,
  freeMarginAtEntryCents: 1_000_000,
  usedMarginAfterEntryCents: 91_667,
  closedAt: Date.parse('2024-06-11T14:05:00Z'),
  closePrice: 1.0999,
  closeReason: 'tp',
  profitCents: 250,
  currency: 'USD',
};

describe('toTradeRow', () => {
  it('maps a closed operation to the dashboard row the spec names', () => {
    expect(toTradeRow(trade, catalogue.require('EURUSD'))).toEqual({
      Amount: 0.25,
      CloseTime: '2024-06-11T14:05:00.000Z',
      Cmd: 1,
      Icon1: 'EUR',
      Icon2: 'USD',
      OpenTime: '2024-06-11T14:00:00.000Z',
      OutputName: 'EUR/USD',
      Profit: 2.5,
    });
  });

  it('shows an open operation with its current mark and no close time', () => {
    const open = {
      ...trade,
      closedAt: null,
      closePrice: null,
      closeReason: 'open' as const,
      profitCents: null,
    };
    expect(toTradeRow(open, catalogue.require('EURUSD'), -1234)).toMatchObject({
      CloseTime: null,
      Profit: -12.34,
    });
  });
});

describe('toAccountSummary', () => {
  it('reports dollars, with earnings = equity - deposits', () => {
    expect(
      toAccountSummary({
        accountId: 'a',
        depositsCents: 1_000_000,
        realisedProfitCents: 5_000,
        balanceCents: 1_005_000,
        equityCents: 1_002_000,
        usedMarginCents: 100_000,
        freeMarginCents: 902_000,
        openPositions: 1,
      }),
    ).toEqual({ balance: 10_050, freeMargin: 9_020, equity: 10_020, earnings: 20 });
  });
});
