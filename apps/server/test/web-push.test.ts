import { createECDH, randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import https from 'node:https';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pushSubscriptions } from '../src/db/schema';
import { v1 } from './helpers/accounts';
import { startLocalPushService, type LocalPushService } from './helpers/push-service';
import { trader, useRobotApp } from './helpers/trading';

// Issue 22, web push (decision 088): the same notices reach the browsers a user allowed,
// through the `web-push` package to a push service (here a local HTTPS one that answers as they
// do, with a certificate made for the test); a subscription the service says is gone is deleted.

interface Received {
  path: string;
  encoding: string | undefined;
  authorization: string | undefined;
  bytes: number;
}

const received: Received[] = [];
let pushService: LocalPushService;
let pushUrl = '';
let certificate = '';

beforeAll(async () => {
  pushService = await startLocalPushService((request, body) => {
    received.push({
      path: request.url ?? '',
      encoding: request.headers['content-encoding'],
      authorization: request.headers.authorization,
      bytes: body.length,
    });
    // A push service: 201 Created for a live subscription, 410 Gone for an expired one.
    return request.url?.startsWith('/gone') ? 410 : 201;
  });
  pushUrl = pushService.url;
  certificate = pushService.certificate;
});
afterAll(async () => {
  await pushService.close();
});

/** What a browser's PushSubscription.toJSON() gives: a P-256 public key and an auth secret. */
function browserSubscription(endpoint: string) {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  return {
    endpoint,
    keys: {
      p256dh: ecdh.getPublicKey().toString('base64url'),
      auth: randomBytes(16).toString('base64url'),
    },
  };
}

describe('web push', () => {
  const context = useRobotApp({ LOG_LEVEL: 'error' }, () => ({
    notificationTimers: false,
    pushAgent: new https.Agent({ ca: certificate }),
  }));

  it('hands the robot-stopped notice to each live subscription once, and forgets a gone one', async () => {
    const { app } = context;
    const { headers, userId } = await trader(app, { email: 'push@example.com' });
    const key = await app.inject({ url: `${v1}/notifications/push/key`, headers });
    expect(key.statusCode).toBe(200);
    const stored = JSON.parse(
      await fs.readFile(
        path.join(path.dirname(context.mailDir), 'secrets', 'web-push-vapid.json'),
        'utf8',
      ),
    ) as { publicKey: string };
    expect(key.json()).toEqual({ data: { publicKey: stored.publicKey } });

    for (const endpoint of [`${pushUrl}/live/${userId}`, `${pushUrl}/gone/${userId}`]) {
      const subscribed = await app.inject({
        method: 'POST',
        url: `${v1}/notifications/push/subscriptions`,
        headers,
        payload: browserSubscription(endpoint),
      });
      expect(subscribed.statusCode).toBe(201);
    }
    const invalid = await app.inject({
      method: 'POST',
      url: `${v1}/notifications/push/subscriptions`,
      headers: { ...headers, 'accept-language': 'pt' },
      payload: { endpoint: 'http://127.0.0.1/plain', keys: { p256dh: 'a b', auth: '' } },
    });
    expect(invalid.statusCode).toBe(422);

    expect(
      (await app.inject({ method: 'POST', url: `${v1}/robot/kill`, headers })).statusCode,
    ).toBe(200);
    await app.services.notifications.runDue();
    const mine = received.filter((push) => push.path.endsWith(userId));
    expect(mine.map((push) => push.path.split('/')[1]).sort()).toEqual(['gone', 'live']);
    for (const push of mine) {
      expect(push.encoding).toBe('aes128gcm');
      expect(push.authorization).toMatch(/^vapid t=.+, k=/);
      expect(push.bytes).toBeGreaterThan(0);
    }
    const left = await app.database.db
      .select({ endpoint: pushSubscriptions.endpoint })
      .from(pushSubscriptions)
      .where(eq(pushSubscriptions.userId, userId));
    expect(left.map((row) => row.endpoint)).toEqual([`${pushUrl}/live/${userId}`]);

    // Sent once: another run hands nothing more.
    await app.services.notifications.runDue();
    expect(received.filter((push) => push.path.endsWith(userId))).toHaveLength(2);

    const removed = await app.inject({
      method: 'DELETE',
      url: `${v1}/notifications/push/subscriptions`,
      headers,
      payload: { endpoint: `${pushUrl}/live/${userId}` },
    });
    expect(removed.json()).toEqual({ data: { subscribed: false } });
  });
});
