import { describe, expect, it } from 'vitest';
import type { SettingsRow, UserRow } from './users.repository';
import { SessionCache, type SessionCacheBus, type SessionCacheChange } from './session-cache';

const user = (id: string) => ({ id }) as UserRow;
const session = (sessionId: string, userId: string, expiresAt = 10_000) => ({
  sessionId,
  user: user(userId),
  expiresAt,
});

function cacheAt(options: { maxEntries?: number; ttlMs?: number; bus?: SessionCacheBus } = {}) {
  // A monotonic clock well past 0 (lru-cache takes a start of 0 for "no lifetime").
  let now = 1_000;
  const cache = new SessionCache({
    maxEntries: options.maxEntries ?? 10,
    ttlMs: options.ttlMs ?? 1_000,
    now: () => now,
    ...(options.bus ? { bus: options.bus } : {}),
  });
  let loads = 0;
  const load =
    <T>(value: T) =>
    () => {
      loads++;
      return Promise.resolve(value);
    };
  return {
    cache,
    load,
    loads: () => loads,
    advance: (ms: number) => {
      now += ms;
    },
  };
}

describe('SessionCache', () => {
  it('reads once, then serves from memory until the entry outlives ttlMs', async () => {
    const { cache, load, loads, advance } = cacheAt({ ttlMs: 1_000 });
    await cache.session('hash', 0, load(session('s1', 'u1')));
    await cache.session('hash', 0, load(session('s1', 'u1')));
    expect(loads()).toBe(1);
    advance(1_001);
    await cache.session('hash', 0, load(session('s1', 'u1')));
    expect(loads()).toBe(2);
  });

  it('never serves a session past its own expiry', async () => {
    const { cache, load, loads } = cacheAt();
    await cache.session('hash', 0, load(session('s1', 'u1', 500)));
    expect(await cache.session('hash', 600, load(undefined))).toBeUndefined();
    expect(loads()).toBe(2);
  });

  it('drops one session, or every entry of a user, on a change', async () => {
    const { cache, load, loads } = cacheAt();
    await cache.session('a', 0, load(session('s1', 'u1')));
    await cache.session('b', 0, load(session('s2', 'u1')));
    await cache.userSettings('u1', load({ userId: 'u1' } as SettingsRow));
    await cache.changed({ kind: 'session', sessionId: 's1' });
    expect(await cache.session('a', 0, load(undefined))).toBeUndefined();
    await cache.session('b', 0, load(session('s2', 'u1')));
    expect(loads()).toBe(4);
    await cache.changed({ kind: 'userSessions', userId: 'u1' });
    expect(cache.size).toBe(0);
  });

  it('does not store what a read found when a change came while it read', async () => {
    const { cache, load, loads } = cacheAt();
    let release: (value: ReturnType<typeof session>) => void = () => undefined;
    const racing = cache.session('hash', 0, () => new Promise((resolve) => (release = resolve)));
    await cache.changed({ kind: 'session', sessionId: 's1' });
    release(session('s1', 'u1'));
    await racing;
    expect(await cache.session('hash', 0, load(undefined))).toBeUndefined();
    expect(loads()).toBe(1);
  });

  it('keeps at most maxEntries sessions, dropping the oldest', async () => {
    const { cache, load, loads } = cacheAt({ maxEntries: 2 });
    for (const key of ['a', 'b', 'c']) await cache.session(key, 0, load(session(key, 'u')));
    await cache.session('c', 0, load(session('c', 'u')));
    expect(loads()).toBe(3);
    await cache.session('a', 0, load(session('a', 'u')));
    expect(loads()).toBe(4);
  });

  it('sends each change to the other processes, and serves nothing while it cannot hear theirs', async () => {
    const published: SessionCacheChange[] = [];
    let listening = false;
    const bus: SessionCacheBus = {
      publish: (change) => {
        published.push(change);
        return Promise.resolve();
      },
      listening: () => listening,
    };
    const { cache, load, loads } = cacheAt({ bus });
    await cache.session('hash', 0, load(session('s1', 'u1')));
    await cache.session('hash', 0, load(session('s1', 'u1')));
    expect(loads()).toBe(2);
    listening = true;
    await cache.session('hash', 0, load(session('s1', 'u1')));
    await cache.session('hash', 0, load(session('s1', 'u1')));
    expect(loads()).toBe(3);
    await cache.changed({ kind: 'user', userId: 'u1' });
    expect(published).toEqual([{ kind: 'user', userId: 'u1' }]);
  });
});
