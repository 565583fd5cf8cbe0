import type { Redis } from 'ioredis';

export interface RateLimitResult {
  allowed: boolean;
  /** Seconds until the window resets. */
  retryAfterSeconds: number;
}

/** Counts hits per key in fixed windows. In memory for one process, Redis for many. */
export interface RateLimitStore {
  hit(key: string, limit: number, windowMs: number, nowMs: number): Promise<RateLimitResult>;
  close(): Promise<void>;
}

export function memoryRateLimitStore(): RateLimitStore {
  const windows = new Map<string, { count: number; resetAt: number }>();
  let sweeps = 0;
  return {
    async hit(key, limit, windowMs, nowMs) {
      // Forget expired windows now and then, so memory stays bounded by live keys.
      if (++sweeps % 1000 === 0) {
        for (const [storedKey, window] of windows)
          if (window.resetAt <= nowMs) windows.delete(storedKey);
      }
      let window = windows.get(key);
      if (!window || window.resetAt <= nowMs) {
        window = { count: 0, resetAt: nowMs + windowMs };
        windows.set(key, window);
      }
      window.count += 1;
      return {
        allowed: window.count <= limit,
        retryAfterSeconds: Math.max(1, Math.ceil((window.resetAt - nowMs) / 1000)),
      };
    },
    async close() {
      windows.clear();
    },
  };
}

/** One INCR and, on a new window, one PEXPIRE: atomic across processes. */
export function redisRateLimitStore(redis: Redis, prefix = 'ratelimit:'): RateLimitStore {
  return {
    async hit(key, limit, windowMs) {
      const fullKey = `${prefix}${key}`;
      const results = await redis.multi().incr(fullKey).pttl(fullKey).exec();
      const count = Number(results?.[0]?.[1] ?? 0);
      let ttl = Number(results?.[1]?.[1] ?? -1);
      if (ttl < 0) {
        await redis.pexpire(fullKey, windowMs);
        ttl = windowMs;
      }
      return { allowed: count <= limit, retryAfterSeconds: Math.max(1, Math.ceil(ttl / 1000)) };
    },
    async close() {
      await redis.quit();
    },
  };
}
