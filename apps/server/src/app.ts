import { randomInt, randomUUID } from 'node:crypto';
import path from 'node:path';
import compress from '@fastify/compress';
import { apiV1Prefix } from '@tradebot/contract';
import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import secureJson from 'secure-json-parse';
import type { Config } from './config';
import { openDatabase, pgliteDirectory, type Database } from './db/database';
import { migrate, readMigrations } from './db/migrate';
import { AppError, handleError, sendError } from './http/errors';
import { healthRoutes } from './http/health.routes';
import { geoRoutes } from './http/v1/geo.routes';
import { validatorCompiler } from './http/validation';
import { registerOpenApi } from './plugins/openapi';
import { closeRevokedSockets, registerRealtime } from './realtime/socket-gateway';
import { registerWebApp } from './plugins/web-app';
import type { RealtimePublisher } from './realtime/realtime-publisher';
import { LiveUpdates } from './robot/live-updates';
import { RobotRuntime } from './robot/robot-runtime';
import { latestRobotTime } from './robot/drizzle-platform-journal';
import { tradingRoutes } from './http/v1/trading.routes';
import { TradingRepository } from './repositories/trading.repository';
import { TradingService } from './services/trading.service';
import { InstrumentCatalogue, type Strategy } from '@tradebot/robot';
import { Redis } from 'ioredis';
import { accountRoutes } from './http/v1/account.routes';
import { authRoutes } from './http/v1/auth.routes';
import { emailSubscriptionRoutes } from './http/v1/email-subscription.routes';
import { promoCodesRoutes } from './http/v1/promo-codes.routes';
import { systemClock, type Clock } from './repositories/clock';
import { EmailSubscriptionsRepository } from './repositories/email-subscriptions.repository';
import { geoipRepository } from './repositories/geo.repository';
import { fileMailer, smtpMailer, type Mailer } from './repositories/mail.repository';
import { argon2PasswordHasher } from './repositories/password-hasher';
import { PasswordResetRepository } from './repositories/password-reset.repository';
import { PromoCodesRepository } from './repositories/promo-codes.repository';
import {
  memoryRateLimitStore,
  redisRateLimitStore,
  type RateLimitStore,
} from './repositories/rate-limit.repository';
import { Secrets } from './repositories/secrets';
import { SessionsRepository } from './repositories/sessions.repository';
import { CachedUsersRepository } from './repositories/cached-users.repository';
import { redisSessionCacheBus } from './repositories/session-cache-bus';
import { SessionCache } from './services/session-cache';
import { ClosedPageCache } from './services/closed-page-cache';
import { AccountService } from './services/account.service';
import { AuthService, type OnSessionsRevoked } from './services/auth.service';
import { EmailSubscriptionService } from './services/email-subscription.service';
import { GeoService } from './services/geo.service';
import { PasswordRecoveryService } from './services/password-recovery.service';
import { PromoCodesService } from './services/promo-codes.service';
import { RateLimiterService } from './services/rate-limiter.service';
import { adminConsoleRoutes } from './http/v1/admin-console.routes';
import { adminSessionRoutes } from './http/v1/admin-session.routes';
import { contactRoutes } from './http/v1/contact.routes';
import { AdminAuditRepository } from './repositories/admin-audit.repository';
import { AdminPromoCodesRepository } from './repositories/admin-promo-codes.repository';
import { AdminUsersRepository } from './repositories/admin-users.repository';
import { AdminSessionsRepository, AdminsRepository } from './repositories/admins.repository';
import { ContactMessagesRepository } from './repositories/contact-messages.repository';
import { PartnerReportRepository } from './repositories/partner-report.repository';
import { otplibTotp } from './repositories/totp';
import { AdminAuditService } from './services/admin-audit.service';
import { AdminAuthService } from './services/admin-auth.service';
import { AdminPromoCodesService } from './services/admin-promo-codes.service';
import { AdminUsersService } from './services/admin-users.service';
import { ContactService } from './services/contact.service';
import { PartnerReportService } from './services/partner-report.service';
import { SupportInboxService, type Transact } from './services/support-inbox.service';

export const migrationsFolder = path.resolve(import.meta.dirname, '../drizzle');
const defaultWebDist = path.resolve(import.meta.dirname, '../../web/dist');

