import { LRUCache } from 'lru-cache';
import rateLimit, {
  normalizeIP,
  type FastifyRateLimitStore,
  type FastifyRateLimitStoreCtor,
} from '@fastify/rate-limit';
import LocalStore from '@fastify/rate-limit/store/LocalStore.js';
import RedisStore from '@fastify/rate-limit/store/RedisStore.js';
import { createHash } from 'node:crypto';
import type {
  FastifyInstance,
  FastifyRequest,
  onResponseAsyncHookHandler,
  preHandlerAsyncHookHandler,
} from 'fastify';
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
  // Sign-ins (decision 067): see signInRules.
  // Per e-mail too: each mails the address (a confirmation link, or "you have an account").
  register: { perIp: { max: 10, timeWindow: hour }, perAccount: { max: 5, timeWindow: hour } },
  // A link's token is unguessable; with the password from another browser, tries are counted.
  registerConfirm: { perIp: { max: 20, timeWindow: 15 * minute } },
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
  // Per user id: each authorisation, callback or pick reaches cTrader (decision 091).
  ctraderLinking: {
    perIp: { max: 60, timeWindow: 15 * minute },
    perAccount: { max: 20, timeWindow: 15 * minute },
  },
  // Per user id: each checks the password (argon2).
  unlinkAccount: {
    perIp: { max: 20, timeWindow: 15 * minute },
    perAccount: { max: 5, timeWindow: 15 * minute },
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
  // Per user id (decision 080): changing the password and deleting the account each check the
  // current password (argon2), so a stolen session cannot guess it quickly.
  accountPassword: {
    perIp: { max: 20, timeWindow: 15 * minute },
    perAccount: { max: 5, timeWindow: 15 * minute },
  },
  // The phone and the sessions (sign out one, or every other), per user id together.
  // None checks a password: the limits only stop a runaway script, never a person saving
  // (decision 120; a settings page saves on each switch).
  accountChange: {
    perIp: { max: 1000, timeWindow: 15 * minute },
    perAccount: { max: 500, timeWindow: 15 * minute },
  },
  // Changing the e-mail (decision 089): as register, since each mails two addresses; per user
  // id, and each checks the current password (argon2).
  accountEmail: { perIp: { max: 10, timeWindow: hour }, perAccount: { max: 5, timeWindow: hour } },
  // The links mailed for it: tokens are unguessable; as register's confirmation.
  accountEmailLink: { perIp: { max: 20, timeWindow: 15 * minute } },
  // "Download my data" (decision 153), per user id: each reads every table the user is in.
  dataExport: { perIp: { max: 20, timeWindow: hour }, perAccount: { max: 5, timeWindow: hour } },
  // Closing one operation (decision 152), per user id: each reaches the robot and a platform.
  // A person closes a few; the limit only stops a runaway script.
  closeOperation: {
    perIp: { max: 300, timeWindow: 15 * minute },
    perAccount: { max: 100, timeWindow: 15 * minute },
  },
} satisfies Record<string, { perIp: Limit; perAccount?: Limit }>;

export type RateLimitedAction = keyof typeof rateLimitRules;

/**
 * Sign-ins (issue 18, finding 8; decision 067): a tight budget per (account, address) pair,
 * and a slower one per account that only addresses which never signed in to that account
 * share. So nobody can lock an owner out from elsewhere: the owner's known address is never
 * counted against the account, and the attacker's own pair runs out first.
 */
export const signInRules = {
  login: {
    perIp: { max: 30, timeWindow: 15 * minute },
    perPair: { max: 10, timeWindow: 15 * minute },
    perAccount: { max: 30, timeWindow: hour },
  },
  adminLogin: {
    perIp: { max: 20, timeWindow: 15 * minute },
    perPair: { max: 5, timeWindow: 15 * minute },
    perAccount: { max: 20, timeWindow: hour },
  },
} satisfies Record<string, { perIp: Limit; perPair: Limit; perAccount: Limit }>;

export type SignInAction = keyof typeof signInRules;

/** An address stays known for an account this long after its last successful sign-in. */
export const knownAddressMs = 90 * 86_400_000;
const knownAddressesInMemory = 100_000;

/**
 * The (account, address) pairs that signed in successfully: in Redis when configured (shared
 * by every process), else, and while Redis fails, in this process. Keys are digests: no
 * e-mail or address is stored in clear.
 */
export class KnownAddresses {
  /** Addresses known here, most recently used kept (lru-cache, decision 090); Redis holds them all. */
  private readonly local = new LRUCache<string, true>({
    max: knownAddressesInMemory,
    ttl: knownAddressMs,
  });

  constructor(
    private readonly redis?: Redis,
    private readonly prefix = 'tradebot:known-address:',
    private readonly onError: (error: unknown) => void = () => undefined,
  ) {}

  private static keyOf(action: string, account: string, address: string) {
    return createHash('sha256').update(`${action}\n${account}\n${address}`).digest('hex');
  }

