import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config';
import { SessionCache } from '../../repositories/session-cache';
import { redisSessionCacheBus } from '../../repositories/session-cache-bus';

/** Sessions (and users' settings) kept in each process, and how long each is trusted. */
const sessionCacheLimits = { maxEntries: 10_000, ttlMs: 60_000 };

/**
 * The session cache; with REDIS_URL its changes reach the other processes over Redis, and it
 * serves nothing while its subscription is down (decision 045).
 */
export function createSessionCache(config: Config, app: FastifyInstance): SessionCache {
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
