import fs from 'node:fs/promises';
import type { Agent } from 'node:https';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import webpush from 'web-push';
import type { Db } from '../db/database';
import { pushSubscriptions } from '../db/schema';

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

/** Hands a payload to a subscription's push service. */
export interface PushSender {
  /** `gone` when the push service says the subscription no longer exists (404, 410). */
  send(subscription: StoredPushSubscription, payload: string): Promise<'sent' | 'gone'>;
}

/**
 * The `web-push` package: encrypted payload, VAPID-signed, POSTed over HTTPS to the endpoint
 * (`agent`: the TLS settings, e.g. a local push service's certificate in tests).
 */
export function webPushSender(keys: VapidKeys, subject: string, agent?: Agent): PushSender {
  const vapidDetails = { subject, publicKey: keys.publicKey, privateKey: keys.privateKey };
  return {
    async send(subscription, payload) {
      try {
        await webpush.sendNotification(
          {
            endpoint: subscription.endpoint,
            keys: { p256dh: subscription.p256dh, auth: subscription.auth },
          },
          payload,
          { vapidDetails, TTL: 3600, timeout: 10_000, ...(agent ? { agent } : {}) },
        );
        return 'sent';
      } catch (error) {
        if (
          error instanceof webpush.WebPushError &&
          (error.statusCode === 404 || error.statusCode === 410)
        ) {
          return 'gone';
        }
        throw error;
      }
    },
  };
}

/** The push subscriptions port services depend on; `PushSubscriptionsRepository` is its database implementation. */
export interface PushSubscriptionsStore {
  /** Stores the browser's subscription for this user (a browser re-subscribing moves it). */
  save(userId: string, subscription: StoredPushSubscription): Promise<void>;
  remove(userId: string, endpoint: string): Promise<boolean>;
  gone(endpoint: string): Promise<void>;
  forUser(userId: string): Promise<StoredPushSubscription[]>;
}

export class PushSubscriptionsRepository implements PushSubscriptionsStore {
  constructor(private readonly db: Db) {}

  /** Stores the browser's subscription for this user (a browser re-subscribing moves it). */
  async save(userId: string, subscription: StoredPushSubscription): Promise<void> {
    await this.db
      .insert(pushSubscriptions)
      .values({ userId, ...subscription })
      .onConflictDoUpdate({
        target: pushSubscriptions.endpoint,
        set: { userId, p256dh: subscription.p256dh, auth: subscription.auth },
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
