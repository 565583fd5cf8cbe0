import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import {
  memoryRateLimitStore,
  redisRateLimitStore,
  type RateLimitStore,
} from '../src/repositories/rate-limit.repository';

const redisUrl = process.env.TEST_REDIS_URL;
const stores: [string, () => RateLimitStore][] = [['memory', memoryRateLimitStore]];
if (redisUrl)
  stores.push(['redis', () => redisRateLimitStore(new Redis(redisUrl), `test:${randomUUID()}:`)]);

describe.each(stores)('%s rate-limit store', (_name, makeStore) => {
  const store = makeStore();
  afterAll(() => store.close());

  it('allows up to the limit in a window, then refuses until it resets', async () => {
    const key = randomUUID();
    const now = Date.now();
    const results = [];
    for (let hit = 0; hit < 4; hit++) results.push(await store.hit(key, 3, 60_000, now));
    expect(results.map((result) => result.allowed)).toEqual([true, true, true, false]);
    expect(results[3]?.retryAfterSeconds).toBeGreaterThan(50);
    expect(results[3]?.retryAfterSeconds).toBeLessThanOrEqual(60);
  });

  it('keeps keys apart', async () => {
    const now = Date.now();
    expect((await store.hit(randomUUID(), 1, 60_000, now)).allowed).toBe(true);
    expect((await store.hit(randomUUID(), 1, 60_000, now)).allowed).toBe(true);
  });
});

describe('memory store windows', () => {
  it('opens a new window once the old one has passed', async () => {
    const store = memoryRateLimitStore();
    expect((await store.hit('k', 1, 1000, 0)).allowed).toBe(true);
    expect((await store.hit('k', 1, 1000, 500)).allowed).toBe(false);
    expect((await store.hit('k', 1, 1000, 1000)).allowed).toBe(true);
  });
});
