import rateLimit, {
  normalizeIP,
  type FastifyRateLimitStore,
  type RateLimitPluginOptions,
} from '@fastify/rate-limit';
import LocalStore from '@fastify/rate-limit/store/LocalStore.js';
import RedisStore from '@fastify/rate-limit/store/RedisStore.js';
import type { FastifyInstance, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import { Redis } from 'ioredis';
import { AppError } from './errors';

const minute = 60_000;
const hour = 60 * minute;

interface Limit {
  max: number;
  timeWindow: number;
}

/**
 * Attempts per client address and, where there is one, per account (an e-mail or a user id),
 * per action (decision 052). An address is the client's as TRUST_PROXY lets us know it;
 * IPv6 addresses count per /64, as @fastify/rate-limit groups them.
 */
export const rateLimitRules = {
  login: {
    perIp: { max: 30, timeWindow: 15 * minute },
    perAccount: { max: 10, timeWindow: 15 * minute },
  },
  register: { perIp: { max: 10, timeWindow: hour } },
  forgotPassword: {
    perIp: { max: 10, timeWindow: 15 * minute },
    perAccount: { max: 3, timeWindow: 15 * minute },
  },
  setPassword: {
    perIp: { max: 20, timeWindow: 15 * minute },
    perAccount: { max: 10, timeWindow: 15 * minute },
  },
  validatePromocode: {
    perIp: { max: 30, timeWindow: minute },
    perAccount: { max: 30, timeWindow: minute },
  },
  // Each mails a code: per e-mail, a repeat within a day mails nothing anyway.
  emailSubscription: {
    perIp: { max: 10, timeWindow: hour },
    perAccount: { max: 5, timeWindow: 15 * minute },
  },
  brokerSearch: { perIp: { max: 60, timeWindow: minute } },
  // Public and cached for a few seconds; the page polls and pages through the operations.
  trackRecord: { perIp: { max: 120, timeWindow: minute } },
  contact: {
    perIp: { max: 20, timeWindow: hour },
    perAccount: { max: 5, timeWindow: hour },
  },
  adminLogin: {
    perIp: { max: 20, timeWindow: 15 * minute },
    perAccount: { max: 5, timeWindow: 15 * minute },
  },
  // A session also ends after five wrong codes (adminSessionPolicy).
  adminSecondFactor: {
    perIp: { max: 20, timeWindow: 15 * minute },
    perAccount: { max: 10, timeWindow: 15 * minute },
  },
  // Per user id: each try hashes a password (argon2) at the platform.
  linkAccount: {
    perIp: { max: 20, timeWindow: 15 * minute },
    perAccount: { max: 5, timeWindow: 15 * minute },
  },
  tradingPlatformLogin: {
    perIp: { max: 30, timeWindow: 15 * minute },
    perAccount: { max: 10, timeWindow: 15 * minute },
  },
  // Per user id: each opens a session at the payment provider (decision 058).
  billingCheckout: {
    perIp: { max: 30, timeWindow: hour },
    perAccount: { max: 10, timeWindow: hour },
  },
  // Cancel, resume, refund and the card's page (the portal), per user id together.
  billingChange: {
    perIp: { max: 30, timeWindow: 15 * minute },
    perAccount: { max: 10, timeWindow: 15 * minute },
  },
} satisfies Record<string, { perIp: Limit; perAccount?: Limit }>;

export type RateLimitedAction = keyof typeof rateLimitRules;

/** Counters kept per limit in memory: more distinct addresses than this within a window evict the oldest. */
const memoryKeysPerLimit = 20_000;
/** How long a starting process waits for Redis before it serves (counting alone meanwhile). */
const redisReadyWaitMs = 2_000;
/** A Redis that does not answer in this time counts as down for that request. */
const redisCommandTimeoutMs = 500;

export interface RateLimitStorage {
  /** Redis shared by every process (REDIS_URL); otherwise counters live in this process. */
  redisUrl?: string | undefined;
  /** Prefix of the Redis keys (tests give each app its own). */
  redisPrefix?: string;
  /** Told when Redis fails and the limits fall back to this process's counters. */
  onRedisError?: (error: unknown) => void;
}

/**
 * With Redis, each hit goes to Redis; when Redis fails or is slow, that hit counts in this
 * process's memory instead, so limits hold (per process, at worst N times looser across N
 * processes) and the route still answers: neither a 500 nor an open door (decision 052).
 */
function redisWithFallback(redis: Redis, prefix: string, onError: (error: unknown) => void) {
  const shared = new RedisStore(false, false, redis, prefix);
  return class RedisWithMemoryFallback implements FastifyRateLimitStore {
    private readonly local = new LocalStore(false, false, memoryKeysPerLimit);

    incr(...[key, callback, timeWindow, max]: Parameters<FastifyRateLimitStore['incr']>) {
      shared.incr(
        key,
        (error, result) => {
          if (!error && result) {
            callback(null, result);
            return;
          }
          onError(error);
          this.local.incr(key, callback, timeWindow, max);
        },
        timeWindow,
        max,
      );
    }

    child(): FastifyRateLimitStore {
      return new RedisWithMemoryFallback();
    }
  };
}

/** While Redis is down every hit fails: the outage is reported once per this period. */
const redisErrorReportMs = 30_000;

function throttled(report: (error: unknown) => void, periodMs: number) {
  let last = -Infinity;
  return (error: unknown) => {
    const now = Date.now();
    if (now - last < periodMs) return;
    last = now;
    report(error);
  };
}

export async function registerRateLimits(
  app: FastifyInstance,
  storage: RateLimitStorage,
): Promise<void> {
  const options: RateLimitPluginOptions = { global: false, cache: memoryKeysPerLimit };
  if (storage.redisUrl) {
    const redis = new Redis(storage.redisUrl, {
      // Fail at once while disconnected, and never wait long: the fallback answers instead.
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      commandTimeout: redisCommandTimeoutMs,
    });
    const onError = throttled(storage.onRedisError ?? (() => undefined), redisErrorReportMs);
    redis.on('error', onError);
    // Not fatal: until connected, hits count in this process (as while Redis is down).
    app.addHook('onReady', async () => {
      if (redis.status === 'ready') return;
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        new Promise((resolve) => redis.once('ready', resolve)),
        new Promise((resolve) => (timer = setTimeout(resolve, redisReadyWaitMs))),
      ]);
      clearTimeout(timer);
    });
    app.addHook('onClose', async () => {
      redis.disconnect();
    });
    options.store = redisWithFallback(
      redis,
      storage.redisPrefix ?? 'tradebot:rate-limit:',
      onError,
    );
  }
  await app.register(rateLimit, options);
}

