import { randomBytes, randomInt, randomUUID } from 'node:crypto';
import path from 'node:path';
import compress from '@fastify/compress';
import {
  apiV1Prefix,
  billingPaths,
  ctraderCallbackRoute,
  simulatedPaymentsPath,
} from '@tradebot/contract';
import Fastify, { type FastifyInstance, type FastifyLoggerOptions } from 'fastify';
import { serializerCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import secureJson from 'secure-json-parse';
import type { Config } from './config';
import { openDatabase, pgliteDirectory, type Database } from './db/database';
import { migrate, readMigrations } from './db/migrate';
import { AppError, handleError, sendError } from './http/errors';
import { loggerOptions } from './http/log';
import { registerRateLimits } from './http/rate-limits';
import { healthRoutes } from './http/health.routes';
import { geoRoutes } from './http/v1/geo.routes';
import { validatorCompiler } from './http/validation';
import { registerOpenApi } from './plugins/openapi';
import { closeRevokedSockets, registerRealtime } from './realtime/socket-gateway';
import { registerSecurityHeaders } from './plugins/security-headers';
import { registerWebApp } from './plugins/web-app';
import type { RealtimePublisher } from './realtime/realtime-publisher';
import { LiveUpdates } from './robot/live-updates';
import { RobotClient, type RobotThread } from './robot/robot-client';
import type { RobotClockSpec } from './robot/robot-protocol';
import type { RobotRuntime } from './robot/robot-runtime';
import { LocalAccountCommands, ScaledAccountCommands } from './robot/account-commands';
import { latestRobotTime } from './robot/drizzle-platform-journal';
import { tradingRoutes } from './http/v1/trading.routes';
import { trackRecordRoutes } from './http/v1/track-record.routes';
import {
  loadOrCreateVapidKeys,
  pushDelivery,
  PushSubscriptionsRepository,
  type PushTestService,
  vapidKeyFile,
  webPushSender,
} from './repositories/web-push.repository';
import { houseAccount, TrackRecordRepository } from './repositories/track-record.repository';
import { TrackRecordService } from './services/track-record.service';
import { AccountOpeningService } from './services/account-opening.service';
import { billingRoutes } from './http/v1/billing.routes';
import { simulatedCheckoutRoutes } from './payments/simulated/checkout.routes';
import { SimulatedPaymentProvider } from './payments/simulated/simulated-provider';
import { StripePaymentProvider } from './payments/stripe/stripe-provider';
import { BillingRepository } from './repositories/billing.repository';
import {
  DrizzleJobClaims,
  processName,
  type JobClaims,
} from './repositories/job-claims.repository';
import { AccessChangesService } from './services/access-changes.service';
import { BillingService, type ClockedPaymentProvider } from './services/billing.service';
import { TradingService } from './services/trading.service';
import { InstrumentCatalogue, type Strategy } from '@tradebot/robot';
import { accountRoutes } from './http/v1/account.routes';
import { accountSettingsRoutes } from './http/v1/account-settings.routes';
import { emailChangeRoutes } from './http/v1/email-change.routes';
import { AccountSettingsRepository } from './repositories/account-settings.repository';
import { AccountSettingsService } from './services/account-settings.service';
import { EmailChangeService } from './services/email-change.service';
import { EmailChangesRepository } from './repositories/email-changes.repository';
import { AccountDeletionService } from './services/account-deletion.service';
import { authRoutes } from './http/v1/auth.routes';
import { emailSubscriptionRoutes } from './http/v1/email-subscription.routes';
import { promoCodesRoutes } from './http/v1/promo-codes.routes';
import { systemClock, type Clock } from './repositories/clock';
import { EmailSubscriptionsRepository } from './repositories/email-subscriptions.repository';
import { geoipDatabase } from './repositories/geo.repository';
import { fileMailer, smtpMailer, type Mailer } from './repositories/mail.repository';
import { argon2PasswordHasher } from './repositories/password-hasher';
import { PasswordResetRepository } from './repositories/password-reset.repository';
import { PromoCodesRepository } from './repositories/promo-codes.repository';
import { Secrets } from './repositories/secrets';
import { SessionsRepository } from './repositories/sessions.repository';
import { CachedTradingRepository } from './repositories/cached-trading.repository';
import { CachedUsersRepository } from './repositories/cached-users.repository';
import { redisSessionCacheBus } from './repositories/session-cache-bus';
import { SessionCache } from './repositories/session-cache';
import { ClosedPageCache } from './services/closed-page-cache';
import { AccountService } from './services/account.service';
import { AuthService, type OnSessionsRevoked } from './services/auth.service';
import { EmailSubscriptionService } from './services/email-subscription.service';
import { GeoService } from './services/geo.service';
import { RegistrationService } from './services/registration.service';
import { ConsentsRepository } from './repositories/consents.repository';
import { RegistrationConfirmationsRepository } from './repositories/registration-confirmations.repository';
import { PasswordRecoveryService } from './services/password-recovery.service';
import { PromoCodesService } from './services/promo-codes.service';
import { LinkingService } from './services/linking.service';
import { CTraderLinkingService } from './services/ctrader-linking.service';
import { UnlinkingService } from './services/unlinking.service';
import { CTraderAuthorizationsRepository } from './repositories/ctrader-authorizations.repository';
import { CTraderOAuth } from './platforms/ctrader/ctrader-oauth';
import { ctraderHosts, listCTraderAccounts } from './platforms/ctrader/ctrader-accounts';
import { ctraderLinkingRoutes } from './http/v1/ctrader-linking.routes';
import { loadCTraderGrants } from './robot/ctrader-grants';
import { BrokerSearchService } from './services/broker-search.service';
import { BrokersRepository } from './repositories/brokers.repository';
import { PlatformUsersRepository } from './repositories/platform-users.repository';
import { TradingPlatformLinksRepository } from './repositories/trading-platform-links.repository';
import { checkSealedValues } from './services/sealed-values-check';
import {
  CredentialsCipher,
  credentialsKeyFile,
  loadOrCreateKeyFile,
  parseCredentialsKeys,
} from './repositories/credentials-cipher';
import { BuiltInTradingPlatform } from './platforms/built-in-platform';
import { openPendingPlatformAccounts } from './robot/platform-openings';
import { brokerSearchRoutes } from './http/v1/broker-search.routes';
import { linkingRoutes } from './http/v1/linking.routes';
import { adminConsoleRoutes } from './http/v1/admin-console.routes';
import { adminSessionRoutes } from './http/v1/admin-session.routes';
import { contactRoutes } from './http/v1/contact.routes';
import { AdminAuditRepository } from './repositories/admin-audit.repository';
import { AdminPromoCodesRepository } from './repositories/admin-promo-codes.repository';
import { AdminUsersRepository } from './repositories/admin-users.repository';
import { AdminSessionsRepository, AdminsRepository } from './repositories/admins.repository';
import {
  adminTotpCipher,
  adminTotpKeyFile,
  TotpSecretSealer,
} from './repositories/totp-secret-sealer';
import { ContactMessagesRepository } from './repositories/contact-messages.repository';
import { PartnerReportRepository } from './repositories/partner-report.repository';
import { otplibTotp } from './repositories/totp';
import { AdminAuditService } from './services/admin-audit.service';
import { AdminAuthService } from './services/admin-auth.service';
import { AdminPromoCodesService } from './services/admin-promo-codes.service';
import { AdminUsersService } from './services/admin-users.service';
import { ContactService } from './services/contact.service';
import { PartnerReportService } from './services/partner-report.service';
import { SupportInboxService } from './services/support-inbox.service';
import type { Transact } from './repositories/transaction';
import { DrizzleOncePerWindow } from './repositories/once-per-window.repository';
import { SignInAlertService } from './services/sign-in-alert.service';
import { SignInLinksRepository } from './repositories/sign-in-links.repository';
import { NotificationsRepository } from './repositories/notifications.repository';
import { NotificationService } from './services/notification.service';
import { notificationRoutes } from './http/v1/notifications.routes';

export const migrationsFolder = path.resolve(import.meta.dirname, '../drizzle');
const defaultWebDist = path.resolve(import.meta.dirname, '../../web/dist');

export interface Services {
  geo: GeoService;
  auth: AuthService;
  registration: RegistrationService;
  account: AccountService;
  accountSettings: AccountSettingsService;
  emailChange: EmailChangeService;
  accountDeletion: AccountDeletionService;
  passwordRecovery: PasswordRecoveryService;
  promoCodes: PromoCodesService;
  emailSubscription: EmailSubscriptionService;
  trading: TradingService;
  linking: LinkingService;
  ctraderLinking: CTraderLinkingService;
  unlinking: UnlinkingService;
  brokerSearch: BrokerSearchService;
  billing: BillingService;
  contact: ContactService;
  adminAuth: AdminAuthService;
  supportInbox: SupportInboxService;
  adminUsers: AdminUsersService;
  adminPromoCodes: AdminPromoCodesService;
  partnerReport: PartnerReportService;
  adminAudit: AdminAuditService;
  trackRecord: TrackRecordService;
  signInAlerts: SignInAlertService;
  notifications: NotificationService;
}

declare module 'fastify' {
  interface FastifyInstance {
    database: Database;
    services: Services;
    /** The robot running in this process; undefined with ROBOT_ENABLED=false. */
    robot: RobotRuntime | undefined;
    /** The settings it was built with (read-only; tests find DATA_DIR/mail through it). */
    config: Config;
  }
}

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

/** How often the market's last quotes are saved, so that a restart continues from them. */
const quoteSaveMs = 5_000;
/** Equity moving with prices reaches a watching user at most this often. */
const liveEquitySweepMs = 500;
/** How often notifications waiting in the outbox are gathered and mailed (decision 088). */
const notificationTickMs = 5_000;
/** How often grants near their expiry are looked for: they last 30 days and are refreshed 7 ahead. */
const ctraderRefreshTickMs = 10 * 60_000;
/** How often the process running the robot opens accounts registered elsewhere (decision 049). */
const platformOpeningsMs = 5_000;

/**
 * The robot's time in epoch ms: the app's clock, sped up by MARKET_SPEED (tests, demos), from
 * MARKET_START when a test pins it (issue 41). A sped-up or pinned clock starts after the latest
 * time the robot recorded, so that a restart never replays decision times (client order ids are
 * made of them). `spec` tells the robot's thread the same rule: the wall clock from the time now,
 * or (`driven`, tests without timers) this thread's time with each request.
 */
async function robotClock(
  clock: Clock,
  market: { speed: number; start: number | undefined },
  db: Database['db'],
  driven: boolean,
): Promise<{ now: () => number; spec: () => RobotClockSpec }> {
  const { speed, start } = market;
  let now = () => clock.now().getTime();
  if (speed !== 1 || start !== undefined) {
    const wallOrigin = clock.now().getTime();
    const origin = Math.max(start ?? wallOrigin, (await latestRobotTime(db)) + 1);
    now = () => origin + (clock.now().getTime() - wallOrigin) * speed;
  }
  const spec = (): RobotClockSpec =>
    driven
      ? { kind: 'driven', now: now() }
      : { kind: 'wall', origin: now(), wallOrigin: Date.now(), speed };
  return { now, spec };
}

function createMailer(config: Config, app: FastifyInstance): Mailer {
  if (config.SMTP_URL) return smtpMailer(config.SMTP_URL, config.MAIL_FROM);
  return fileMailer(path.join(config.dataDir, 'mail'), config.MAIL_FROM, (file, message) => {
    app.log.info({ file, to: message.to, subject: message.subject }, 'e-mail written');
  });
}

/**
 * The keys sealing trading-platform credentials: PLATFORM_CREDENTIALS_KEYS, else the embedded
 * default kept in DATA_DIR/secrets (docs/decisions/049).
 */
async function createCredentialsCipher(
  config: Config,
  app: FastifyInstance,
  now: Date,
): Promise<CredentialsCipher> {
  if (config.PLATFORM_CREDENTIALS_KEYS) {
    return new CredentialsCipher(parseCredentialsKeys(config.PLATFORM_CREDENTIALS_KEYS));
  }
  const file = credentialsKeyFile(config.dataDir);
  if (config.DATABASE_URL) {
    app.log.warn(
      { file },
      'PLATFORM_CREDENTIALS_KEYS is unset: platform credentials are sealed with a key kept in ' +
        'DATA_DIR; every process sharing this database needs the same key',
    );
  }
  return new CredentialsCipher(await loadOrCreateKeyFile(file, now));
}

/** Every key id the database uses is configured and opens what it sealed (decision 065). */
async function checkStoredSeals(
  config: Config,
  db: Database['db'],
  credentialsCipher: CredentialsCipher,
  totpCipher: CredentialsCipher,
  totpSealer: TotpSecretSealer,
): Promise<void> {
  checkSealedValues({
    what: 'admin TOTP secrets',
    keySource: config.ADMIN_TOTP_KEYS
      ? 'ADMIN_TOTP_KEYS'
      : `the key file ${adminTotpKeyFile(config.dataDir)}`,
    samples: (await new AdminsRepository(db).withSealedTotp()).map((admin) => ({
      keyId: admin.totpKeyId ?? '',
      open: () => totpSealer.open(admin.id, admin),
    })),
    hasKey: (id) => totpCipher.hasKey(id),
  });
  checkSealedValues({
    what: 'trading-platform credentials',
    keySource: config.PLATFORM_CREDENTIALS_KEYS
      ? 'PLATFORM_CREDENTIALS_KEYS'
      : `the key file ${credentialsKeyFile(config.dataDir)}`,
    samples: (await new TradingPlatformLinksRepository(db).oneSealedPerKey()).map((row) => ({
      keyId: row.keyId,
      open: () => credentialsCipher.open(row, row.userId),
    })),
    hasKey: (id) => credentialsCipher.hasKey(id),
  });
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
): false | string[] | ((address: string, hop: number) => boolean) {
  return typeof value === 'number' ? (_address, hop) => hop < value : value;
}

const requestIdPattern = /^[\w.:-]{1,64}$/;

/** How often billing looks at the clock: renewals, free months and access that ended. */
const billingTickMs = 60_000;

/** This server's own address once it listens (the simulated provider posts its events there). */
function listeningUrl(app: FastifyInstance): string | undefined {
  if (!app.server.listening) return undefined;
  const address = app.server.address();
  if (!address || typeof address === 'string') return undefined;
  const host =
    address.family === 'IPv6'
      ? `[${address.address === '::' ? '::1' : address.address}]`
      : address.address === '0.0.0.0'
        ? '127.0.0.1'
        : address.address;
  return `http://${host}:${String(address.port)}`;
}

function createPaymentProvider(
  config: Config,
  app: FastifyInstance,
  db: Database['db'],
  clock: Clock,
  timers: boolean,
  claims: JobClaims,
): ClockedPaymentProvider {
  if (config.STRIPE_SECRET_KEY && config.STRIPE_WEBHOOK_SECRET) {
    return new StripePaymentProvider({
      secretKey: config.STRIPE_SECRET_KEY,
      webhookSecret: config.STRIPE_WEBHOOK_SECRET,
    });
  }
  return new SimulatedPaymentProvider({
    db,
    clock,
    // Both ends are in this process: a secret drawn at start serves unless several processes
    // share the simulated provider (then SIM_PAY_WEBHOOK_SECRET).
    secret: config.SIM_PAY_WEBHOOK_SECRET ?? randomBytes(32).toString('hex'),
    // Nothing is sent before this server listens, even to SIM_PAY_WEBHOOK_URL (a proxy in
    // front of it): a try then fails and backs off for a minute (issue 18).
    webhookUrl: () => {
      const base = listeningUrl(app);
      if (!base) return undefined;
      return (
        config.SIM_PAY_WEBHOOK_URL ?? `${base}${apiV1Prefix}${billingPaths.webhooks}/simulated`
      );
    },
    autoDeliver: timers,
    claims,
    onError: (error, what) => {
      app.log.error({ err: error }, `payments: ${what} failed`);
    },
    onRetry: (retry) => {
      app.log.warn(retry, 'payments: a webhook delivery failed; it is tried again with backoff');
    },
  });
}

export async function buildApp(
  config: Config,
  dependencies: AppDependencies = {},
): Promise<FastifyInstance> {
  const app = Fastify({
    logger: loggerOptions(config.LOG_LEVEL, dependencies.logStream),
    // A hop count or the proxies' addresses, never "any proxy" (decision 051).
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
    // A URL that does not decode (FST_ERR_BAD_URL) gets the same localized error as the rest.
    frameworkErrors: (error, request, reply) => {
      void handleError(error, request, reply);
    },
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
  // A callback, not an async function: it runs on every answer, and an async hook costs a
  // promise and a trip through the microtask queue each time (decision 083).
  app.addHook('onSend', (request, reply, payload, done) => {
    reply.header('x-request-id', request.id);
    if (closing) reply.header('connection', 'close');
    done(null, payload);
  });

  const ownsDatabase = !dependencies.database;
  const database =
    dependencies.database ??
    (await openDatabase({
      databaseUrl: config.DATABASE_URL,
      pgliteDir: pgliteDirectory(config.dataDir),
    }));
  app.decorate('database', database);
  app.decorate('config', config);
  if (ownsDatabase) {
    app.addHook('onClose', async () => {
      await database.close();
    });
    const applied = await migrate(database.db, await readMigrations(migrationsFolder));
    if (applied.length > 0) app.log.info({ applied }, 'database migrated');
  }

  const clock = dependencies.clock ?? systemClock;
  // The keys, and a check that they open what the database holds sealed, before anything
  // starts: a lost or damaged key stops the start with one line (decision 065).
  let credentialsCipher: CredentialsCipher;
  let totpSealer: TotpSecretSealer;
  try {
    credentialsCipher = await createCredentialsCipher(config, app, clock.now());
    const totpCipher = await adminTotpCipher(config, clock.now());
    totpSealer = new TotpSecretSealer(totpCipher);
    await checkStoredSeals(config, database.db, credentialsCipher, totpCipher, totpSealer);
  } catch (error) {
    if (ownsDatabase) await database.close();
    throw error;
  }
  const mailer = dependencies.mailer ?? createMailer(config, app);
  app.addHook('onClose', async () => {
    await mailer.close();
  });
  const secrets = new Secrets(config.TOKEN_SECRET);
  const db = database.db;
  const sessionCache = createSessionCache(config, app);
  const users = new CachedUsersRepository(db, sessionCache);

  // The robot starts once the database is migrated and stops before it closes (onClose hooks
  // run last-registered first).
  // Access that ended while this server was down is taken away before the robot loads its
  // accounts: it never trades on a period already over, not even until billing's first run.
  // The users it concerns are told once the notification outbox exists (below).
  // The trading service, robot and notification outbox are built below; the service only calls
  // them after start-up has built them.
  const accessChanges = new AccessChangesService({
    users,
    endLapsedAccess: (now) => new BillingRepository(db).endLapsedAccess(now),
    // Every process's robot, in the scaled set-up: the account may be held by another.
    grantsChanged: () => (scaledCommands ?? localCommands).grantsChanged(),
    applyStoredSettings: (userId) => trading.applyStoredSettings(userId),
    tellAccessEnded: (userId) => notifications.accessEnded(userId),
  });
  const lapsedWhileDown = await accessChanges.endLapsedWhileDown(clock.now());
  const autoAdvance = dependencies.robotTimers ?? true;
  const robotTime = await robotClock(
    clock,
    { speed: config.MARKET_SPEED, start: config.MARKET_START },
    db,
    !autoAdvance,
  );
  const robotNow = robotTime.now;
  const closedPages = config.ROBOT_ENABLED ? new ClosedPageCache(closedPageCacheUsers) : undefined;
  const { robotStrategy, robotWorkerEntry } = dependencies;
  const thread: RobotThread =
    robotStrategy || config.ROBOT_THREAD === 'inline'
      ? {
          kind: 'inline',
          db,
          ...(robotStrategy ? { strategy: robotStrategy } : {}),
          // Leases (PostgreSQL only): the keeper's own thread opens its own connection.
          ...(config.ROBOT_LEASES && database.kind === 'postgres'
            ? { leaseLink: () => database.link() }
            : {}),
        }
      : {
          kind: 'worker',
          link: () => database.link(),
          ...(robotWorkerEntry ? { entry: robotWorkerEntry } : {}),
        };
  // This process's name in job claims and account leases (decisions 078 and 092).
  const owner = processName();
  const robot: RobotRuntime | undefined = config.ROBOT_ENABLED
    ? await RobotClient.start({
        thread,
        clock: robotTime,
        host: {
          marketTickMs: config.MARKET_TICK_MS,
          marketSeed: config.MARKET_SEED ?? randomInt(2 ** 31 - 1),
          autoAdvance,
          warmUpMs: config.ROBOT_WARM_UP_MS,
          ...(config.ROBOT_TEST_ONLY_STRATEGY
            ? { testOnlyStrategy: config.ROBOT_TEST_ONLY_STRATEGY }
            : {}),
          ...(config.ROBOT_TEST_ONLY_CRASH_AT
            ? { testOnlyCrashAt: config.ROBOT_TEST_ONLY_CRASH_AT }
            : {}),
          quoteSaveMs,
          mirrorMs: config.ROBOT_MIRROR_MS,
          // Linked cTrader accounts trade at this server's environment (decision 096).
          ...(config.CTRADER_CLIENT_ID && config.CTRADER_CLIENT_SECRET
            ? {
                ctrader: {
                  host: config.CTRADER_HOST ?? ctraderHosts[config.CTRADER_ENVIRONMENT],
                  port: config.CTRADER_PORT,
                  tls: config.CTRADER_TLS,
                  clientId: config.CTRADER_CLIENT_ID,
                  clientSecret: config.CTRADER_CLIENT_SECRET,
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
        log: app.log,
        onClosureStored: (accountId) => {
          closedPages?.stored(accountId);
        },
        ctraderGrants: () =>
          loadCTraderGrants(db, credentialsCipher, (userId, error) => {
            app.log.error({ err: error, userId }, 'robot: a cTrader grant does not open');
          }),
      })
    : undefined;
  app.decorate('robot', robot);
  const tradingRepository = new CachedTradingRepository(db, sessionCache);
  // Commands for the robot trading an account (decision 105): this process's robot; with
  // leases, the process holding the account's lease (the others are reached over the Redis
  // adapter; without REDIS_URL only a command for an account held here can be carried out).
  const localCommands = new LocalAccountCommands(robot);
  const scaledCommands = config.ROBOT_LEASES
    ? new ScaledAccountCommands(localCommands, {
        owner,
        leaseOwner: async (accountId) => (await tradingRepository.leaseHolder(accountId))?.owner,
      })
    : undefined;
  const trading: TradingService = new TradingService(
    users,
    tradingRepository,
    robot?.catalogue ?? new InstrumentCatalogue(),
    clock,
    robotNow,
    robot,
    closedPages,
    // The kill switch's robot-stopped notice (decision 088); the service is built below.
    { killSwitchPulled: (userId, closed) => notifications.killSwitchPulled(userId, closed) },
    config.ROBOT_LEASES ? { owner } : undefined,
    scaledCommands ?? localCommands,
  );
  const trackRecordRepository = new TrackRecordRepository(db);
  const promoCodes = new PromoCodesRepository(db);
  const platformLogins = new PlatformUsersRepository(db);
  const billingTimers = dependencies.billingTimers ?? true;
  // Timed items (webhook deliveries, receipts, gifts) are claimed before they are done, so each
  // is done by one of the processes sharing the database (decision 078).
  const jobClaims = new DrizzleJobClaims(db, owner, dependencies.jobLeaseMs, (job, item) => {
    app.log.error({ job, item }, 'jobs: an item whose two runs died is left undone');
  });
  const payments =
    dependencies.paymentProvider ??
    createPaymentProvider(config, app, db, clock, billingTimers, jobClaims);
  const billingRepository = new BillingRepository(db);
  // Every absolute link we hand out (provider return links, mails): PUBLIC_URL, else the
  // address we listen on; never the request's Host or X-Forwarded-Host (issue 18).
  const appBase = () =>
    config.PUBLIC_URL ?? listeningUrl(app) ?? `http://${config.HOST}:${String(config.PORT)}`;
  // Web push's VAPID keys, made once into DATA_DIR/secrets like the other keys (decision 088).
  const vapidKeys = await loadOrCreateVapidKeys(vapidKeyFile(config.dataDir));
  // Only the browsers' push services, over an agent that connects to public addresses only
  // (decision 115).
  const push = pushDelivery(config.NODE_ENV, dependencies.pushTestService);
  app.addHook('onClose', () => {
    push.agent.destroy();
  });
  const notifications: NotificationService = new NotificationService({
    push: {
      publicKey: vapidKeys.publicKey,
      accepts: push.accepts,
      subscriptions: new PushSubscriptionsRepository(db),
      sender: webPushSender(vapidKeys, `mailto:${config.SUPPORT_EMAIL}`, push),
      onNotDelivered: ({ host, reason }) => {
        app.log.warn({ host, reason }, 'notifications: a push was not delivered');
      },
    },
    repository: new NotificationsRepository(db),
    claims: jobClaims,
    windows: new DrizzleOncePerWindow(db, jobClaims.owner),
    mailer,
    clock,
    robotNow,
    links: (language) => {
      const page = (path: string) =>
        new URL(`${language === 'pt' ? '/pt' : ''}${path}`, appBase()).toString();
      return { dashboard: page('/dashboard'), settings: page('/profile-config') };
    },
    dayFigures: (userId, since) => trading.dayFigures(userId, since),
    houseAccountId: houseAccount.accountId,
    onError: (error, what) => {
      app.log.error({ err: error }, `notifications: ${what} failed`);
    },
  });
  // Access that ended while this server was down was taken away above, before the robot
  // loaded; its users hear of it as they would have at billing's run.
  for (const userId of lapsedWhileDown) await accessChanges.tellIfAccessStoppedRobot(userId);
  const billing = new BillingService({
    repository: billingRepository,
    provider: payments,
    users,
    mailer,
    claims: jobClaims,
    clock,
    // The yearly plan's gift: deposited by the process holding the account in the scaled set-up
    // (decision 105), whichever process runs the grant; by this process's robot otherwise.
    platform: scaledCommands
      ? {
          hasAccount: async (accountId) =>
            (await tradingRepository.platformAccount(accountId)) !== undefined,
          now: robotNow,
          deposit: (accountId, cents) => scaledCommands.deposit(accountId, cents),
        }
      : robot,
    publicUrl: () => appBase(),
    onAccessChanged: (userId) => accessChanges.accessChanged(userId),
    onError: (error, what) => {
      app.log.error({ err: error }, `billing: ${what} failed`);
    },
    onIgnoredEvent: ({ id, type }) => {
      app.log.info(
        { eventId: id, eventType: type },
        'billing: event about an unknown object ignored',
      );
    },
    onDuplicate: ({ userId, subscriptionId }) => {
      app.log.warn({ userId, subscriptionId }, 'billing: a second subscription refunded at once');
    },
  });
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
  // What follows an account's opening at the built-in platform, where the robot runs here.
  const accountOpening =
    robot &&
    new AccountOpeningService({
      robot,
      gifts: billing,
      house: { account: houseAccount, store: trackRecordRepository },
      hasher: argon2PasswordHasher,
      newSecret: () => randomBytes(32).toString('base64url'),
      userChanged: (userId) => users.userChanged(userId),
      applyStoredSettings: (userId) => trading.applyStoredSettings(userId),
      ...(config.ROBOT_LEASES ? { claims: jobClaims } : {}),
      onError: (error, message) => {
        app.log.error({ err: error }, message);
      },
    });
  const contactMessages = new ContactMessagesRepository(db);
  const adminAudit = new AdminAuditRepository(db);
  const adminUsers = new AdminUsersRepository(db);
  const adminAccounts = new AdminsRepository(db);
  const sessionsRepository = new SessionsRepository(db);
  const accountSettingsRepository = new AccountSettingsRepository(db);
  const onUserChanged = (userId: string) => users.userChanged(userId);
  const accountSettings = new AccountSettingsService({
    store: accountSettingsRepository,
    sessions: sessionsRepository,
    hasher: argon2PasswordHasher,
    mailer,
    clock,
    onSessionsRevoked,
    onUserChanged,
    // The configured origin only (issue 18); Portuguese pages live under /pt (decision 053).
    forgotPasswordUrl: (language) =>
      new URL(language === 'pt' ? '/pt/forgot-password' : '/forgot-password', appBase()).toString(),
    onMailFailure,
  });
  const authService = new AuthService(
    users,
    sessionsRepository,
    argon2PasswordHasher,
    secrets,
    clock,
    onSessionsRevoked,
    sessionCache,
    new SignInLinksRepository(db),
  );
  const consentsRepository = new ConsentsRepository(db);
  const registration = new RegistrationService({
    users,
    confirmations: new RegistrationConfirmationsRepository(db),
    consents: consentsRepository,
    promoCodes,
    hasher: argon2PasswordHasher,
    secrets,
    mailer,
    clock,
    // Portuguese pages live under /pt (decision 053).
    links: {
      page: (language, path) =>
        new URL(`${language === 'pt' ? '/pt' : ''}${path}`, appBase()).toString(),
    },
    supportEmail: config.SUPPORT_EMAIL,
    signIn: (userId, userAgent) => authService.openSession(userId, false, userAgent),
    promoBenefits: billing,
    onFailure: (error, step) => {
      app.log.error(
        { err: error, step },
        step === 'welcome'
          ? 'registration: mailing the welcome e-mail failed'
          : 'registration: storing or mailing a confirmation failed',
      );
    },
  });
  const emailChange = new EmailChangeService({
    store: new EmailChangesRepository(db),
    accountWithEmail: (email) => users.findByEmail(email),
    verifyPassword: (userId, password, field) =>
      accountSettings.verifyPassword(userId, password, field),
    secrets,
    mailer,
    clock,
    // Portuguese pages live under /pt (decision 053); the configured origin only (issue 18).
    page: (language, path) =>
      new URL(`${language === 'pt' ? '/pt' : ''}${path}`, appBase()).toString(),
    onSessionsRevoked,
    onUserChanged,
    onFailure: (error) => {
      app.log.error({ err: error }, 'email change: storing or mailing the links failed');
    },
  });
  const platformLinks = new TradingPlatformLinksRepository(db);
  // cTrader brokers through Spotware's OAuth2 (decision 091); without the application's
  // credentials the choice is shown disabled.
  const ctraderEndpoint =
    config.CTRADER_CLIENT_ID && config.CTRADER_CLIENT_SECRET
      ? {
          host: config.CTRADER_HOST ?? ctraderHosts[config.CTRADER_ENVIRONMENT],
          port: config.CTRADER_PORT,
          tls: config.CTRADER_TLS,
          clientId: config.CTRADER_CLIENT_ID,
          clientSecret: config.CTRADER_CLIENT_SECRET,
          environment: config.CTRADER_ENVIRONMENT,
        }
      : undefined;
  const ctraderLinking = new CTraderLinkingService({
    users,
    links: platformLinks,
    authorizations: new CTraderAuthorizationsRepository(db),
    cipher: credentialsCipher,
    clock,
    claims: jobClaims,
    oauth:
      ctraderEndpoint &&
      new CTraderOAuth({
        clientId: ctraderEndpoint.clientId,
        clientSecret: ctraderEndpoint.clientSecret,
        authorizeUrl: config.CTRADER_AUTH_URL,
        tokenUrl: config.CTRADER_TOKEN_URL,
        redirectUri: () =>
          config.CTRADER_REDIRECT_URI ?? new URL(ctraderCallbackRoute, appBase()).toString(),
      }),
    environment: config.CTRADER_ENVIRONMENT,
    listAccounts: (accessToken) => {
      if (!ctraderEndpoint) return Promise.resolve([]);
      return listCTraderAccounts(ctraderEndpoint, accessToken);
    },
    onLinked: (row) => accessChanges.linkChanged(row.userId),
    onTokenRefreshed: () => accessChanges.tokenRefreshed(),
    onFailure: (error, what) => {
      app.log.error({ err: error }, `ctrader: ${what} failed`);
    },
  });
  const unlinking = new UnlinkingService({
    users,
    links: platformLinks,
    clock,
    verifyPassword: (userId, password, field) =>
      accountSettings.verifyPassword(userId, password, field),
    closeEverything: async (user) => (await trading.kill(user, { notify: false })).closed,
    openOperations: (userId) => trading.openOperationCount(userId),
    onUnlinked: (row) => accessChanges.linkChanged(row.userId),
  });
  app.decorate<Services>('services', {
    emailChange,
    ctraderLinking,
    unlinking,
    geo: new GeoService(geoipDatabase),
    auth: authService,
    registration,
    account: new AccountService(users, clock, consentsRepository, transact),
    accountSettings,
    accountDeletion: new AccountDeletionService({
      verifyPassword: (userId, password, field) =>
        accountSettings.verifyPassword(userId, password, field),
      stopRobot: (user) => trading.stopBeforeDeletion(user),
      endSubscriptions: (userId) => billing.endSubscriptionsNow(userId),
      eraser: accountSettingsRepository,
      hasher: argon2PasswordHasher,
      newSecret: () => secrets.newToken(),
      mailer,
      clock,
      onSessionsRevoked,
      onUserChanged,
      onMailFailure,
    }),
    passwordRecovery: new PasswordRecoveryService(
      users,
      new PasswordResetRepository(db),
      argon2PasswordHasher,
      secrets,
      mailer,
      clock,
      (error) => {
        app.log.error({ err: error }, 'password recovery: storing or mailing a code failed');
      },
      onSessionsRevoked,
    ),
    promoCodes: new PromoCodesService(promoCodes, users, transact, clock, billing),
    emailSubscription: new EmailSubscriptionService(
      new EmailSubscriptionsRepository(db),
      promoCodes,
      mailer,
      clock,
      (error) => {
        app.log.error({ err: error }, 'sending e-mail failed');
      },
    ),
    trading,
    billing,
    linking: new LinkingService(
      users,
      platformLinks,
      new BuiltInTradingPlatform(
        platformLogins,
        argon2PasswordHasher,
        accountOpening && ((accountId, cents) => accountOpening.open(accountId, cents)),
      ),
      credentialsCipher,
      clock,
      async (row) => {
        await accountOpening?.linked(row);
      },
      (error, what) => {
        app.log.error({ err: error }, `trading platform: ${what} failed`);
      },
    ),
    brokerSearch: new BrokerSearchService(new BrokersRepository(db), clock),
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
        consoleUrl: (id) => new URL(`/admin/messages/${id}`, appBase()).toString(),
      },
      onMailFailure,
    ),
    adminAuth: new AdminAuthService(
      adminAccounts,
      new AdminSessionsRepository(db),
      adminAudit,
      argon2PasswordHasher,
      secrets,
      otplibTotp,
      totpSealer,
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
    adminUsers: new AdminUsersService(
      adminUsers,
      contactMessages,
      trading,
      billing,
      billingRepository,
      adminAudit,
      clock,
    ),
    adminPromoCodes: new AdminPromoCodesService(
      new AdminPromoCodesRepository(db),
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
    trackRecord: new TrackRecordService(
      trackRecordRepository,
      robot?.catalogue ?? new InstrumentCatalogue(),
      robot !== undefined,
      clock,
      robotNow,
    ),
    // The owner of an account under attack is warned once a day (decision 079).
    notifications,
    signInAlerts: new SignInAlertService({
      users,
      admins: adminAccounts,
      windows: new DrizzleOncePerWindow(db, jobClaims.owner),
      mailer,
      links: {
        forgotPassword: (language) =>
          new URL(language === 'pt' ? '/pt/forgot-password' : '/forgot-password', appBase()).href,
        // The token is in the query, which the request log redacts (http/log.ts); the login
        // page moves it out of the address bar at once (decision 130).
        signIn: async (userId, language) => {
          const url = new URL(language === 'pt' ? '/pt/login' : '/login', appBase());
          url.searchParams.set('sign_in_token', await authService.issueSignInLink(userId));
          return url.href;
        },
        console: () => new URL('/admin', appBase()).href,
        supportEmail: config.SUPPORT_EMAIL,
      },
      onSent: (accountKind, accountId) => {
        app.log.info({ accountKind, accountId }, 'sign-in alert mailed');
      },
      onError: (error) => {
        app.log.error({ err: error }, 'sign-in alert: looking up or mailing failed');
      },
    }),
  });
  if (config.DATABASE_URL && !config.ADMIN_TOTP_KEYS) {
    app.log.warn(
      { file: adminTotpKeyFile(config.dataDir) },
      'ADMIN_TOTP_KEYS is unset: admins’ TOTP secrets are sealed with a key kept in DATA_DIR; ' +
        'every process sharing this database needs the same key',
    );
  }
  // TOTP secrets in clear (before decision 059) or under an older key: sealed with the newest.
  const resealed = await app.services.adminAuth.sealTotpSecrets();
  if (resealed > 0)
    app.log.info({ admins: resealed }, 'admin TOTP secrets sealed with the newest key');
  // Codes requested just before closing are stored and mailed before the database closes.
  app.addHook('onClose', async () => {
    await app.services.passwordRecovery.settled();
    await app.services.registration.settled();
    await app.services.emailChange.settled();
    await app.services.signInAlerts.settled();
  });
  await registerRealtime(app, config, {
    auth: app.services.auth,
    ...(scaledCommands ? { accountCommands: scaledCommands } : {}),
  });

  // Live updates go through the RealtimePublisher port: the Socket.IO gateway, unless a test
  // passes its own.
  const publisher = dependencies.realtime ?? app.realtime;
  if (robot && accountOpening) {
    // Accounts registered while no robot ran here (or cut short by a crash) open now, and
    // then every few seconds (another process may register them: ROBOT_ENABLED=false).
    const openPending = () =>
      openPendingPlatformAccounts(
        robot,
        platformLogins,
        users,
        config.ROBOT_LEASES ? jobClaims : undefined,
      ).catch((error: unknown) => {
        app.log.error({ err: error }, 'robot: opening platform accounts failed');
        return 0;
      });
    // The robot's own account (the public track record, decision 060) opens with the pending.
    if (config.TRACK_RECORD_ENABLED) await accountOpening.writeTrackRecordAccount();
    await openPending();
    if (config.TRACK_RECORD_ENABLED) await accountOpening.applyTrackRecordSettings();
    let openings: Promise<number> = Promise.resolve(0);
    const openingsTimer =
      (dependencies.robotTimers ?? true)
        ? setInterval(() => {
            openings = openings.then(openPending);
          }, platformOpeningsMs)
        : undefined;
    const liveUpdates = new LiveUpdates(robot, trading, publisher, {
      sweepMs: liveEquitySweepMs,
      onError: (error, what) => {
        app.log.error({ err: error }, `robot: ${what} failed`);
      },
    });
    liveUpdates.start();
    // The same stream feeds the notification outbox (decision 088).
    const stopNotifying = robot.onEvent((event) => {
      notifications.robotEvent(event);
      // A cTrader token refused before its expiry is refreshed once, then read again by the
      // robot; a refused refresh leaves the user to link again (decision 113).
      if (event.type === 'BrokerStatus' && event.status === 'BROKER_RECONNECT_NEEDED') {
        ctraderLinking.refreshRefused(event.accountId).catch((error: unknown) => {
          app.log.error({ err: error }, 'ctrader: refreshing a refused token failed');
        });
      }
    });
    app.addHook('onClose', async () => {
      clearInterval(openingsTimer);
      await openings;
      await liveUpdates.stop();
      await robot.stop();
      stopNotifying();
      await notifications.settled();
    });
  }

  // The notification outbox's clock (decision 088), in every process: claims keep each e-mail
  // to one of them. Registered after the robot's onClose hook, so it stops first.
  const notificationTimers = dependencies.notificationTimers ?? true;
  let notificationTimer: NodeJS.Timeout | undefined;
  app.addHook('onReady', async () => {
    if (!notificationTimers) return;
    notificationTimer = setInterval(() => {
      notifications.runDue().catch((error: unknown) => {
        app.log.error({ err: error }, 'notifications: the clock run failed');
      });
    }, notificationTickMs);
    notificationTimer.unref();
  });
  app.addHook('onClose', async () => {
    clearInterval(notificationTimer);
    await notifications.idle();
  });

  // cTrader grants refreshed before they expire, each by one process (decision 091).
  let ctraderRefreshTimer: NodeJS.Timeout | undefined;
  let ctraderRefreshing: Promise<unknown> = Promise.resolve();
  app.addHook('onReady', async () => {
    if (!(dependencies.ctraderRefreshTimers ?? true) || !ctraderLinking.configured) return;
    ctraderRefreshTimer = setInterval(() => {
      ctraderRefreshing = ctraderRefreshing.then(() =>
        ctraderLinking.refreshDue().catch((error: unknown) => {
          app.log.error({ err: error }, 'ctrader: the refresh run failed');
        }),
      );
    }, ctraderRefreshTickMs);
    ctraderRefreshTimer.unref();
  });
  app.addHook('onClose', async () => {
    clearInterval(ctraderRefreshTimer);
    await ctraderRefreshing;
  });

  // Billing's clock. Registered after the robot's onClose hook, so it stops first.
  if (payments instanceof SimulatedPaymentProvider) payments.start();
  let billingTimer: NodeJS.Timeout | undefined;
  const runBilling = () =>
    billing.runDue().catch((error: unknown) => {
      app.log.error({ err: error }, 'billing: the clock run failed');
    });
  // Once the server listens, billing runs at once: renewals and access that ended while it was
  // down, and the events recorded during start-up, delivered now rather than a tick later.
  app.addHook('onListen', () => {
    if (billingTimers) void runBilling();
  });
  app.addHook('onReady', async () => {
    // Gifts that a stop interrupted are granted before anything else happens.
    await billing.grantPendingGifts();
    if (billingTimers) {
      billingTimer = setInterval(() => void runBilling(), billingTickMs);
      billingTimer.unref();
    }
  });
  app.addHook('onClose', async () => {
    clearInterval(billingTimer);
    if (payments instanceof SimulatedPaymentProvider) await payments.stop();
  });

  await app.register(compress, { global: true, threshold: 1024 });
  registerSecurityHeaders(app);
  await registerRateLimits(app, {
    redisUrl: config.REDIS_URL,
    ...(dependencies.rateLimitRedisPrefix
      ? { redisPrefix: dependencies.rateLimitRedisPrefix }
      : {}),
    onRedisError: (error) => {
      app.log.warn({ err: error }, 'rate limits: Redis failed; counting in this process meanwhile');
    },
  });
  await registerOpenApi(app);

  await app.register(healthRoutes, { prefix: '/core-api' });
  await app.register(
    async (v1) => {
      await v1.register(geoRoutes);
      await v1.register(authRoutes);
      await v1.register(accountRoutes);
      await v1.register(accountSettingsRoutes);
      await v1.register(emailChangeRoutes);
      await v1.register(promoCodesRoutes);
      await v1.register(emailSubscriptionRoutes);
      await v1.register(notificationRoutes);
      await v1.register(tradingRoutes);
      await v1.register(linkingRoutes);
      await v1.register(ctraderLinkingRoutes);
      await v1.register(brokerSearchRoutes);
      await v1.register(trackRecordRoutes);
      await v1.register(billingRoutes);
      await v1.register(contactRoutes);
      await v1.register(adminSessionRoutes);
      await v1.register(adminConsoleRoutes);
    },
    { prefix: apiV1Prefix },
  );

  if (payments instanceof SimulatedPaymentProvider) {
    const { geo } = app.services;
    await app.register(
      simulatedCheckoutRoutes(payments, (ip) => geo.countryCodeOf(ip)),
      { prefix: simulatedPaymentsPath },
    );
  }

  const directory = new BrokersRepository(db);
  const servesWeb = await registerWebApp(app, config.WEB_DIST_DIR ?? defaultWebDist, (id) =>
    directory.nameOf(id),
  );

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
