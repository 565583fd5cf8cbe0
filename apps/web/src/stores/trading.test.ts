import { describe, expect, it } from 'vitest';
import { tradeRow, tradingAccount } from '../test/trade-row';
import { createTradingStore } from './trading';

describe('trading store (spec §3 Trading data, §4 Real-time updates)', () => {
  it('stays on first load until data arrives, then replaces what the data carries', () => {
    const store = createTradingStore();
    expect(store.getState()).toMatchObject({
      account: null,
      trades: [],
      closed: [],
      robot: null,
      isFirstLoad: true,
    });
    const account = tradingAccount();
    const open = tradeRow({ id: 'open', status: 'open', CloseTime: null });
    const closed = tradeRow({ id: 'closed' });
    const robot = { bot_on: true, trading: false, idleReason: 'MARKET_CLOSED' as const };
    store.getState().receive({ account, trades: [open], robot });
    store.getState().receive({ closed: [closed] });
    expect(store.getState()).toMatchObject({
      account,
      trades: [open],
      closed: [closed],
      robot,
      isFirstLoad: false,
    });
    store.getState().receive({ trades: [] });
    expect(store.getState().trades).toEqual([]);
    expect(store.getState().account).toBe(account);
    store.getState().reset();
    expect(store.getState()).toMatchObject({
      account: null,
      trades: [],
      closed: [],
      robot: null,
      isFirstLoad: true,
      closedRevision: 0,
    });
  });

  it('counts the snapshots that bring closed operations, and only those', () => {
    const store = createTradingStore();
    store.getState().receive({ account: tradingAccount() });
    expect(store.getState().closedRevision).toBe(0);
    store.getState().receive({ closed: [tradeRow()] });
    store.getState().receive({ trades: [], closed: [] });
    expect(store.getState().closedRevision).toBe(2);
  });
});
