import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import type { SessionCacheBus, SessionCacheChange } from './session-cache';

const channel = 'tradebot:session-cache';
/** Each process that applied a change answers with its id here. */
const ackChannel = 'tradebot:session-cache:ack';
/** How long a change waits for every process to have applied it. */
const ackTimeoutMs = 1_000;

export interface RedisSessionCacheBus extends SessionCacheBus {
  /** Resolves once subscribed (or failed to: the cache then serves nothing until it is). */
  subscribed(): Promise<void>;
  close(): Promise<void>;
}

/** A change this process published, waiting for every receiver to acknowledge it. */
interface Awaited {
  acknowledged: number;
  /** Known once Redis answered the publish (acknowledgements may come before). */
  receivers: number | undefined;
  done: () => void;
}

function settleIfAcknowledged(waiting: Awaited): void {
  if (waiting.receivers !== undefined && waiting.acknowledged >= waiting.receivers) waiting.done();
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
 * The session cache's changes between server processes, over Redis pub/sub. `publish` resolves
 * once every subscribed process (this one included) has applied the change and said so on the
 * acknowledgement channel, or after a second: so logout answers only once no process serves
 * the session any more. `listening` is true only while the subscription stands; each time it is
 * (re)established, `onResubscribed` runs first, so that a process forgets what it cached while
 * it could miss changes.
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
  /** Changes this process published, by id: how many acknowledgements are still awaited. */
  const awaiting = new Map<string, Awaited>();
  const subscribe = () => {
    subscribing = subscriber.subscribe(channel, ackChannel).then(
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
    if (from === ackChannel) {
      const waiting = awaiting.get(message);
      if (waiting) {
        waiting.acknowledged++;
        settleIfAcknowledged(waiting);
      }
      return;
    }
    if (from !== channel) return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(message);
    } catch {
      return;
    }
    const { id, change } = parsed as { id?: unknown; change?: unknown };
    if (typeof id !== 'string' || !isChange(change)) return;
    handlers.onChange(change);
    publisher.publish(ackChannel, id).catch(handlers.onError);
  });
  return {
    listening: () => listening,
    async publish(change) {
      const id = randomUUID();
      let timer: NodeJS.Timeout | undefined;
      const acknowledged = new Promise<void>((resolve) => {
        const done = () => {
          awaiting.delete(id);
          clearTimeout(timer);
          resolve();
        };
        awaiting.set(id, { acknowledged: 0, receivers: undefined, done });
        timer = setTimeout(() => {
          handlers.onError(new Error('session cache: a process did not acknowledge a change'));
          done();
        }, ackTimeoutMs);
      });
      try {
        // Redis answers how many subscribers it handed the message to: that many answers.
        const receivers = await publisher.publish(channel, JSON.stringify({ id, change }));
        const waiting = awaiting.get(id);
        if (waiting) {
          waiting.receivers = receivers;
          settleIfAcknowledged(waiting);
        }
      } catch (error) {
        awaiting.get(id)?.done();
        throw error;
      }
      await acknowledged;
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
      for (const waiting of awaiting.values()) waiting.done();
      await Promise.allSettled([publisher.quit(), subscriber.quit()]);
    },
  };
}