  async has(action: string, account: string, address: string): Promise<boolean> {
    const key = KnownAddresses.keyOf(action, account, address);
    if (this.local.get(key)) return true;
    if (!this.redis) return false;
    try {
      return (await this.redis.exists(`${this.prefix}${key}`)) === 1;
    } catch (error) {
      this.onError(error);
      return false;
    }
  }

  async add(action: string, account: string, address: string): Promise<void> {
    const key = KnownAddresses.keyOf(action, account, address);
    this.local.set(key, true);
    if (!this.redis) return;
    try {
      await this.redis.set(`${this.prefix}${key}`, '1', 'PX', knownAddressMs);
    } catch (error) {
      this.onError(error);
    }
  }
}

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

/** Gives one hit back, never below zero, and leaves the key's expiry as it is. */
const giveBackScript = `
  local current = tonumber(redis.call('GET', KEYS[1]))
  if current and current > 0 then return redis.call('DECR', KEYS[1]) end
  return 0
`;

/**
 * Every limit's counters. With Redis, each hit goes to Redis; when Redis fails or is slow,
 * that hit counts in this process's memory instead, so limits hold (per process, at worst N
 * times looser across N processes) and the route still answers: neither a 500 nor an open
 * door (decision 052). Without Redis, in memory only. Besides counting, a key can be
 * forgotten or given one hit back: a sign-in that succeeded clears its account's failures and
 * does not count against its address (decision 120).
 */
export class RateLimitCounters {
  /** Each limit's counters in this process (the library makes one store per limit). */
  private readonly locals = new Set<LocalStore>();
  private readonly shared: FastifyRateLimitStore | undefined;

  constructor(
    private readonly redis?: Redis,
    private readonly prefix = '',
    private readonly onError: (error: unknown) => void = () => undefined,
  ) {
    this.shared = redis && new RedisStore(false, false, redis, prefix);
  }

  /** The store class @fastify/rate-limit makes each limit's store of. */
  store(): FastifyRateLimitStoreCtor {
    const { locals, shared, onError } = this;
    return class Counted implements FastifyRateLimitStore {
      private readonly local = new LocalStore(false, false, memoryKeysPerLimit);

      constructor() {
        locals.add(this.local);
      }

      incr(...[key, callback, timeWindow, max]: Parameters<FastifyRateLimitStore['incr']>) {
        if (!shared) {
          this.local.incr(key, callback, timeWindow, max);
          return;
        }
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
        return new Counted();
      }
    };
  }

  /** Sets `key` back to no hits, in Redis and in this process. */
  async forget(key: string): Promise<void> {
    for (const local of this.locals) local.lru.delete(key);
    if (!this.redis) return;
    try {
      await this.redis.del(`${this.prefix}${key}`);
    } catch (error) {
      this.onError(error);
    }
  }

  /** Takes one hit back from `key`: in Redis, or in this process while Redis fails. */
  async giveBack(key: string): Promise<void> {
    if (this.redis) {
      try {
        await this.redis.eval(giveBackScript, 1, `${this.prefix}${key}`);
        return;
      } catch (error) {
        this.onError(error);
      }
    }
    for (const local of this.locals) {
      const counter = local.lru.get(key);
      if (counter && counter.current > 0) counter.current -= 1;
    }
  }
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
  let counters = new RateLimitCounters();
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
    app.decorate(
      'knownAddresses',
      new KnownAddresses(
        redis,
        `${storage.redisPrefix ?? 'tradebot:rate-limit:'}known-address:`,
        onError,
      ),
    );
    counters = new RateLimitCounters(redis, storage.redisPrefix ?? 'tradebot:rate-limit:', onError);
  }
  if (!app.hasDecorator('knownAddresses')) app.decorate('knownAddresses', new KnownAddresses());
  app.decorate('rateLimitCounters', counters);
  await app.register(rateLimit, { global: false, store: counters.store() });
}

declare module 'fastify' {
  interface FastifyInstance {
    knownAddresses: KnownAddresses;
    rateLimitCounters: RateLimitCounters;
  }
}

function tooMany(retryAfter: number): AppError {
  return new AppError('RATE_LIMITED', undefined, undefined, {
    'retry-after': String(retryAfter),
  });
}

/** Which of a sign-in's counters refused it (decision 067). */
export type SignInCounter = 'address' | 'pair' | 'account';

/** A sign-in the limits refused, as told to the route (decision 079). */
export interface SignInRefusal {
  /** The account it named (lower case), if any. */
  account: string | undefined;
  /** Whether the client's address signed in to that account before (then it is the owner's). */
  knownAddress: boolean;
  /** The counters over their limit. */
  by: SignInCounter[];
  /**
   * The first refusal of one of those counters in its window: told once per counter and
   * window, whatever number of refused requests follow, so what it triggers stays bounded.
   */
  first: boolean;
}

