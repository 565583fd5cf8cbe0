import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { tradeRow, tradingAccount } from '../test/trade-row';
import type { OrderRejection } from '@tradebot/contract';
import {
  liveTradingKey,
  mergeLive,
  orderRejectionsKey,
  receiveLive,
  type LiveTrading,
  type OrderRejectionsData,
} from './live-trading';

function refusal(id: string, at: string): OrderRejection {
  return {
    id,
    at,
    symbol: 'BTCUSD',
    OutputName: 'Bitcoin',
    category: 'cripto',
    side: 'buy',
    units: 0.01,
    reason: 'MARKET_CLOSED',
    brokerCode: null,
  };
}

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

  it('puts refusals an event brings on top of the loaded list, once each, and leaves an unloaded list alone (decision 101)', () => {
    const client = new QueryClient();
    receiveLive(client, { rejected: [refusal('a', '2026-11-26T10:00:00.000Z')] });
    expect(client.getQueryData(orderRejectionsKey)).toBeUndefined();

    const older = refusal('old', '2026-11-26T09:00:00.000Z');
    const below = refusal('below', '2026-11-26T08:00:00.000Z');
    client.setQueryData<OrderRejectionsData>(orderRejectionsKey, {
      pages: [
        { rejections: [older], nextCursor: 'cursor-1' },
        { rejections: [below], nextCursor: null },
      ],
      pageParams: [undefined, 'cursor-1'],
    });
    const first = refusal('first', '2026-11-26T10:00:00.000Z');
    const second = refusal('second', '2026-11-26T10:00:01.000Z');
    receiveLive(client, { rejected: [first, second] });
    // Sent again (a reconnection, two processes): not listed twice.
    receiveLive(client, { rejected: [second, older] });
    const data = client.getQueryData<OrderRejectionsData>(orderRejectionsKey);
    expect(data?.pages[0]?.rejections.map((row) => row.id)).toEqual(['second', 'first', 'old']);
    expect(data?.pages[0]?.nextCursor).toBe('cursor-1');
    expect(data?.pages[1]?.rejections).toEqual([below]);
    expect(data?.pageParams).toEqual([undefined, 'cursor-1']);
  });
});
