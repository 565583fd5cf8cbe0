import path from 'node:path';
import type { Strategy } from '@tradebot/robot';
import type { FastifyInstance, FastifyLoggerOptions } from 'fastify';
import { access } from './capabilities/access/plugin';
import { accounts } from './capabilities/accounts/plugin';
import { billing } from './capabilities/billing/plugin';
import { foundation } from './capabilities/foundation/plugin';
import { geo } from './capabilities/geo/plugin';
import { http } from './capabilities/http/plugin';
import { linking } from './capabilities/linking/plugin';
import { notifications } from './capabilities/notifications/plugin';
import { realtime } from './capabilities/realtime/plugin';
import { robotRuntime } from './capabilities/robot-runtime/plugin';
import { robot } from './capabilities/robot/plugin';
import { support } from './capabilities/support/plugin';
import { trading } from './capabilities/trading/plugin';
import { webApp } from './capabilities/web-app/plugin';
import { timedJobs } from './composition/jobs';
import type { Config } from './config';
import type { Database } from './db/database';
import { createServer } from './http/server';
import type { RealtimePublisher } from './realtime/realtime-publisher';
import type { Clock } from './repositories/clock';
import type { Mailer } from './repositories/mail.repository';
import type { PushTestService } from './repositories/web-push.repository';
import type { ClockedPaymentProvider } from './services/billing.service';

export type { Services } from './capabilities/services';

// Beside src/ and dist/ alike (the server is bundled into dist/main.js), so named here.
export const migrationsFolder = path.resolve(import.meta.dirname, '../drizzle');
const defaultWebDist = path.resolve(import.meta.dirname, '../../web/dist');

export interface AppDependencies {
  /** A database the caller owns (tests); otherwise one is opened from the config. */
  database?: Database;
  clock?: Clock;
  /** Otherwise SMTP when SMTP_URL is set, else .eml files under DATA_DIR/mail. */
  mailer?: Mailer;
  /** Prefix of the rate limits' Redis keys (with REDIS_URL), so that tests keep apart. */
  rateLimitRedisPrefix?: string;
  /** Where log lines go (tests read them); standard output otherwise. */
  logStream?: FastifyLoggerOptions['stream'];
  /** Where live account updates go (the Socket.IO gateway); without one, none are sent. */
  realtime?: RealtimePublisher;
  /**
   * The robot's strategy: the signal model unless given (tests, benchmarks). An object cannot
   * cross threads, so a robot given one runs inline, whatever ROBOT_THREAD says.
   */
  robotStrategy?: Strategy;
  /** The robot worker's entry, when not the server's own (tests that make it fail). */
  robotWorkerEntry?: URL;
  /**
   * Drive the market from timers (default). Tests turn them off and move the market with
   * `app.robot.advance()` after moving their clock.
   */
  robotTimers?: boolean;
  /**
   * Run billing's clock (renewals, lapsed access) and the simulated provider's deliveries on
   * timers (default). Tests turn them off and call `services.billing.runDue()`.
   */
  billingTimers?: boolean;
  /** Refresh cTrader grants on a timer (default); tests call `ctraderLinking.refreshDue()`. */
  ctraderRefreshTimers?: boolean;
  /** The payment provider; otherwise Stripe when its keys are set, else the simulated one. */
  paymentProvider?: ClockedPaymentProvider;
  /** How long a claimed timed item is this process's before another may retry it (decision 078). */
  jobLeaseMs?: number;
  /**
   * Gather and mail notifications on a timer (default). Tests turn it off and call
   * `services.notifications.runDue()`.
   */
  notificationTimers?: boolean;
  /**
   * Tests only: a local push service whose endpoints are taken besides the browsers' push
   * services (decision 115); refused unless NODE_ENV=test.
   */
  pushTestService?: PushTestService;
}

/**
 * The server: one named plugin per capability (decision 145), in the order their
 * `dependencies` ask. Each builds its repositories and services, registers its routes and adds
 * its timed work to the job registry; capabilities react to each other's events on `app.events`.
 * Hooks close last registered first: the jobs stop first, then the robot, then the rest, and
 * the database last.
 */
export async function buildApp(
  config: Config,
  dependencies: AppDependencies = {},
): Promise<FastifyInstance> {
  const robotTimers = dependencies.robotTimers ?? true;
  const app = createServer(config, dependencies.logStream);
  await app.register(foundation, {
    config,
    migrationsFolder,
    database: dependencies.database,
    clock: dependencies.clock,
    mailer: dependencies.mailer,
    jobLeaseMs: dependencies.jobLeaseMs,
  });
  await app.register(http, { rateLimitRedisPrefix: dependencies.rateLimitRedisPrefix });
  await app.register(geo);
  await app.register(robot, {
    strategy: dependencies.robotStrategy,
    workerEntry: dependencies.robotWorkerEntry,
    timers: robotTimers,
  });
  await app.register(trading);
  await app.register(notifications, {
    timers: dependencies.notificationTimers ?? true,
    pushTestService: dependencies.pushTestService,
  });
  await app.register(access);
  await app.register(billing, {
    timers: dependencies.billingTimers ?? true,
    paymentProvider: dependencies.paymentProvider,
  });
  await app.register(accounts);
  await app.register(realtime);
  await app.register(robotRuntime, { realtime: dependencies.realtime, timers: robotTimers });
  await app.register(linking, { refreshTimers: dependencies.ctraderRefreshTimers ?? true });
  await app.register(support);
  await app.register(webApp, { dist: config.WEB_DIST_DIR ?? defaultWebDist });
  await app.register(timedJobs);
  return app;
}
