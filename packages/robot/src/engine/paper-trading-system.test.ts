import { describe, expect, it } from 'vitest';
import type { BrokerAdapter } from '../broker/broker-adapter';
import type { PaperBroker } from '../broker/paper/paper-broker';
import { RecordingEventSink } from '../events/engine-events';
import { InMemoryExecutionStore } from '../execution/execution-store';
import { InMemoryAccountSettingsSource } from '../settings/robot-settings';
import { FixedSignalStrategy } from '../strategy/fixed-signal-strategy';
import { ManualClock } from '../time/clock';
import { catalogue, robotOn, tuesday } from './engine-test-rig';
import { startPaperTrading } from './paper-trading-system';

describe('startPaperTrading, composed as the robot benchmark composes it', () => {
  it('hands orders to the view given, fills them on the scheduler given, and stops listening on stop', async () => {
    const clock = new ManualClock(tuesday);
    const settings = new InMemoryAccountSettingsSource([
      { accountId: 'a', settings: robotOn({ forex: true }) },
    ]);
    const store = new InMemoryExecutionStore();
    const later: (() => void)[] = [];
    const submitted: string[] = [];
    let listening = 0;
    const view = (platform: PaperBroker): BrokerAdapter => ({
      submitOrder: (order) => {
        submitted.push(order.clientOrderId);
        platform.submitOrder(order);
      },
      closePosition: (accountId, positionId, reason) => {
        platform.closePosition(accountId, positionId, reason);
      },
      onReport: (listener) => {
        listening++;
        const off = platform.onReport(listener);
        return () => {
          listening--;
          off();
        };
      },
      account: (id) => platform.account(id),
      accountFigures: (id) => platform.accountFigures(id),
      openPositions: (id) => platform.openPositions(id),
      queryOrder: (id) => platform.queryOrder(id),
    });
    const { broker, engine, market } = await startPaperTrading({
      seed: 3,
      clock,
      store,
      settings,
      events: new RecordingEventSink(),
      tickIntervalMs: 60_000,
      catalogue,
      strategy: new FixedSignalStrategy(),
      minimumEdge: 0,
      fanOutBatch: 1,
      brokerScheduler: { defer: (task) => later.push(task) },
      brokerView: view,
    });
    // Order execution listens to the platform's reports itself, through the view.
    expect(listening).toBe(1);
    void broker.openAccount('a', 1_000_000);
    market.advanceTo(tuesday);
    await engine.idle();
    expect(submitted.length).toBeGreaterThan(0);
    // Nothing executes until the scheduler runs the platform's work.
    expect(broker.account('a')?.openPositions).toBe(0);
    while (later.length > 0) later.shift()?.();
    await engine.idle();
    const open = await store.openTrades();
    expect(open.length).toBeGreaterThan(0);
    expect(open.map((t) => t.clientOrderId).every((id) => submitted.includes(id))).toBe(true);
    expect(broker.account('a')?.openPositions).toBe(open.length);
    engine.stop();
    expect(listening).toBe(0);
  });
});
