import { describe, expect, it } from 'vitest';
import {
  EventBus,
  InMemoryAccountSettingsSource,
  InMemoryExecutionStore,
  ManualClock,
  startPaperTrading,
  toAccountSummary,
  toTradeRow,
} from './index';

describe('public API: the embedded paper-trading set-up a server wires', () => {
  // Two simulated days minute by minute: about 14 s on a quiet machine since the model's
  // pending trades sit in heaps (decision 149), 8 s before; a loaded CI machine needs more than
  // the default 30 s.
  it('starts, trades on simulated time, and reports events, accounts and dashboard rows', async () => {
    const clock = new ManualClock(Date.parse('2024-06-03T00:00:00Z'));
    const settings = new InMemoryAccountSettingsSource();
    const events = new EventBus();
    const opened: string[] = [];
    events.on('PositionOpened', (e) => opened.push(e.trade.symbol));
    let ordered = 0;
    events.on('SignalEvaluated', (e) => {
      ordered += e.ordered;
    });
    const store = new InMemoryExecutionStore();
    const { engine, market, broker, catalogue } = await startPaperTrading({
      seed: 1,
      clock,
      store,
      settings,
      events,
      tickIntervalMs: 60_000,
    });
    void broker.openAccount('user-1', 1_000_000);
    engine.applySettings('user-1', {
      bot_on: true,
      risk: 1,
      categories_enabled: {
        forex: false,
        cripto: true,
        stocks: false,
        index: false,
        commodities: false,
        all: false,
      },
    });
    // Two days: the calibrated model (decision 093) trades only once its calibrator has measured
    // enough outcomes to find forecasts above break-even plus costs.
    for (let minute = 0; minute < 2 * 24 * 60; minute++) {
      clock.advance(60_000);
      market.advanceTo(clock.now());
      await engine.idle();
    }
    const trades = await store.trades({ accountId: 'user-1' });
    expect(trades.length).toBeGreaterThan(0);
    expect(new Set(trades.map((t) => t.category))).toEqual(new Set(['cripto']));
    expect(opened).toHaveLength(trades.length);
    // Every order is counted by the SignalEvaluated event of the signal that caused it.
    expect(ordered).toBe(trades.length);
    const [first] = trades;
    if (!first) throw new Error('no trade');
    expect(toTradeRow(first, catalogue.require(first.symbol)).OutputName).toContain('(');
    const account = engine.account('user-1');
    if (!account) throw new Error('no account');
    expect(toAccountSummary(account).balance).toBe(account.balanceCents / 100);
  }, 120_000);
});