/**
 * A refusal that says the account is under attack (decision 079): the account's own budgets
 * (its pair's, or its budget for unknown addresses) ran out for an address that never signed
 * in to it, and this is the first refusal of a counter in its window.
 */
export function isAttackOnAccount(refusal: SignInRefusal): refusal is SignInRefusal & {
  account: string;
} {
  return (
    refusal.account !== undefined &&
    !refusal.knownAddress &&
    refusal.first &&
    refusal.by.some((counter) => counter !== 'address')
  );
}

/**
 * What a sign-in's one-time link says (decision 130): none carried; one usable by the account,
 * which passes the account's own counters (its pair's and its budget for unknown addresses);
 * or one that is not, answered with `refusal` once the attempt is counted as any other.
 */
export type SignInLink = 'none' | 'usable' | { refusal: Error };

/**
 * The hooks of a sign-in route (decision 067): the preHandler counts the attempt per address,
 * per (account, address) pair and, for an address that never signed in to the account, per
 * account; onResponse remembers the address when the sign-in succeeded (200). `onRefused` is
 * told of each refusal and awaited before the 429 (decision 079); its failure is logged, and
 * the answer is the 429 all the same. `linkOf` reads a sign-in link the request carries
 * (decision 130): a usable one is counted per address only.
 */
export function limitSignIns(
  app: FastifyInstance,
  action: SignInAction,
  accountOf: (request: FastifyRequest) => string | undefined,
  onRefused: (refusal: SignInRefusal, request: FastifyRequest) => void | Promise<void> = () =>
    undefined,
  linkOf: (request: FastifyRequest, account: string) => Promise<SignInLink> = () =>
    Promise.resolve('none'),
): { preHandler: preHandlerAsyncHookHandler; onResponse: onResponseAsyncHookHandler } {
  const rules = signInRules[action];
  const accounts = new WeakMap<FastifyRequest, string>();
  const addressOf = (request: FastifyRequest) => normalizeIP(request.ip);
  // `ban: 1` makes the library say when a counter is past its limit by more than one: a
  // refusal that is not "banned" is the counter's first in its window (max + 1). Nothing
  // else reads `isBanned` (createRateLimit answers nothing itself).
  const keys = {
    address: (request: FastifyRequest) => `${action}:ip:${addressOf(request)}`,
    pair: (request: FastifyRequest) =>
      `${action}:pair:${accounts.get(request) ?? ''}:${addressOf(request)}`,
    account: (request: FastifyRequest) => `${action}:account:${accounts.get(request) ?? ''}`,
  } satisfies Record<SignInCounter, (request: FastifyRequest) => string>;
  const perIp = app.createRateLimit({ ...rules.perIp, ban: 1, keyGenerator: keys.address });
  const perPair = app.createRateLimit({ ...rules.perPair, ban: 1, keyGenerator: keys.pair });
  const perAccount = app.createRateLimit({
    ...rules.perAccount,
    ban: 1,
    keyGenerator: keys.account,
  });
  return {
    preHandler: async (request) => {
      const account = accountOf(request)?.trim().toLowerCase();
      const counted = async (counter: SignInCounter, check: ReturnType<typeof perIp>) => ({
        counter,
        result: await check,
      });
      const checks = [counted('address', perIp(request))];
      let knownAddress = false;
      let link: SignInLink = 'none';
      if (account) {
        accounts.set(request, account);
        link = await linkOf(request, account);
        if (link !== 'usable') {
          checks.push(counted('pair', perPair(request)));
          knownAddress = await app.knownAddresses.has(action, account, addressOf(request));
          if (!knownAddress) checks.push(counted('account', perAccount(request)));
        }
      }
      let retryAfter = 0;
      const by: SignInCounter[] = [];
      let first = false;
      for (const { counter, result } of await Promise.all(checks)) {
        if (!result.isAllowed && result.isExceeded) {
          retryAfter = Math.max(retryAfter, result.ttlInSeconds, 1);
          by.push(counter);
          if (!result.isBanned) first = true;
        }
      }
      if (retryAfter > 0) {
        try {
          await onRefused({ account, knownAddress, by, first }, request);
        } catch (error) {
          request.log.error({ err: error }, 'sign-in limits: handling a refusal failed');
        }
      }
      if (typeof link === 'object') throw link.refusal;
      if (retryAfter > 0) throw tooMany(retryAfter);
    },
    onResponse: async (request, reply) => {
      const account = accounts.get(request);
      if (!account || reply.statusCode !== 200) return;
      // Only failures count (decision 120): a success clears the account's failures (its
      // pair's and from unknown addresses) and is taken back from its address's count.
      const counters = app.rateLimitCounters;
      await Promise.all([
        app.knownAddresses.add(action, account, addressOf(request)),
        counters.forget(keys.pair(request)),
        counters.forget(keys.account(request)),
        counters.giveBack(keys.address(request)),
      ]);
    },
  };
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
    if (retryAfter > 0) throw tooMany(retryAfter);
  };
}
