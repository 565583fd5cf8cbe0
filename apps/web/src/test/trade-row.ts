import type { TradeRow, TradingAccount } from '@tradebot/contract';

/** A closed EURUSD buy that reached its take-profit; override what a test is about. */
export function tradeRow(overrides: Partial<TradeRow> = {}): TradeRow {
  return {
    Amount: 0.1,
    CloseTime: '2026-11-20T10:05:00.000Z',
    Cmd: 0,
    Icon1: 'EUR',
    Icon2: 'USD',
    OpenTime: '2026-11-20T10:00:00.000Z',
    OutputName: 'EUR/USD',
    Profit: 1.25,
    id: 'p-1',
    symbol: 'EURUSD',
    category: 'forex',
    side: 'buy',
    units: 10_000,
    openPrice: 1.08412,
    closePrice: 1.08437,
    takeProfit: 1.08437,
    stopLoss: 1.08287,
    status: 'closed',
    closeReason: 'tp',
    probability: 0.86,
    breakEvenProbability: 0.833,
    margin: 36.14,
    value: 10_841.2,
    currency: 'USD',
    ...overrides,
  };
}

export function tradingAccount(overrides: Partial<TradingAccount> = {}): TradingAccount {
  return {
    balance: 10_000,
    freeMargin: 9_000,
    equity: 10_012.5,
    earnings: 12.5,
    deposits: 10_000,
    usedMargin: 1_000,
    exposure: 0.0999,
    exposureCap: 0.5,
    ...overrides,
  };
}
