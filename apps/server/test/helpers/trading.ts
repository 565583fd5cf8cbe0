import type { RealtimeInfo } from '@tradebot/contract';
import { FixedSignalStrategy } from '@tradebot/robot';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { AppDependencies } from '../../src/app';
import { userSettings } from '../../src/db/schema';
import type { RealtimePublisher } from '../../src/realtime/realtime-publisher';
import { UsersRepository, allCategoriesEnabled } from '../../src/repositories/users.repository';
import { effectiveRobotSettings } from '../../src/domain/robot-settings';
import { DrizzleExecutionStore } from '../../src/robot/worker/drizzle-execution-store';
import type { RobotRuntime } from '../../src/robot/link/robot-runtime';
import { bearer, manualClock, registeredToken, v1 } from './accounts';
import { useTestApp, type TestContext } from './app';

/** One quote per instrument per simulated second; the test moves the clock. */
export const marketTickMs = 1000;

/** The RealtimePublisher port, recorded: what each user would have received. */
export class RecordingPublisher implements RealtimePublisher {
  readonly sent: { userId: string; info: RealtimeInfo }[] = [];
  readonly listening = new Set<string>();
  readonly disconnectedSessions: string[] = [];
  readonly disconnectedUsers: string[] = [];

  toUser(userId: string, info: RealtimeInfo): void {
    this.sent.push({ userId, info: structuredClone(info) });
  }
  hasListeners(userId: string): boolean {
    return this.listening.has(userId);
  }
  disconnectSession(sessionId: string): void {
    this.disconnectedSessions.push(sessionId);
  }
  disconnectUser(userId: string): void {
    this.disconnectedUsers.push(userId);
  }
  to(userId: string): RealtimeInfo[] {
    return this.sent.filter((sent) => sent.userId === userId).map((sent) => sent.info);
  }
}

export interface RobotTestContext extends TestContext {
  clock: ReturnType<typeof manualClock>;
  publisher: RecordingPublisher;
}

/** What a robot test may give the app besides the robot's own set-up (a log stream, timers). */
type RobotAppExtras = Pick<
  AppDependencies,
  'billingTimers' | 'notificationTimers' | 'pushTestService' | 'logStream'
>;

/**
 * The real app with the robot on, on a clock the test moves, the market advanced by hand, and a
 * strategy that signals on every tick (the signal model needs hours of quotes to signal at
 * all; decision 021). Saturday noon UTC: only crypto trades, as it does every day.
 */
export function useRobotApp(
  /** A function is read when each test starts (ports chosen in beforeAll). */
  env: Record<string, string> | (() => Record<string, string>) = {},
  dependencies:
    | RobotAppExtras
    /** Read when each test starts (an agent made in beforeAll). */
    | (() => RobotAppExtras) = {},
): RobotTestContext {
  const clock = manualClock(new Date('2026-11-21T12:00:00Z'));
  const publisher = new RecordingPublisher();
  const context = useTestApp(
    () => ({
      ROBOT_ENABLED: 'true',
      MARKET_TICK_MS: String(marketTickMs),
      MARKET_SEED: '11',
      ...(typeof env === 'function' ? env() : env),
    }),
    () => ({
      clock,
      realtime: publisher,
      robotTimers: false,
      robotStrategy: new FixedSignalStrategy(0.999, ['buy']),
      ...(typeof dependencies === 'function' ? dependencies() : dependencies),
    }),
  ) as RobotTestContext;
  context.clock = clock;
  context.publisher = publisher;
  return context;
}

/**
 * The real app with the robot in its worker thread (ROBOT_THREAD=worker), as in production: the
 * signal model, warmed up on ten minutes of history, decides. The test moves the clock and the
 * market as with `useRobotApp`.
 */
