import { describe, expect, it } from 'vitest';
import { InstrumentCatalogue } from '../../instruments/catalogue';
import type { ExecutionReport, OrderRequest } from '../broker-adapter';
import { PaperBroker, type PaperBrokerState } from './paper-broker';
import { foldPlatformEntries, type PlatformEntry, type PlatformJournal } from './platform-journal';

const catalogue = new InstrumentCatalogue();
const tuesday = Date.parse('2024-06-11T14:00:00Z');
const emptyState: PaperBrokerState = { accounts: [], orders: [], lastTicks: [] };

/**
 * A journal as a database adapter would be: each write lands later (on a macrotask), and what
 * landed is folded into the state a restart rebuilds the platform from.
 */
class FoldingJournal implements PlatformJournal {
  state: PaperBrokerState = emptyState;
  readonly writes: (readonly PlatformEntry[])[] = [];
  /** Set while a write runs: writes must never overlap. */
  private busy = false;
  overlapped = false;
  failuresLeft = 0;

  async record(entries: readonly PlatformEntry[]): Promise<void> {
    if (this.busy) this.overlapped = true;
    this.busy = true;
    await new Promise((resolve) => setImmediate(resolve));
    this.busy = false;
    if (this.failuresLeft > 0) {
      this.failuresLeft--;
      throw new Error('database unavailable');
    }
    // A write is plain data: what JSON keeps is everything there is.
    const copy = JSON.parse(JSON.stringify(entries)) as PlatformEntry[];
    this.writes.push(copy);
    this.state = foldPlatformEntries(this.state, copy);
  }
}

const order = (id: string, patch: Partial<OrderRequest> = {}): OrderRequest => ({
  clientOrderId: id,
  accountId: 'a1',
  symbol: 'EURUSD',
  side: 'buy',
  units: 10_000,
  takeProfit: 1.1003,
  stopLoss: 1.0985,
  ...patch,
});

async function journalled(journal: FoldingJournal) {
  const broker = new PaperBroker(catalogue, { journal, journalRetryMs: 1 });
  const reports: ExecutionReport[] = [];
  broker.onReport((r) => reports.push(r));
  await broker.openAccount('a1', 1_000_000);
  await broker.openAccount('a2', 500_000);
  return { broker, reports };
}

/** Every account and open position, as a restored broker must show them. */
function picture(broker: PaperBroker, accountIds: readonly string[]) {
  return accountIds.map((id) => ({
    account: broker.account(id),
    positions: broker.openPositions(id).map((p) => ({ ...p, unrealisedProfitCents: 0 })),
  }));
}

