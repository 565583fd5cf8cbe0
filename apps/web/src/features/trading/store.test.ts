import { describe, expect, it } from 'vitest';
import { createTradingStore } from './store';

describe('trading store (spec §3 Trading data)', () => {
  it('stays on first load until data arrives, then replaces what the data carries', () => {
    const store = createTradingStore();
    expect(store.getState()).toMatchObject({
      account: null,
      trades: [],
      closed: [],
      isFirstLoad: true,
    });
    const account = { balance: 100, freeMargin: 90, equity: 101, earnings: 1 };
    store.getState().receive({ account, trades: [{ Amount: 1 }] });
    store.getState().receive({ closed: [{ Amount: 2 }] });
    expect(store.getState()).toMatchObject({
      account,
      trades: [{ Amount: 1 }],
      closed: [{ Amount: 2 }],
      isFirstLoad: false,
    });
    store.getState().reset();
    expect(store.getState()).toMatchObject({
      account: null,
      trades: [],
      closed: [],
      isFirstLoad: true,
    });
  });
});