export function useWorkerRobotApp(
  env: Record<string, string> = {},
  dependencies: () => Omit<AppDependencies, 'database'> = () => ({}),
): RobotTestContext {
  const clock = manualClock(new Date('2026-11-21T12:00:00Z'));
  const publisher = new RecordingPublisher();
  const context = useTestApp(
    {
      ROBOT_ENABLED: 'true',
      ROBOT_THREAD: 'worker',
      MARKET_TICK_MS: String(marketTickMs),
      MARKET_SEED: '11',
      // A strategy object cannot cross into the worker; the calibrated model may honestly not
      // trade for hours (decision 093), so the worker takes the named test-only strategy.
      ROBOT_TEST_ONLY_STRATEGY: 'always-signal',
      ...env,
    },
    () => ({ clock, realtime: publisher, robotTimers: false, ...dependencies() }),
  ) as RobotTestContext;
  context.clock = clock;
  context.publisher = publisher;
  return context;
}

export function robotOf(app: FastifyInstance): RobotRuntime {
  if (!app.robot) throw new Error('the robot is not running');
  return app.robot;
}

/**
 * A registered user who has paid and linked, with an account at the built-in platform and the
 * robot on in every category (unless told otherwise).
 */
export async function trader(
  app: FastifyInstance,
  options: {
    email?: string;
    depositCents?: number;
    authorized?: boolean;
    linked?: boolean;
    botOn?: boolean;
    /** The browser's address: many registrations need one each (rate limits). */
    remoteAddress?: string;
  } = {},
) {
  const email = options.email ?? 'trader@example.com';
  const token = await registeredToken(app, email, {}, {}, options.remoteAddress);
  const users = new UsersRepository(app.database.db);
  const user = await users.findByEmail(email);
  if (!user) throw new Error('registered user not found');
  const [settings] = await app.database.db
    .update(userSettings)
    .set({
      authorized: options.authorized ?? true,
      linked: options.linked ?? true,
      loginTradear: options.linked ?? true,
      botOn: options.botOn ?? true,
      categoriesEnabled: allCategoriesEnabled,
    })
    .where(eq(userSettings.userId, user.id))
    .returning();
  if (!settings) throw new Error('no settings row');
  const robot = robotOf(app);
  await robot.openAccount(user.id, options.depositCents ?? 1_000_000);
  await robot.applySettings(user.id, effectiveRobotSettings(settings));
  return { token, userId: user.id, headers: bearer(token) };
}

/** Moves the clock one market tick at a time until `done` or `maxTicks`; true when done. */
export async function runMarket(
  context: RobotTestContext,
  done: () => boolean | Promise<boolean>,
  maxTicks = 600,
): Promise<boolean> {
  const robot = robotOf(context.app);
  for (let tick = 0; tick < maxTicks; tick++) {
    if (await done()) return true;
    context.clock.advance(marketTickMs);
    await robot.advance();
    await robot.settled();
    // A turn of the event loop: live updates are gathered per turn (setImmediate).
    await new Promise((resolve) => setImmediate(resolve));
  }
  return done();
}

/** The robot's operations as the database holds them (all, or one account's). */
export function storedTrades(app: FastifyInstance, accountId?: string) {
  return new DrizzleExecutionStore(app.database.db).trades(
    accountId === undefined ? {} : { accountId },
  );
}

/** How many operations the account has open at the platform now. */
export async function openCount(app: FastifyInstance, accountId: string): Promise<number> {
  return (await robotOf(app).projection(accountId))?.trades.length ?? 0;
}

/** spec §7 POST settings, as the user. */
export async function postSettings(
  app: FastifyInstance,
  headers: Record<string, string>,
  payload: Record<string, unknown>,
) {
  return app.inject({ method: 'POST', url: `${v1}/settings`, headers, payload });
}

export async function getAllData(
  app: FastifyInstance,
  headers: Record<string, string>,
  query = '',
) {
  return app.inject({ url: `${v1}/get-all-data${query}`, headers });
}

/** A POST settings body (spec §7): risk 1 and every category, with `bot_on` as given. */
export function robotSettingsPayload(change: { bot_on: boolean; risk?: number }) {
  return {
    bot_on: change.bot_on,
    risk: change.risk ?? 1,
    categories_enabled: JSON.stringify({
      forex: true,
      cripto: true,
      stocks: true,
      index: true,
      commodities: true,
    }),
  };
}
