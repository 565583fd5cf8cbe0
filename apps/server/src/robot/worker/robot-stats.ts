import { randomUUID } from 'node:crypto';
import type { EventBus } from '@tradebot/robot';
import type { RobotStats } from '../protocol/robot-protocol';

function add(counts: Map<string, number>, key: string, count = 1): void {
  counts.set(key, (counts.get(key) ?? 0) + count);
}

/**
 * What the robot's thread counts for /metrics (decision 150): plain numbers here, read by the
 * main thread with the `stats` request, which turns them into Prometheus counters there. Counting
 * in the thread where the robot runs keeps the trading path free of messages; a read is one
 * small answer, once a scrape.
 */
export class RobotStatsCounter {
  readonly run = randomUUID();
  private ordersSent = 0;
  private ordersFilled = 0;
  private readonly ordersRefused = new Map<string, number>();
  private readonly fencedRefused = new Map<string, number>();
  private readonly leaseMoves = { claimed: 0, lost: 0, released: 0 };
  private tickLagMs = 0;
  private maxTickLagMs = 0;

  /** Counts the orders of a run's engine while `current` says the run is this thread's. */
  listen(events: EventBus, current: () => boolean): void {
    events.on('OrderSubmitted', () => {
      if (current()) this.ordersSent++;
    });
    events.on('OrderFilled', () => {
      if (current()) this.ordersFilled++;
    });
    events.on('OrderRejected', (event) => {
      if (current()) add(this.ordersRefused, event.reason);
    });
  }

  /** A market tick was done `lagMs` after it was due. */
  tick(lagMs: number): void {
    this.tickLagMs = lagMs;
    this.maxTickLagMs = Math.max(this.maxTickLagMs, lagMs);
  }

  leases(kind: 'claimed' | 'lost' | 'released', count: number): void {
    this.leaseMoves[kind] += count;
  }

  fenced(what: string, count: number): void {
    add(this.fencedRefused, what, count);
  }

  /** The counts now; the greatest tick lag starts again from the last one, unless `keepMax`. */
  read(accountsHeld: number, keepMax = false): RobotStats {
    const stats: RobotStats = {
      run: this.run,
      ordersSent: this.ordersSent,
      ordersFilled: this.ordersFilled,
      ordersRefused: Object.fromEntries(this.ordersRefused),
      tickLagMs: this.tickLagMs,
      maxTickLagMs: this.maxTickLagMs,
      accountsHeld,
      leaseMoves: { ...this.leaseMoves },
      fencedRefused: Object.fromEntries(this.fencedRefused),
    };
    if (!keepMax) this.maxTickLagMs = this.tickLagMs;
    return stats;
  }
}
