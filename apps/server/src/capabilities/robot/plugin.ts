import { randomInt } from 'node:crypto';
import type { Strategy } from '@tradebot/robot';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { ctraderEndpoint } from '../../platforms/ctrader/ctrader-accounts';
import { BillingRepository } from '../../repositories/billing.repository';
import { CachedTradingRepository } from '../../repositories/cached-trading.repository';
import { CTraderGrantsRepository } from '../../repositories/ctrader-grants.repository';
import {
  LocalAccountCommands,
  ScaledAccountCommands,
  type AccountCommands,
} from '../../robot/link/account-commands';
import { RobotClient, type RobotThread } from '../../robot/link/robot-client';
import type { BuiltInMarketChoice } from '../../robot/protocol/robot-protocol';
import { RobotHost } from '../../robot/worker/robot-host';
import type { RobotRuntime } from '../../robot/link/robot-runtime';
import { endLapsedWhileDown } from '../../services/access-changes.service';
import { ClosedPageCache } from '../../services/closed-page-cache';
import { robotClock } from './robot-clock';

/** How often the market's last quotes are saved, so that a restart continues from them. */
const quoteSaveMs = 5_000;
/** Users whose newest closed page is kept (about 100 rows each). */
const closedPageCacheUsers = 2_000;

export interface RobotOptions {
  /**
   * The robot's strategy: the signal model unless given (tests, benchmarks). An object cannot
   * cross threads, so a robot given one runs inline, whatever ROBOT_THREAD says.
   */
  strategy?: Strategy | undefined;
  /** The robot worker's entry, when not the server's own (tests that make it fail). */
  workerEntry?: URL | undefined;
  /**
   * Drive the market from timers (default). Tests turn them off and move the market with
   * `app.robot.advance()` after moving their clock.
   */
  timers: boolean;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The robot running in this process; undefined with ROBOT_ENABLED=false. */
    robot: RobotRuntime | undefined;
    /** The robot's time, epoch ms. */
    robotNow: () => number;
    /**
     * Commands for the robot trading an account (decision 105): this process's robot; with
     * leases, the process holding the account's lease.
     */
    accountCommands: AccountCommands;
    /** The same, with leases only (the realtime gateway answers other processes' commands). */
    scaledCommands: ScaledAccountCommands | undefined;
    closedPages: ClosedPageCache | undefined;
    tradingRepository: CachedTradingRepository;
    /** Users whose access ended while the server was down (told once notifications exist). */
    lapsedWhileDown: string[];
  }
}

/**
 * The robot in this process (or in its worker thread), its clock, and the commands reaching the
 * robot that trades an account. It starts once the database is migrated and stops (robot
 * runtime plugin) before the database closes.
 */
