import { LRUCache } from 'lru-cache';
import type { AccountLink } from './trading.repository';
import type { SettingsRow, UserRow } from './users.repository';

/**
 * What makes cached entries wrong: a session ended (logout), every session of a user ended
 * (password change), or a user's row or settings changed.
 */
export type SessionCacheChange =
  | { readonly kind: 'session'; readonly sessionId: string }
  | { readonly kind: 'userSessions'; readonly userId: string }
  | { readonly kind: 'user'; readonly userId: string };

/**
 * Carries changes to the other server processes (Redis pub/sub in scaled mode). While it
 * cannot promise delivery (not subscribed), the cache serves nothing: another process may have
 * revoked a session meanwhile.
 */
export interface SessionCacheBus {
  /** Resolves once every other process has been sent the change. */
  publish(change: SessionCacheChange): Promise<void>;
  /** Whether changes published by other processes reach this one now. */
  listening(): boolean;
}

export interface CachedSession {
  readonly sessionId: string;
  readonly user: UserRow;
  /** Epoch ms: the session's own end. */
  readonly expiresAt: number;
}

export interface SessionCacheOptions {
  /** Most sessions (and as many users' settings) kept; the oldest go first. */
  readonly maxEntries: number;
  /** How long an entry is trusted before it is read again from the database. */
  readonly ttlMs: number;
  /** Monotonic milliseconds, for the entries' lifetime. */
  readonly now?: () => number;
  readonly bus?: SessionCacheBus;
  /**
   * A change that could not be sent to the other processes: they drop their entries when their
   * subscription breaks, or at the latest after `ttlMs`.
   */
  readonly onBusError?: (error: unknown) => void;
}

/**
 * The session and user reads every authenticated request repeats (token hash -> session and
 * user; user -> settings), kept in this process (docs/decisions/045-session-cache-and-live-reads.md).
 * Every path that revokes a session or writes a user's row calls `changed` once the write is
 * stored; `changed` drops the entries here and, through the bus, in every other process before
 * it resolves. A read that raced with a change does not store what it read.
 */
export class SessionCache {
  private readonly sessions: LRUCache<string, CachedSession>;
  private readonly settings: LRUCache<string, SettingsRow>;
  /**
   * A user's account link (where the account lives, its currency): every get-all-data needs it,
   * and it changes only when the user links, unlinks or is deleted, each of which ends in a
   * `user` change.
   */
  private readonly links: LRUCache<string, AccountLink>;
  /** Moves on every change: a read that started before it must not store its result. */
  private generation = 0;

  constructor(private readonly options: SessionCacheOptions) {
    // lru-cache (decision 090): the least recently used entry goes first; an entry older than
    // `ttlMs` is never served.
    const lru = {
      max: options.maxEntries,
      ttl: options.ttlMs,
      // Read the clock on every check, not once per millisecond behind a timer.
      ttlResolution: 0,
      ...(options.now ? { perf: { now: options.now } } : {}),
    };
    this.sessions = new LRUCache<string, CachedSession>(lru);
    this.settings = new LRUCache<string, SettingsRow>(lru);
    this.links = new LRUCache<string, AccountLink>(lru);
  }

  /** The live session behind a token hash, read through `load` when not cached. */
  async session(
    tokenHash: string,
    nowMs: number,
    load: () => Promise<CachedSession | undefined>,
  ): Promise<CachedSession | undefined> {
    if (this.usable()) {
      const cached = this.sessions.get(tokenHash);
      if (cached && cached.expiresAt > nowMs) return cached;
    }
    const generation = this.generation;
    const loaded = await load();
    if (loaded && this.usable() && generation === this.generation) {
      this.sessions.set(tokenHash, loaded);
    }
    return loaded;
  }

  /** A user's settings row, read through `load` when not cached. */
  userSettings(
    userId: string,
    load: () => Promise<SettingsRow | undefined>,
  ): Promise<SettingsRow | undefined> {
    return this.perUser(this.settings, userId, load);
  }

  /** A user's account link, read through `load` when not cached. */
  accountLink(userId: string, load: () => Promise<AccountLink>): Promise<AccountLink> {
    // `load` always answers a link, so what is cached or loaded is one.
    return this.perUser(this.links, userId, load) as Promise<AccountLink>;
  }

  private async perUser<T extends object>(
    entries: LRUCache<string, T>,
    userId: string,
    load: () => Promise<T | undefined>,
  ): Promise<T | undefined> {
    if (this.usable()) {
      const cached = entries.get(userId);
      if (cached) return cached;
    }
    const generation = this.generation;
    const loaded = await load();
    if (loaded && this.usable() && generation === this.generation) {
      entries.set(userId, loaded);
    }
    return loaded;
  }

  /** Drops what the change makes wrong, here and in every other process. */
  async changed(change: SessionCacheChange): Promise<void> {
    this.apply(change);
    try {
      await this.options.bus?.publish(change);
    } catch (error) {
      this.options.onBusError?.(error);
    }
  }

  /** Drops what the change makes wrong in this process only (a change another one published). */
  apply(change: SessionCacheChange): void {
    this.generation++;
    const gone =
      change.kind === 'session'
        ? (session: CachedSession) => session.sessionId === change.sessionId
        : (session: CachedSession) => session.user.id === change.userId;
    const keys = [...this.sessions.entries()].flatMap(([key, session]) =>
      gone(session) ? [key] : [],
    );
    for (const key of keys) this.sessions.delete(key);
    if (change.kind === 'session') return;
    this.settings.delete(change.userId);
    this.links.delete(change.userId);
  }

  /** Forgets everything (the bus reconnected: changes may have been missed meanwhile). */
  clear(): void {
    this.generation++;
    this.sessions.clear();
    this.settings.clear();
    this.links.clear();
  }

  get size(): number {
    return this.sessions.size + this.settings.size + this.links.size;
  }

  private usable(): boolean {
    return this.options.bus?.listening() ?? true;
  }
}
