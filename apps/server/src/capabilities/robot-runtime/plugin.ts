import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { RealtimePublisher } from '../../realtime/realtime-publisher';
import { argon2PasswordHasher } from '../../repositories/password-hasher';
import { PlatformUsersRepository } from '../../repositories/platform-users.repository';
import { houseAccount, TrackRecordRepository } from '../../repositories/track-record.repository';
import { LiveUpdates } from '../../robot/link/live-updates';
import { openPendingPlatformAccounts } from '../../robot/link/platform-openings';
import { AccountOpeningService } from '../../services/account-opening.service';

/** Equity moving with prices reaches a watching user at most this often. */
const liveEquitySweepMs = 500;
/** How often the process running the robot opens accounts registered elsewhere (decision 049). */
const platformOpeningsMs = 5_000;

export interface RobotRuntimeOptions {
  /** Where live account updates go: the Socket.IO gateway unless a test passes its own. */
  realtime?: RealtimePublisher | undefined;
  /** Open accounts registered elsewhere on a timer (default; tests turn the robot's timers off). */
  timers: boolean;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** What follows an account's opening at the built-in platform; only where the robot runs. */
    accountOpening: AccountOpeningService | undefined;
  }
}

/**
 * The robot at work in this process: accounts opened at the built-in platform (with the first
 * deposit and the yearly plan's gift), the robot's own account for the track record, live
 * updates to the users watching, and the robot's stop before the database closes.
 */
export const robotRuntime = fp(
  async (app: FastifyInstance, options: RobotRuntimeOptions) => {
    const { robot, config, users, database } = app;
    const { trading, billing } = app.services;
    const accountOpening =
      robot &&
      new AccountOpeningService({
        robot,
        gifts: billing,
        house: { account: houseAccount, store: new TrackRecordRepository(database.db) },
        hasher: argon2PasswordHasher,
        newSecret: () => randomBytes(32).toString('base64url'),
        userChanged: (userId) => users.userChanged(userId),
        applyStoredSettings: (userId) => trading.applyStoredSettings(userId),
        ...(config.ROBOT_LEASES ? { claims: app.jobClaims } : {}),
        onError: (error, message) => {
          app.log.error({ err: error }, message);
        },
      });
    app.decorate('accountOpening', accountOpening);
    if (!robot || !accountOpening) return;

    // Accounts registered while no robot ran here (or cut short by a crash) open now, and then
    // every few seconds (another process may register them: ROBOT_ENABLED=false).
    const logins = new PlatformUsersRepository(database.db);
    const openPending = () =>
      openPendingPlatformAccounts(
        robot,
        logins,
        users,
        config.ROBOT_LEASES ? app.jobClaims : undefined,
      ).catch((error: unknown) => {
        app.log.error({ err: error }, 'robot: opening platform accounts failed');
        return 0;
      });
    // The robot's own account (the public track record, decision 060) opens with the pending.
    if (config.TRACK_RECORD_ENABLED) await accountOpening.writeTrackRecordAccount();
    await openPending();
    if (config.TRACK_RECORD_ENABLED) await accountOpening.applyTrackRecordSettings();
    if (options.timers) {
      app.jobs.add({
        name: 'platform-openings',
        everyMs: platformOpeningsMs,
        run: openPending,
        failure: 'robot: opening platform accounts failed',
      });
    }
    const liveUpdates = new LiveUpdates(robot, trading, options.realtime ?? app.realtime, {
      onError: (error, what) => {
        app.log.error({ err: error }, `robot: ${what} failed`);
      },
    });
    liveUpdates.start();
    // Not one of the timers tests turn off: the sweep is how equity reaches this process's
    // browsers, so every process with a robot runs it (nothing in it is claimed).
    app.jobs.add({
      name: 'live-equity-sweep',
      everyMs: liveEquitySweepMs,
      run: async () => {
        liveUpdates.sweep();
      },
      failure: 'robot: sweeping live equity failed',
    });
    // Registered after every capability that uses the robot: it stops before they do.
    app.addHook('onClose', async () => {
      await liveUpdates.stop();
      await robot.stop();
    });
  },
  {
    name: 'robot-runtime',
    dependencies: ['foundation', 'robot', 'trading', 'billing', 'realtime'],
  },
);
