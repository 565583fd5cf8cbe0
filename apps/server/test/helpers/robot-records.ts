import type { OrderIntent, TradeRecord } from '@tradebot/robot';

/** Order intents and operations as the robot writes them, for the store's tests. */

export const decidedAt = Date.parse('2026-11-21T12:00:00Z');

export function intent(
  accountId: string,
  symbol: string,
  patch: Partial<OrderIntent> = {},
): OrderIntent {
  return {
    clientOrderId: `${accountId}/${symbol}/${String(decidedAt)}`,
    accountId,
    symbol,
    category: 'cripto',
    side: 'buy',
    units: 0.25,
    takeProfit: 101.5,
    stopLoss: 92.5,
    decidedAt,
    decisionBid: 100,
    decisionAsk: 100.25,
    probability: 0.97,
    breakEvenProbability: 0.93,
    estimatedMarginCents: 1_253,
    equityAtEntryCents: 1_000_000,
    freeMarginAtEntryCents: 1_000_000,
    status: 'pending',
    ...patch,
  };
}

export function tradeOf(
  order: OrderIntent,
  positionId: string,
  currency: string | null = 'USD',
): TradeRecord {
  return {
    positionId,
    clientOrderId: order.clientOrderId,
    accountId: order.accountId,
    symbol: order.symbol,
    category: order.category,
    side: order.side,
    units: order.units,
    openedAt: decidedAt,
    entryBid: 100,
    entryAsk: 100.25,
    entryPrice: 100.25,
    pipSize: 0.01,
    takeProfit: order.takeProfit,
    stopLoss: order.stopLoss,
    probability: order.probability,
    breakEvenProbability: order.breakEvenProbability,
    marginCents: 1_254,
    equityAtEntryCents: 1_000_000,
    freeMarginAtEntryCents: 1_000_000,
    usedMarginAfterEntryCents: 1_254,
    closedAt: null,
    closePrice: null,
    closeReason: 'open',
    profitCents: null,
    currency,
  };
}
