// The two stores @fastify/rate-limit ships (it exports neither, nor their types): the
// in-memory LRU store and the Redis store (one Lua script per hit).
declare module '@fastify/rate-limit/store/LocalStore.js' {
  import type { FastifyRateLimitStore } from '@fastify/rate-limit';

  /** A key's count: hits since the window began (at iterationStartMs). */
  interface Counter {
    current: number;
    ttl: number;
    iterationStartMs: number;
  }

  class LocalStore implements FastifyRateLimitStore {
    constructor(continueExceeding: boolean, exponentialBackoff: boolean, cache?: number);
    /** The counts by key (toad-cache's LruMap); a counter is changed in place. */
    readonly lru: { get(key: string): Counter | undefined; delete(key: string): void };
    incr: FastifyRateLimitStore['incr'];
    child: FastifyRateLimitStore['child'];
  }
  export default LocalStore;
}

declare module '@fastify/rate-limit/store/RedisStore.js' {
  import type { FastifyRateLimitStore } from '@fastify/rate-limit';
  import type { Redis } from 'ioredis';

  const RedisStore: new (
    continueExceeding: boolean,
    exponentialBackoff: boolean,
    redis: Redis,
    key?: string,
  ) => FastifyRateLimitStore;
  export default RedisStore;
}
