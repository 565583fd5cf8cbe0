import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { RobotStats } from '../robot/protocol/robot-protocol';

/**
 * The process's Prometheus metrics (decision 150), one registry per process: the parts that count
 * (job claims, notifications, sockets, HTTP) increment these where the event happens, and
 * GET /metrics (plugins/metrics.ts) reads the robot thread's counts before it answers. Every
 * name starts with `tradebot_`; labels hold names and reasons, never a user, account or token.
 */
export const metricsRegistry = new Registry();
collectDefaultMetrics({ register: metricsRegistry, prefix: 'tradebot_' });

const registers = [metricsRegistry];

export const ordersSent = new Counter({
  name: 'tradebot_orders_sent_total',
  help: 'Orders the robot sent to a platform',
  registers,
});
export const ordersFilled = new Counter({
  name: 'tradebot_orders_filled_total',
  help: 'Orders a platform filled',
  registers,
});
export const ordersRefused = new Counter({
  name: 'tradebot_orders_refused_total',
  help: 'Orders a platform refused, by reason',
  labelNames: ['reason'],
  registers,
});
export const robotTickLag = new Gauge({
  name: 'tradebot_robot_tick_lag_seconds',
  help: "How late the robot's last market tick was done (its timer's delay plus its work)",
  registers,
});
export const robotTickLagMax = new Gauge({
  name: 'tradebot_robot_tick_lag_max_seconds',
  help: 'The greatest tick lag since the previous scrape',
  registers,
});
export const leasesHeld = new Gauge({
  name: 'tradebot_robot_accounts_held',
  help: "Accounts this process's robot trades (held by lease with ROBOT_LEASES)",
  registers,
});
export const leaseMoves = new Counter({
  name: 'tradebot_lease_moves_total',
  help: 'Account leases claimed, lost or released by this process',
  labelNames: ['kind'],
  registers,
});
export const fencedWritesRefused = new Counter({
  name: 'tradebot_fenced_writes_refused_total',
  help: "The robot's writes the lease fence kept out (a lease moved on), by what they were",
  labelNames: ['what'],
  registers,
});
export const jobClaims = new Counter({
  name: 'tradebot_job_claims_total',
  help: 'Timed jobs this process claimed (decision 078), by job',
  labelNames: ['job'],
  registers,
});
export const jobFailures = new Counter({
  name: 'tradebot_job_failures_total',
  help: 'Claimed jobs that ended without being done, or were given up after their last run, by job',
  labelNames: ['job'],
  registers,
});
export const notificationDeliveries = new Counter({
  name: 'tradebot_notification_deliveries_total',
  help: 'Notifications delivered, by channel (email, push)',
  labelNames: ['channel'],
  registers,
});
export const notificationFailures = new Counter({
  name: 'tradebot_notification_failures_total',
  help: 'Notifications that failed to go out, by channel (email, push)',
  labelNames: ['channel'],
  registers,
});
export const socketConnections = new Gauge({
  name: 'tradebot_socket_connections',
  help: 'Real-time (Socket.IO) connections open on this process',
  registers,
});
export const httpDuration = new Histogram({
  name: 'tradebot_http_request_duration_seconds',
  help: 'HTTP answers by method, route pattern and status class',
  labelNames: ['method', 'route', 'status'],
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers,
});

/**
 * Turns the robot thread's counts into this process's counters: what moved since the last read
 * of the same thread is added (a new thread, after a restart, starts from zero), so the counters
 * only grow, as Prometheus expects of a process that did not restart.
 */
export class RobotStatsReader {
  private last: RobotStats | undefined;

  apply(stats: RobotStats): void {
    const last = this.last?.run === stats.run ? this.last : undefined;
    this.last = stats;
    const moved = (now: number, before: number | undefined) => Math.max(0, now - (before ?? 0));
    ordersSent.inc(moved(stats.ordersSent, last?.ordersSent));
    ordersFilled.inc(moved(stats.ordersFilled, last?.ordersFilled));
    for (const [reason, count] of Object.entries(stats.ordersRefused)) {
      ordersRefused.inc({ reason }, moved(count, last?.ordersRefused[reason]));
    }
    for (const kind of ['claimed', 'lost', 'released'] as const) {
      leaseMoves.inc({ kind }, moved(stats.leaseMoves[kind], last?.leaseMoves[kind]));
    }
    for (const [what, count] of Object.entries(stats.fencedRefused)) {
      fencedWritesRefused.inc({ what }, moved(count, last?.fencedRefused[what]));
    }
    robotTickLag.set(stats.tickLagMs / 1000);
    robotTickLagMax.set(stats.maxTickLagMs / 1000);
    leasesHeld.set(stats.accountsHeld);
  }
}
