import fs from 'node:fs/promises';
import type { Agent } from 'node:https';
import path from 'node:path';
import { isPushServiceEndpoint, maxPushSubscriptions } from '@tradebot/contract';
import { and, desc, eq, notInArray, sql } from 'drizzle-orm';
import { RequestFilteringHttpsAgent } from 'request-filtering-agent';
import webpush from 'web-push';
import type { Db } from '../db/database';
import { pushSubscriptions, users } from '../db/schema';

export interface VapidKeys {
  readonly publicKey: string;
  readonly privateKey: string;
}

export interface StoredPushSubscription {
  readonly endpoint: string;
  readonly p256dh: string;
  readonly auth: string;
}

/** Where the embedded set-up keeps the VAPID key pair, beside the other keys (decision 049). */
export function vapidKeyFile(dataDir: string): string {
  return path.join(dataDir, 'secrets', 'web-push-vapid.json');
}

/** The VAPID keys in DATA_DIR/secrets, made on first use (readable by the owner only). */
export async function loadOrCreateVapidKeys(file: string): Promise<VapidKeys> {
  const read = async () => {
    const keys = JSON.parse(await fs.readFile(file, 'utf8')) as Partial<VapidKeys>;
    if (typeof keys.publicKey !== 'string' || typeof keys.privateKey !== 'string') {
      throw new Error(`the VAPID key file ${file} is unusable`);
    }
    return { publicKey: keys.publicKey, privateKey: keys.privateKey };
  };
  try {
    return await read();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  await fs.mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  const keys = webpush.generateVAPIDKeys();
  try {
    // 'wx': two processes starting together on one DATA_DIR keep the first one's keys.
    await fs.writeFile(file, `${JSON.stringify(keys)}\n`, { mode: 0o600, flag: 'wx' });
    return keys;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return read();
  }
}

/** What became of one push; `gone`: the push service says the subscription no longer exists (404, 410). */
export type PushOutcome =
  | { readonly status: 'sent' }
  | { readonly status: 'gone' }
  /** The endpoint is not a push service's (stored before decision 115): nothing was sent. */
  | { readonly status: 'refused' }
  | { readonly status: 'failed'; readonly reason: string };

/** Hands a payload to a subscription's push service. */
export interface PushSender {
  send(subscription: StoredPushSubscription, payload: string): Promise<PushOutcome>;
}

/**
 * The agent web push connects through (decision 115): it refuses to connect to a private,
 * loopback, link-local or otherwise non-public address, whatever the host name resolved to
 * (DNS rebinding), and to such an IP literal. Tests name the address of their local push service
 * in `allowAddresses` and trust its certificate with `ca`.
 */
export function publicPushAgent(test?: { ca: string; allowAddresses: string[] }): Agent {
  // Connections kept open between pushes with the settings of Node's global agent, which
  // web-push used before: idle ones closed after 5 s, the most recent reused first.
  return new RequestFilteringHttpsAgent({
    keepAlive: true,
    timeout: 5_000,
    scheduling: 'lifo',
    ...(test ? { ca: test.ca, allowIPAddressList: test.allowAddresses } : {}),
  });
}

/** Tests only: a local push service, taken besides the browsers' ones (decision 115). */
export interface PushTestService {
  /** `https://127.0.0.1:<port>`: endpoints under it are taken, and its address connected to. */
  readonly origin: string;
  /** Its certificate, trusted. */
  readonly certificate: string;
}

/**
 * Which endpoints web push takes and the agent it connects through: the browsers' push services
 * (`isPushServiceEndpoint`, shared with the web app) over `publicPushAgent`; in tests, also the
 * local push service, refused unless NODE_ENV=test.
 */
export function pushDelivery(
  nodeEnv: string,
  test?: PushTestService,
): { accepts: (endpoint: string) => boolean; agent: Agent } {
  if (!test) return { accepts: isPushServiceEndpoint, agent: publicPushAgent() };
  if (nodeEnv !== 'test') {
    throw new Error('pushTestService is for tests only: it is refused unless NODE_ENV=test');
  }
  return {
    accepts: (endpoint) =>
      isPushServiceEndpoint(endpoint) || endpoint.startsWith(`${test.origin}/`),
    agent: publicPushAgent({
      ca: test.certificate,
      allowAddresses: [new URL(test.origin).hostname],
    }),
  };
}

/** One line on why a push failed: the push service's status, or the connection's error. */
function failureReason(error: unknown): string {
  if (error instanceof webpush.WebPushError) {
    return `the push service answered ${String(error.statusCode)}`;
  }
  if (error instanceof Error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code ? `${code}: ${error.message}` : error.message;
  }
  return String(error);
}

/**
 * The `web-push` package: encrypted payload, VAPID-signed, POSTed over HTTPS to the endpoint
 * through `agent`, only when `accepts` takes the endpoint (the push services; decision 115).
 */
export function webPushSender(
  keys: VapidKeys,
  subject: string,
  { agent, accepts }: { agent: Agent; accepts: (endpoint: string) => boolean },
): PushSender {
  const vapidDetails = { subject, publicKey: keys.publicKey, privateKey: keys.privateKey };
  return {
    async send(subscription, payload) {
      if (!accepts(subscription.endpoint)) return { status: 'refused' };
      try {
        await webpush.sendNotification(
          {
            endpoint: subscription.endpoint,
            keys: { p256dh: subscription.p256dh, auth: subscription.auth },
          },
          payload,
          { vapidDetails, TTL: 3600, timeout: 10_000, agent },
        );
        return { status: 'sent' };
      } catch (error) {
        if (
          error instanceof webpush.WebPushError &&
          (error.statusCode === 404 || error.statusCode === 410)
        ) {
          return { status: 'gone' };
        }
        return { status: 'failed', reason: failureReason(error) };
      }
    },
  };
}

/** The push subscriptions port services depend on; `PushSubscriptionsRepository` is its database implementation. */
export interface PushSubscriptionsStore {
  /**
   * Stores the browser's subscription for this user; another user's subscription to the same
   * endpoint stays theirs (decision 116).
   */
  save(userId: string, subscription: StoredPushSubscription): Promise<void>;
  remove(userId: string, endpoint: string): Promise<boolean>;
  /** The push service said the endpoint is gone: every user's subscription to it goes. */
  gone(endpoint: string): Promise<void>;
  forUser(userId: string): Promise<StoredPushSubscription[]>;
}

export class PushSubscriptionsRepository implements PushSubscriptionsStore {
  constructor(private readonly db: Db) {}

  /**
   * Stores the browser's subscription for this user, as the newest (a browser re-subscribing
   * renews its keys); beyond `maxPushSubscriptions`, the user's oldest go (decision 115). It is
   * keyed on the endpoint and the user: another user's subscription to it stays (decision 116).
   */
  async save(userId: string, subscription: StoredPushSubscription): Promise<void> {
    await this.db.transaction(async (tx) => {
      // One user's subscriptions change one request at a time, so two never keep eleven.
      await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('update');
      await tx
        .insert(pushSubscriptions)
        .values({ userId, ...subscription })
        .onConflictDoUpdate({
          target: [pushSubscriptions.endpoint, pushSubscriptions.userId],
          set: { p256dh: subscription.p256dh, auth: subscription.auth, createdAt: sql`now()` },
        });
      const kept = tx
        .select({ endpoint: pushSubscriptions.endpoint })
        .from(pushSubscriptions)
        .where(eq(pushSubscriptions.userId, userId))
        .orderBy(desc(pushSubscriptions.createdAt), desc(pushSubscriptions.endpoint))
        .limit(maxPushSubscriptions);
      await tx
        .delete(pushSubscriptions)
        .where(
          and(eq(pushSubscriptions.userId, userId), notInArray(pushSubscriptions.endpoint, kept)),
        );
    });
  }

  async remove(userId: string, endpoint: string): Promise<boolean> {
    const rows = await this.db
      .delete(pushSubscriptions)
      .where(and(eq(pushSubscriptions.userId, userId), eq(pushSubscriptions.endpoint, endpoint)))
      .returning({ endpoint: pushSubscriptions.endpoint });
    return rows.length > 0;
  }

  async gone(endpoint: string): Promise<void> {
    await this.db.delete(pushSubscriptions).where(eq(pushSubscriptions.endpoint, endpoint));
  }

  async forUser(userId: string): Promise<StoredPushSubscription[]> {
    return this.db
      .select({
        endpoint: pushSubscriptions.endpoint,
        p256dh: pushSubscriptions.p256dh,
        auth: pushSubscriptions.auth,
      })
      .from(pushSubscriptions)
      .where(eq(pushSubscriptions.userId, userId));
  }
}