describe('PaperBroker with a journal', () => {
  it('reports an order only once the write holding it has landed', async () => {
    const journal = new FoldingJournal();
    const { broker, reports } = await journalled(journal);
    broker.onTick({ symbol: 'EURUSD', bid: 1.1, ask: 1.1001, time: tuesday });
    broker.submitOrder(order('o1'));
    broker.submitOrder(order('o2', { stopLoss: 1.2 })); // invalid stops: rejected
    expect(reports).toEqual([]);
    await broker.durable();
    expect(reports.map((r) => r.kind)).toEqual(['filled', 'rejected']);
    const last = journal.writes.at(-1) ?? [];
    expect(last.map((e) => e.kind)).toEqual(['order-settled', 'order-settled']);
    // With nothing left to write, a resend is answered at once from the record.
    broker.submitOrder(order('o1'));
    expect(reports).toHaveLength(3);
    expect(journal.overlapped).toBe(false);
  });

  it('resolves openAccount and deposit once durable', async () => {
    const journal = new FoldingJournal();
    const broker = new PaperBroker(catalogue, { journal });
    const opening = broker.openAccount('a1', 1_000);
    expect(journal.state.accounts).toEqual([]);
    await opening;
    await broker.deposit('a1', 500);
    expect(journal.state.accounts).toEqual([
      { accountId: 'a1', depositsCents: 1_500, realisedProfitCents: 0, balanceCents: 1_500 },
    ]);
  });

  it('loses and reorders nothing when a write fails twice, and holds its reports meanwhile', async () => {
    const journal = new FoldingJournal();
    const { broker, reports } = await journalled(journal);
    journal.failuresLeft = 2;
    broker.onTick({ symbol: 'EURUSD', bid: 1.1, ask: 1.1001, time: tuesday });
    broker.submitOrder(order('o1'));
    broker.submitOrder(
      order('o2', { accountId: 'a2', side: 'sale', takeProfit: 1.0997, stopLoss: 1.102 }),
    );
    // While the first write fails and is retried, more happens: it queues behind, in order.
    await new Promise((resolve) => setImmediate(resolve));
    broker.onTick({ symbol: 'EURUSD', bid: 1.1003, ask: 1.1004, time: tuesday + 1_000 });
    expect(reports).toEqual([]);
    await broker.durable();
    expect(journal.failuresLeft).toBe(0);
    const entries = journal.writes.flat();
    expect(entries.map((e) => e.kind)).toEqual([
      'account-opened',
      'deposited',
      'account-opened',
      'deposited',
      'order-settled',
      'order-settled',
      'position-closed',
    ]);
    expect(reports.map((r) => r.kind)).toEqual(['filled', 'filled', 'position-closed']);
    expect(journal.overlapped).toBe(false);
  });

  it('rebuilds, from what the journal received, the platform the live broker is', async () => {
    const journal = new FoldingJournal();
    const { broker } = await journalled(journal);
    let time = tuesday;
    const tick = (bid: number) => {
      time += 1_000;
      broker.onTick({ symbol: 'EURUSD', bid, ask: bid + 0.0001, time });
      broker.onTick({ symbol: 'USDJPY', bid: 157, ask: 157.01, time });
    };
    tick(1.1);
    broker.submitOrder(order('o1'));
    broker.submitOrder(order('o2', { accountId: 'a2', units: 20_000 }));
    broker.submitOrder(
      order('o3', { symbol: 'USDJPY', side: 'sale', takeProfit: 156.9, stopLoss: 157.6 }),
    );
    tick(1.1003); // o1 and o2 at their take-profit
    broker.submitOrder(order('o4', { takeProfit: 1.1007, stopLoss: 1.099 }));
    broker.submitOrder(order('o5', { accountId: 'a2', units: 1e9 })); // no margin for it
    await broker.deposit('a2', 12_345);
    tick(1.0985); // o4 at its stop-loss
    broker.submitOrder(order('o6', { takeProfit: 1.0995, stopLoss: 1.097 }));
    broker.closePosition('a1', 'P5', 'kill');
    broker.submitOrder(order('o7', { takeProfit: 1.0995, stopLoss: 1.097 }));
    await broker.durable();

    const live = broker.snapshot();
    const state = { ...journal.state, lastTicks: live.lastTicks };
    const restored = PaperBroker.restore(catalogue, state);
    expect(picture(restored, ['a1', 'a2'])).toEqual(picture(broker, ['a1', 'a2']));
    expect(
      restored
        .openPositions('a1')
        .map((p) => p.symbol)
        .sort(),
    ).toEqual(['EURUSD', 'USDJPY']);
    for (const id of ['a1', 'a2']) {
      const account = restored.account(id);
      expect(account?.balanceCents).toBe(
        (account?.depositsCents ?? 0) + (account?.realisedProfitCents ?? 0),
      );
      expect(account?.realisedProfitCents).not.toBe(0);
    }
    for (const id of ['o1', 'o3', 'o4', 'o5', 'o6', 'o7']) {
      expect(await restored.queryOrder(id)).toEqual(await broker.queryOrder(id));
    }
    // Position numbers continue after the restored orders, without a counter in the state.
    restored.submitOrder(order('o8', { takeProfit: 1.0995, stopLoss: 1.097 }));
    const filled = await restored.queryOrder('o8');
    expect(filled.status === 'filled' && filled.fill.positionId).toBe('P7');
  });
});