export const robot = fp(
  async (app: FastifyInstance, options: RobotOptions) => {
    const { config, database, users, clock, owner } = app;
    const { db } = database;
    // Access that ended while this server was down is taken away before the robot loads its
    // accounts: it never trades on a period already over, not even until billing's first run.
    const billingStore = new BillingRepository(db);
    app.decorate(
      'lapsedWhileDown',
      await endLapsedWhileDown(
        { users, endLapsedAccess: (now) => billingStore.endLapsedAccess(now) },
        clock.now(),
      ),
    );
    const robotTime = await robotClock(
      clock,
      { speed: config.MARKET_SPEED, start: config.MARKET_START },
      db,
      !options.timers,
    );
    const closedPages = config.ROBOT_ENABLED
      ? new ClosedPageCache(closedPageCacheUsers)
      : undefined;
    const { strategy, workerEntry } = options;
    const thread: RobotThread =
      strategy || config.ROBOT_THREAD === 'inline'
        ? {
            kind: 'inline',
            // The same host as the worker's, on this thread: the only place the two sides meet.
            start: (port, hostOptions) =>
              RobotHost.start(port, hostOptions, db, {
                ...(strategy ? { strategy } : {}),
                // Leases (PostgreSQL only): the keeper's own thread opens its own connection.
                ...(hostOptions.leases && database.kind === 'postgres'
                  ? { leaseLink: database.link() }
                  : {}),
              }),
          }
        : {
            kind: 'worker',
            link: () => database.link(),
            ...(workerEntry ? { entry: workerEntry } : {}),
          };
    // Linked cTrader accounts trade at this server's environment (decision 096).
    const ctrader = ctraderEndpoint(config);
    const ctraderGrants = new CTraderGrantsRepository(db, app.keys.credentials, (userId, error) => {
      app.log.error({ err: error, userId }, 'robot: a cTrader grant does not open');
    });
    const runtime: RobotRuntime | undefined = config.ROBOT_ENABLED
      ? await RobotClient.start({
          thread,
          clock: robotTime,
          host: {
            marketTickMs: config.MARKET_TICK_MS,
            marketSeed: config.MARKET_SEED ?? randomInt(2 ** 31 - 1),
            autoAdvance: options.timers,
            warmUpMs: config.ROBOT_WARM_UP_MS,
            builtInMarket: builtInMarketOf(config),
            ...(config.ROBOT_TEST_ONLY_STRATEGY
              ? { testOnlyStrategy: config.ROBOT_TEST_ONLY_STRATEGY }
              : {}),
            ...(config.ROBOT_TEST_ONLY_CRASH_AT
              ? { testOnlyCrashAt: config.ROBOT_TEST_ONLY_CRASH_AT }
              : {}),
            quoteSaveMs,
            mirrorMs: config.ROBOT_MIRROR_MS,
            ...(ctrader
              ? {
                  ctrader: {
                    host: ctrader.host,
                    port: ctrader.port,
                    tls: ctrader.tls,
                    clientId: ctrader.clientId,
                    clientSecret: ctrader.clientSecret,
                    ...(config.NODE_ENV === 'test'
                      ? { backoffInitialMs: 50, backoffMaxMs: 500 }
                      : {}),
                  },
                }
              : {}),
            ...(config.ROBOT_LEASES
              ? {
                  leases: {
                    owner,
                    leaseMs: config.ROBOT_LEASE_MS,
                    renewMs: config.ROBOT_LEASE_RENEW_MS,
                    marginMs: config.ROBOT_LEASE_MARGIN_MS,
                    capacity: config.ROBOT_CAPACITY,
                  },
                }
              : {}),
          },
          // Every robot line names this process, as the leases and the console do (decision 160).
          log: app.log.child({ process: owner }),
          onClosureStored: (accountId) => {
            closedPages?.stored(accountId);
          },
          ctraderGrants: () => ctraderGrants.linked(),
        })
      : undefined;
    app.decorate('robot', runtime);
    app.decorate('robotNow', robotTime.now);
    app.decorate('closedPages', closedPages);
    const tradingRepository = new CachedTradingRepository(db, app.sessionCache);
    app.decorate('tradingRepository', tradingRepository);
    // With leases, the process holding the account's lease (the others are reached over the
    // Redis adapter; without REDIS_URL only a command for an account held here can be carried
    // out).
    const localCommands = new LocalAccountCommands(runtime);
    const scaledCommands = config.ROBOT_LEASES
      ? new ScaledAccountCommands(localCommands, {
          owner,
          leaseOwner: async (accountId) => (await tradingRepository.leaseHolder(accountId))?.owner,
        })
      : undefined;
    app.decorate('scaledCommands', scaledCommands);
    app.decorate<AccountCommands>('accountCommands', scaledCommands ?? localCommands);
  },
  { name: 'robot', dependencies: ['foundation'] },
);

/** The configuration's choice (MARKET_SOURCE, MARKET_QUOTES_DIR, MARKET_QUOTES_NAME). */
function builtInMarketOf(config: {
  readonly MARKET_SOURCE: 'simulator' | 'recorded';
  readonly MARKET_QUOTES_DIR?: string | undefined;
  readonly MARKET_QUOTES_NAME?: string | undefined;
}): BuiltInMarketChoice {
  if (config.MARKET_SOURCE === 'simulator' || !config.MARKET_QUOTES_DIR) {
    return { kind: 'simulator' };
  }
  return {
    kind: 'recorded',
    dir: config.MARKET_QUOTES_DIR,
    ...(config.MARKET_QUOTES_NAME ? { name: config.MARKET_QUOTES_NAME } : {}),
  };
}