/**
 * A preHandler that counts one attempt at `action` for the client's address and, when
 * `accountOf` names one, for the account; over either limit it answers a localized 429 with
 * Retry-After. It runs after validation, so an account is a valid e-mail.
 */
export function limitAttempts(
  app: FastifyInstance,
  action: RateLimitedAction,
  accountOf?: (request: FastifyRequest) => string | undefined | Promise<string | undefined>,
): preHandlerAsyncHookHandler {
  const rules: { perIp: Limit; perAccount?: Limit } = rateLimitRules[action];
  const accounts = new WeakMap<FastifyRequest, string>();
  const perIp = app.createRateLimit({
    ...rules.perIp,
    keyGenerator: (request) => `${action}:ip:${normalizeIP(request.ip)}`,
  });
  const perAccount =
    rules.perAccount &&
    app.createRateLimit({
      ...rules.perAccount,
      keyGenerator: (request) => `${action}:account:${accounts.get(request) ?? ''}`,
    });
  return async (request) => {
    const checks = [perIp(request)];
    const account = (await accountOf?.(request))?.trim().toLowerCase();
    if (perAccount && account) {
      accounts.set(request, account);
      checks.push(perAccount(request));
    }
    let retryAfter = 0;
    for (const result of await Promise.all(checks)) {
      if (!result.isAllowed && result.isExceeded) {
        retryAfter = Math.max(retryAfter, result.ttlInSeconds, 1);
      }
    }
    if (retryAfter > 0) {
      throw new AppError('RATE_LIMITED', undefined, undefined, {
        'retry-after': String(retryAfter),
      });
    }
  };
}
