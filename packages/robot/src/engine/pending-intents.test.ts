import { describe, expect, it } from 'vitest';
import type { OrderIntent } from '../execution/trade-record';
import { PendingIntents } from './pending-intents';

const intent = (accountId: string, clientOrderId: string) =>
  ({ accountId, clientOrderId, status: 'pending' }) as OrderIntent;

describe('PendingIntents', () => {
  it('finds an intent by its account and order id, and forgets it once removed', () => {
    const pending = new PendingIntents();
    const a1 = intent('a', 'a/EURUSD/1');
    const a2 = intent('a', 'a/USDJPY/1');
    const b1 = intent('b', 'b/EURUSD/1');
    pending.add(a1);
    pending.add(a2, pending.listOf('a'));
    pending.add(b1);
    expect(pending.find('a', 'a/USDJPY/1')).toBe(a2);
    expect(pending.find('b', 'a/USDJPY/1')).toBeUndefined(); // another account's id
    expect(pending.find('c', 'c/EURUSD/1')).toBeUndefined();
    expect(pending.remove(a2)).toBe(true);
    expect(pending.remove(a2)).toBe(false); // a second settlement finds nothing
    expect(pending.has(a2)).toBe(false);
    expect(pending.has(a1)).toBe(true);
    expect(pending.listOf('a')).toEqual([a1]);
    expect(pending.listOf('b')).toEqual([b1]);
  });

  it('hands out one live list per account', () => {
    const pending = new PendingIntents();
    const list = pending.listOf('a');
    pending.add(intent('a', 'a/EURUSD/1'));
    expect(list).toHaveLength(1);
    expect(pending.listOf('a')).toBe(list);
  });
});
