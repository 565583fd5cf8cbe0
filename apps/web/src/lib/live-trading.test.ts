import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { tradeRow, tradingAccount } from '../test/trade-row';
import { liveTradingKey, mergeLive, receiveLive, type LiveTrading } from './live-trading';

describe('the live trading data (spec §3 Trading data, §4 Real-time updates)', () => {
  it('is a first load until data arrives, then each snapshot replaces what it carries', () => {
    const client = new QueryClient();
    expect(client.getQueryData(liveTradingKey)).toBeUndefined();
    const account = tradingAccount();
    const open = tradeRow({ id: 'open', status: 'open', CloseTime: null });
    const closed = tradeRow({ id: 'closed' });
    const robot = { bot_on: true, trading: false, idleReason: 'MARKET_CLOSED' as const };
    receiveLive(client, { account, trades: [open], robot });
    receiveLive(client, { closed: [closed] });
    expect(client.getQueryData<LiveTrading>(liveTradingKey)).toMatchObject({
      account,
      trades: [open],
      closed: [closed],
      robot,
    });
    receiveLive(client, { trades: [] });
    const held = client.getQueryData<LiveTrading>(liveTradingKey);
    expect(held?.trades).toEqual([]);
    expect(held?.account).toBe(account);
    // An account that does not exist yet is said with null, and null replaces.
    expect(receiveLive(client, { account: null }).account).toBeNull();
  });

  it('counts the snapshots that bring closed operations, and only those', () => {
    let live = mergeLive(undefined, { account: tradingAccount() });
    expect(live.closedRevision).toBe(0);
    live = mergeLive(live, { closed: [tradeRow()] });
    live = mergeLive(live, { trades: [], closed: [] });
    expect(live.closedRevision).toBe(2);
    expect(mergeLive(live, { trades: [] }).closedRevision).toBe(2);
  });

  it('keeps the account currency get-all-data said until an event says another (decision 097)', () => {
    let live = mergeLive(undefined, { account: tradingAccount(), accountCurrency: 'BRL' });
    expect(live.accountCurrency).toBe('BRL');
    live = mergeLive(live, { trades: [] });
    expect(live.accountCurrency).toBe('BRL');
    expect(mergeLive(live, { accountCurrency: 'MXN' }).accountCurrency).toBe('MXN');
    expect(mergeLive(undefined, { trades: [] }).accountCurrency).toBeNull();
  });
});
