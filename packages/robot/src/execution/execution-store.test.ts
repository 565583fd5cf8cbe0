import { describe, expect, it } from 'vitest';
import { InMemoryExecutionStore } from './execution-store';
import { decidedIntent, orderRequestOf, plainIntent, type SignalDecision } from './trade-record';

const decision: SignalDecision = {
  symbol: 'EURUSD',
  category: 'forex',
  side: 'buy',
  takeProfit: 1.1002,
  stopLoss: 1.099,
  decidedAt: 1_718_110_800_000,
  decisionBid: 1.1,
  decisionAsk: 1.1001,
  probability: 0.95,
  breakEvenProbability: 0.9,
};

describe('decidedIntent', () => {
  it('is a plain object with every field, and copies with a new status', () => {
    const intent = decidedIntent('a/EURUSD/1', 'a', decision, 3000, 11_001, 1_000_000, 900_000);
    expect(Object.getPrototypeOf(intent)).toBe(Object.prototype);
    expect(JSON.parse(JSON.stringify(intent))).toEqual(plainIntent(intent));
    expect(intent).toMatchObject({ symbol: 'EURUSD', side: 'buy', status: 'pending' });
    const plain = plainIntent(intent, 'rejected', 'MARKET_CLOSED');
    expect(Object.getPrototypeOf(plain)).toBe(Object.prototype);
    expect(plain).toEqual({
      ...decision,
      clientOrderId: 'a/EURUSD/1',
      accountId: 'a',
      units: 3000,
      estimatedMarginCents: 11_001,
      equityAtEntryCents: 1_000_000,
      freeMarginAtEntryCents: 900_000,
      status: 'rejected',
      rejectReason: 'MARKET_CLOSED',
    });
  });

  it('survives a store snapshot and restore whole', async () => {
    const store = new InMemoryExecutionStore();
    const intent = decidedIntent('a/EURUSD/1', 'a', decision, 3000, 11_001, 1_000_000, 900_000);
    await store.saveIntents([intent]);
    const restored = new InMemoryExecutionStore(store.snapshot());
    expect(await restored.pendingIntents()).toEqual([plainIntent(intent)]);
    await restored.updateIntentStatus('a/EURUSD/1', 'expired');
    expect(restored.intentList()[0]).toMatchObject({ symbol: 'EURUSD', status: 'expired' });
  });

  it('gives the broker exactly the seven fields of an order request', () => {
    const intent = decidedIntent('a/EURUSD/1', 'a', decision, 3000, 11_001, 1_000_000, 900_000);
    expect(JSON.parse(JSON.stringify(orderRequestOf(intent)))).toEqual({
      clientOrderId: 'a/EURUSD/1',
      accountId: 'a',
      symbol: 'EURUSD',
      side: 'buy',
      units: 3000,
      takeProfit: 1.1002,
      stopLoss: 1.099,
    });
  });
});
