import { Redis } from 'ioredis';
import type { SessionCacheBus, SessionCacheChange } from '../services/session-cache';

const channel = 'tradebot:session-cache';

export interface RedisSessionCacheBus extends SessionCacheBus {
  /** Resolves once subscribed (or failed to: the cache then serves nothing until it is). */
  subscribed(): Promise<void>;
  close(): Promise<void>;
}

function isChange(value: unknown): value is SessionCacheChange {
  if (typeof value !== 'object' || value === null) return false;
  const change = value as Record<string, unknown>;
  return (
    (change.kind === 'session' && typeof change.sessionId === 'string') ||
    ((change.kind === 'userSessions' || change.kind === 'user') &&
      typeof change.userId === 'string')
  );
}

/**
 * The session cache's changes between server processes, over Redis pub/sub. `listening` is
 * true only while the subscription stands; each time it is (re)established, `onResubscribed`
 * runs first, so that a process forgets what it cached while it could miss changes.
 */
export function redisSessionCacheBus(
  redisUrl: string,
  handlers: {
    onChange: (change: SessionCacheChange) => void;
    onResubscribed: () => void;
    onError: (error: unknown) => void;
  },
): RedisSessionCacheBus {
  const publisher = new Redis(redisUrl, { maxRetriesPerRequest: 2 });
  const subscriber = new Redis(redisUrl, { autoResubscribe: false });
  let listening = false;
  let subscribing: Promise<void> = Promise.resolve();
  const subscribe = () => {
    subscribing = subscriber.subscribe(channel).then(
      () => {
        handlers.onResubscribed();
        listening = true;
      },
      (error: unknown) => {
        handlers.onError(error);
      },
    );
  };
  subscriber.on('ready', subscribe);
  subscriber.on('close', () => {
    listening = false;
  });
  for (const client of [publisher, subscriber]) client.on('error', handlers.onError);
  subscriber.on('message', (from: string, message: string) => {
    if (from !== channel) return;
    let change: unknown;
    try {
      change = JSON.parse(message);
    } catch {
      return;
    }
    if (isChange(change)) handlers.onChange(change);
  });
  return {
    listening: () => listening,
    async publish(change) {
      await publisher.publish(channel, JSON.stringify(change));
    },
    async subscribed() {
      // `ready` comes first: the subscription it starts is the one to wait for.
      if (subscriber.status !== 'ready') {
        await new Promise<void>((resolve) => {
          subscriber.once('ready', () => {
            resolve();
          });
        });
      }
      await subscribing;
    },
    async close() {
      listening = false;
      await Promise.allSettled([publisher.quit(), subscriber.quit()]);
    },
  };
}