export interface Services {
  geo: GeoService;
  auth: AuthService;
  account: AccountService;
  passwordRecovery: PasswordRecoveryService;
  promoCodes: PromoCodesService;
  emailSubscription: EmailSubscriptionService;
  rateLimiter: RateLimiterService;
  trading: TradingService;
  contact: ContactService;
  adminAuth: AdminAuthService;
  supportInbox: SupportInboxService;
  adminUsers: AdminUsersService;
  adminPromoCodes: AdminPromoCodesService;
  partnerReport: PartnerReportService;
  adminAudit: AdminAuditService;
}

declare module 'fastify' {
  interface FastifyInstance {
    database: Database;
    services: Services;
    /** The robot running in this process; undefined with ROBOT_ENABLED=false. */
    robot: RobotRuntime | undefined;
  }
}

export interface AppDependencies {
  /** A database the caller owns (tests); otherwise one is opened from the config. */
  database?: Database;
  clock?: Clock;
  /** Otherwise SMTP when SMTP_URL is set, else .eml files under DATA_DIR/mail. */
  mailer?: Mailer;
  /** Otherwise Redis when REDIS_URL is set, else in memory. */
  rateLimitStore?: RateLimitStore;
  /** Where live account updates go (the Socket.IO gateway); without one, none are sent. */
  realtime?: RealtimePublisher;
  /** The robot's strategy: the signal model unless given (tests, benchmarks). */
  robotStrategy?: Strategy;
  /**
   * Drive the market from timers (default). Tests turn them off and move the market with
   * `app.robot.advance()` after moving their clock.
   */
  robotTimers?: boolean;
}

/** How often the market's last quotes are saved, so that a restart continues from them. */
const quoteSaveMs = 5_000;
/** Equity moving with prices reaches a watching user at most this often. */
const liveEquitySweepMs = 500;

/**
 * The robot's time in epoch ms: the app's clock, sped up by MARKET_SPEED (tests, demos). A sped-up
 * clock starts after the latest time the robot recorded, so that a restart never replays
 * decision times (client order ids are made of them).
 */
async function robotClock(clock: Clock, speed: number, db: Database['db']): Promise<() => number> {
  if (speed === 1) return () => clock.now().getTime();
  const wallOrigin = clock.now().getTime();
  const origin = Math.max(wallOrigin, (await latestRobotTime(db)) + 1);
  return () => origin + (clock.now().getTime() - wallOrigin) * speed;
}

function createMailer(config: Config, app: FastifyInstance): Mailer {
  if (config.SMTP_URL) return smtpMailer(config.SMTP_URL, config.MAIL_FROM);
  return fileMailer(path.join(config.dataDir, 'mail'), config.MAIL_FROM, (file, message) => {
    app.log.info({ file, to: message.to, subject: message.subject }, 'e-mail written');
  });
}

function createRateLimitStore(config: Config): RateLimitStore {
  if (!config.REDIS_URL) return memoryRateLimitStore();
  return redisRateLimitStore(new Redis(config.REDIS_URL, { maxRetriesPerRequest: 2 }));
}

/** Sessions (and users' settings) kept in each process, and how long each is trusted. */
const sessionCacheLimits = { maxEntries: 10_000, ttlMs: 60_000 };
/** Users whose newest closed page is kept (about 100 rows each). */
const closedPageCacheUsers = 2_000;

/**
 * The session cache; with REDIS_URL its changes reach the other processes over Redis, and it
 * serves nothing while its subscription is down (decision 045).
 */
function createSessionCache(config: Config, app: FastifyInstance): SessionCache {
  const onBusError = (error: unknown) => {
    app.log.warn({ err: error }, 'session cache: Redis failed');
  };
  if (!config.REDIS_URL) return new SessionCache(sessionCacheLimits);
  const bus = redisSessionCacheBus(config.REDIS_URL, {
    onChange: (change) => {
      cache.apply(change);
    },
    onResubscribed: () => {
      cache.clear();
    },
    onError: onBusError,
  });
  const cache = new SessionCache({ ...sessionCacheLimits, bus, onBusError });
  app.addHook('onReady', async () => {
    // Not fatal: until subscribed, every request reads its session from the database.
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      bus.subscribed(),
      new Promise((resolve) => (timer = setTimeout(resolve, 2_000))),
    ]);
    clearTimeout(timer);
  });
  app.addHook('onClose', async () => {
    await bus.close();
  });
  return cache;
}

/** A hop count trusts that many proxies nearest to us, as proxy-addr counts them. */
function trustProxyOption(
  value: Config['TRUST_PROXY'],
): boolean | string[] | ((address: string, hop: number) => boolean) {
  return typeof value === 'number' ? (_address, hop) => hop < value : value;
}

const requestIdPattern = /^[\w.:-]{1,64}$/;

export async function buildApp(
  config: Config,
  dependencies: AppDependencies = {},
): Promise<FastifyInstance> {
  const app = Fastify({
    logger: {
      level: config.LOG_LEVEL,
      redact: ['req.headers.authorization', 'req.headers.cookie'],
    },
    trustProxy: trustProxyOption(config.TRUST_PROXY),
    bodyLimit: 256 * 1024,
    requestIdHeader: false,
    genReqId: (request) => {
      const incoming = request.headers['x-request-id'];
      return typeof incoming === 'string' && requestIdPattern.test(incoming)
        ? incoming
        : randomUUID();
    },
    return503OnClosing: true,
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.setErrorHandler(handleError);

  // An empty JSON body means "no payload" (spec §7 calls such as newsletter send none).
  // The API speaks JSON only: anything else is a 415.
  app.removeContentTypeParser(['application/json', 'text/plain']);
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') {
      done(null, undefined);
      return;
    }
    try {
      done(
        null,
        secureJson.parse(text, undefined, { protoAction: 'remove', constructorAction: 'remove' }),
      );
    } catch {
      done(new AppError('INVALID_JSON'), undefined);
    }
  });

  // While shutting down, answers close their connection: otherwise an idle keep-alive
  // socket left by an in-flight request would hold close() open for the keep-alive timeout.
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
    if (closing) reply.header('connection', 'close');
  });

  const ownsDatabase = !dependencies.database;
  const database =
    dependencies.database ??
    (await openDatabase({
      databaseUrl: config.DATABASE_URL,
      pgliteDir: pgliteDirectory(config.dataDir),
    }));
  app.decorate('database', database);
  if (ownsDatabase) {
    app.addHook('onClose', async () => {
      await database.close();
    });
    const applied = await migrate(database.db, await readMigrations(migrationsFolder));
    if (applied.length > 0) app.log.info({ applied }, 'database migrated');
  }

  const clock = dependencies.clock ?? systemClock;
  const mailer = dependencies.mailer ?? createMailer(config, app);
  const rateLimitStore = dependencies.rateLimitStore ?? createRateLimitStore(config);
  app.addHook('onClose', async () => {
    mailer.close();
    await rateLimitStore.close();
  });
  const secrets = new Secrets(config.TOKEN_SECRET);
  const db = database.db;
  const sessionCache = createSessionCache(config, app);
  const users = new CachedUsersRepository(db, sessionCache);

  // The robot starts once the database is migrated and stops before it closes (onClose hooks
  // run last-registered first).
  const robotNow = await robotClock(clock, config.MARKET_SPEED, db);
  const closedPages = config.ROBOT_ENABLED ? new ClosedPageCache(closedPageCacheUsers) : undefined;
  const robot = config.ROBOT_ENABLED
    ? await RobotRuntime.start({
        db,
        now: robotNow,
        marketTickMs: config.MARKET_TICK_MS,
        marketSeed: config.MARKET_SEED ?? randomInt(2 ** 31 - 1),
        autoAdvance: dependencies.robotTimers ?? true,
        warmUpMs: config.ROBOT_WARM_UP_MS,
        quoteSaveMs,
        ...(dependencies.robotStrategy ? { strategy: dependencies.robotStrategy } : {}),
        onError: (error, what) => {
          app.log.error({ err: error }, `robot: ${what} failed`);
        },
        onHalted: (reason) => {
          app.log.error({ reason }, 'robot: trading halted');
        },
        onClosureStored: (accountId) => {
          closedPages?.stored(accountId);
        },
      })
    : undefined;
  app.decorate('robot', robot);
  const trading = new TradingService(
    users,
    new TradingRepository(db),
    robot?.catalogue ?? new InstrumentCatalogue(),
    clock,
    robotNow,
    robot,
    closedPages,
  );
  const promoCodes = new PromoCodesRepository(db);
  // Read when a session ends, by then `app.realtime` (registered below) exists.
  const onSessionsRevoked: OnSessionsRevoked = async (revoked) => {
    await sessionCache.changed(
      'sessionId' in revoked
        ? { kind: 'session', sessionId: revoked.sessionId }
        : { kind: 'userSessions', userId: revoked.userId },
    );
    closeRevokedSockets(app.realtime, revoked);
  };
  const onMailFailure = (error: unknown) => {
    app.log.error({ err: error }, 'sending e-mail failed');
  };
  const transact: Transact = (work) => db.transaction(work);
  const contactMessages = new ContactMessagesRepository(db);
  const adminAudit = new AdminAuditRepository(db);
  const adminUsers = new AdminUsersRepository(db);
  const consoleBase = config.PUBLIC_URL ?? `http://${config.HOST}:${String(config.PORT)}`;
  const authService = new AuthService(
    users,
    new SessionsRepository(db),
    promoCodes,
    argon2PasswordHasher,
    secrets,
    clock,
    onSessionsRevoked,
    sessionCache,
  );
  app.decorate<Services>('services', {
    geo: new GeoService(geoipRepository),
    auth: authService,
    account: new AccountService(users, clock),
    passwordRecovery: new PasswordRecoveryService(
      users,
      new PasswordResetRepository(db),
      argon2PasswordHasher,
      secrets,
      mailer,
      clock,
      onMailFailure,
      onSessionsRevoked,
    ),
    promoCodes: new PromoCodesService(promoCodes, users, db, clock),
    emailSubscription: new EmailSubscriptionService(new EmailSubscriptionsRepository(db)),
    rateLimiter: new RateLimiterService(rateLimitStore, clock),
    trading,
    contact: new ContactService(
      contactMessages,
      mailer,
      clock,
      {
        email: config.SUPPORT_EMAIL,
        calendar: {
          timeZone: config.SUPPORT_TIME_ZONE,
          holidays: new Set(config.SUPPORT_HOLIDAYS),
        },
        consoleUrl: (id) => new URL(`/admin/messages/${id}`, consoleBase).toString(),
      },
      onMailFailure,
    ),
    adminAuth: new AdminAuthService(
      new AdminsRepository(db),
      new AdminSessionsRepository(db),
      adminAudit,
      argon2PasswordHasher,
      secrets,
      otplibTotp,
      clock,
      async (token) => (await authService.authenticate(token)) !== undefined,
    ),
    supportInbox: new SupportInboxService(
      contactMessages,
      adminAudit,
      mailer,
      clock,
      transact,
      onMailFailure,
    ),
    adminUsers: new AdminUsersService(adminUsers, contactMessages, trading, adminAudit, clock),
    adminPromoCodes: new AdminPromoCodesService(
      new AdminPromoCodesRepository(db),
      adminUsers,
      adminAudit,
      clock,
      transact,
    ),
    partnerReport: new PartnerReportService(
      new PartnerReportRepository(db),
      adminAudit,
      clock,
      config.SUPPORT_TIME_ZONE,
    ),
    adminAudit: new AdminAuditService(adminAudit),
  });
  await registerRealtime(app, config, { auth: app.services.auth });

  // Live updates go through the RealtimePublisher port: the Socket.IO gateway, unless a test
  // passes its own.
  const publisher = dependencies.realtime ?? app.realtime;
  if (robot) {
    const liveUpdates = new LiveUpdates(robot, trading, publisher, {
      sweepMs: liveEquitySweepMs,
      onError: (error, what) => {
        app.log.error({ err: error }, `robot: ${what} failed`);
      },
    });
    liveUpdates.start();
    app.addHook('onClose', async () => {
      await liveUpdates.stop();
      await robot.stop();
    });
  }

  await app.register(compress, { global: true, threshold: 1024 });
  await registerOpenApi(app);

  await app.register(healthRoutes, { prefix: '/core-api' });
  await app.register(
    async (v1) => {
      await v1.register(geoRoutes);
      await v1.register(authRoutes);
      await v1.register(accountRoutes);
      await v1.register(promoCodesRoutes);
      await v1.register(emailSubscriptionRoutes);
      await v1.register(tradingRoutes);
      await v1.register(contactRoutes);
      await v1.register(adminSessionRoutes);
      await v1.register(adminConsoleRoutes);
    },
    { prefix: apiV1Prefix },
  );

  const servesWeb = await registerWebApp(app, config.WEB_DIST_DIR ?? defaultWebDist);

  app.setNotFoundHandler((request, reply) => {
    const isApi = request.url === '/core-api' || request.url.startsWith('/core-api/');
    const wantsPage = request.method === 'GET' || request.method === 'HEAD';
    if (servesWeb && !isApi && wantsPage) {
      return reply.header('cache-control', 'no-cache').sendFile('index.html');
    }
    return sendError(request, reply, new AppError('NOT_FOUND'));
  });

  return app;
}
