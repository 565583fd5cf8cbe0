import { createECDH, randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { Writable } from 'node:stream';
import { asc, eq } from 'drizzle-orm';
import webpush from 'web-push';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pushSubscriptions } from '../src/db/schema';
import {
  publicPushAgent,
  pushDelivery,
  webPushSender,
} from '../src/repositories/web-push.repository';
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
    if (request.url?.startsWith('/broken')) return 500;
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

/** POSTs a browser's subscription to the app as the user of `headers`. */
function subscribe(
  app: FastifyInstance,
  headers: Record<string, string>,
  payload: ReturnType<typeof browserSubscription>,
) {
  return app.inject({
    method: 'POST',
    url: `${v1}/notifications/push/subscriptions`,
    headers,
    payload,
  });
}

/** The endpoints stored for a user, oldest first. */
async function endpointsOf(app: FastifyInstance, userId: string) {
  const rows = await app.database.db
    .select({ endpoint: pushSubscriptions.endpoint })
    .from(pushSubscriptions)
    .where(eq(pushSubscriptions.userId, userId))
    .orderBy(asc(pushSubscriptions.createdAt));
  return rows.map((row) => row.endpoint);
}

const logLines: string[] = [];

describe('web push', () => {
  const context = useRobotApp({ LOG_LEVEL: 'warn' }, () => ({
    notificationTimers: false,
    pushTestService: { origin: pushUrl, certificate },
    logStream: new Writable({
      write(chunk: Buffer, _encoding, done) {
        logLines.push(...chunk.toString().split('\n').filter(Boolean));
        done();
      },
    }),
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
      expect((await subscribe(app, headers, browserSubscription(endpoint))).statusCode).toBe(201);
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
    expect(await endpointsOf(app, userId)).toEqual([`${pushUrl}/live/${userId}`]);

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

  // Issue 37, point 3 (decision 115): the server POSTs to the endpoint, so an endpoint was a way
  // to have it connect anywhere (a cloud's metadata, Redis, PostgreSQL) once a notice was due.
  it('takes only the browsers\u2019 push services, and says why in the user\u2019s language', async () => {
    const { app } = context;
    const { headers, userId } = await trader(app, { email: 'push-hosts@example.com' });
    const post = (endpoint: string, language = 'es') =>
      subscribe(app, { ...headers, 'accept-language': language }, browserSubscription(endpoint));
    const port = new URL(pushUrl).port;
    for (const endpoint of [
      'https://127.0.0.1/push',
      `https://127.0.0.1:${port}0/push`,
      'https://169.254.169.254/latest/meta-data/',
      'https://10.1.2.3/push',
      'https://[::1]/push',
      'https://fcm.googleapis.com:6379/fcm/send/x',
      'https://fcm.googleapis.com:5432/fcm/send/x',
      'https://user:pass@fcm.googleapis.com/fcm/send/x',
      'https://evil.example/fcm/send/x',
      'https://fcm.googleapis.com.evil.example/fcm/send/x',
    ]) {
      const refused = await post(endpoint);
      expect(refused.statusCode, endpoint).toBe(422);
      expect(JSON.stringify(refused.json())).toContain(
        'Este navegador usa un servicio de notificaciones que no admitimos',
      );
    }
    const inPortuguese = await post('https://169.254.169.254/latest/meta-data/', 'pt');
    expect(JSON.stringify(inPortuguese.json())).toContain(
      'Este navegador usa um serviço de notificações que não aceitamos',
    );
    expect(await endpointsOf(app, userId)).toEqual([]);

    for (const endpoint of [
      'https://fcm.googleapis.com/fcm/send/dpH5lCsTSSM:APA91bHqjZxM0VImWWqDRN7U0a3AycjUf',
      'https://updates.push.services.mozilla.com/wpush/v2/gAAAAABmYCh2P7y2r0Fq',
      'https://web.push.apple.com/QGmAU1HLZFZm3xG2wTk9_zMbCl-bhn0Rb2Mg',
      'https://wns2-par02p.notify.windows.com/w/?token=BQYAAADlZ2s%2bWm5f%3d',
    ]) {
      expect((await post(endpoint)).statusCode, endpoint).toBe(201);
    }
  });

  it('neither connects to nor keeps a subscription stored before the allow-list', async () => {
    const { app } = context;
    const { headers, userId } = await trader(app, { email: 'push-old@example.com' });
    // A port on this machine standing for Redis: it counts who connects.
    let connections = 0;
    const listener = net.createServer((socket) => {
      connections += 1;
      socket.destroy();
    });
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    try {
      const endpoint = `https://127.0.0.1:${String((listener.address() as net.AddressInfo).port)}/`;
      const { keys } = browserSubscription(endpoint);
      await app.database.db
        .insert(pushSubscriptions)
        .values({ userId, endpoint, p256dh: keys.p256dh, auth: keys.auth });
      logLines.length = 0;
      expect(
        (await app.inject({ method: 'POST', url: `${v1}/robot/kill`, headers })).statusCode,
      ).toBe(200);
      await app.services.notifications.runDue();
      expect(connections).toBe(0);
      expect(await endpointsOf(app, userId)).toEqual([]);
      const logged = logLines.filter((line) => line.includes('a push was not delivered'));
      expect(logged).toHaveLength(1);
      expect(JSON.parse(logged[0] ?? '{}')).toMatchObject({ reason: 'not a push service' });
    } finally {
      await new Promise((resolve) => listener.close(resolve));
    }
  });

  it('logs a failed push in one line, without a stack or the endpoint\u2019s path', async () => {
    const { app } = context;
    const { headers, userId } = await trader(app, { email: 'push-broken@example.com' });
    const broken = `${pushUrl}/broken/${userId}`;
    expect((await subscribe(app, headers, browserSubscription(broken))).statusCode).toBe(201);
    logLines.length = 0;
    await app.inject({ method: 'POST', url: `${v1}/robot/kill`, headers });
    await app.services.notifications.runDue();
    const logged = logLines.filter((line) => line.includes('a push was not delivered'));
    expect(logged).toHaveLength(1);
    const line = logged[0] ?? '';
    expect(JSON.parse(line)).toMatchObject({
      host: new URL(pushUrl).host,
      reason: 'the push service answered 500',
    });
    expect(line).not.toContain('stack');
    expect(line).not.toContain(userId);
    // A push service's failure is not the subscription's end: it stays.
    expect(await endpointsOf(app, userId)).toEqual([broken]);
  });

  it('keeps a user\u2019s ten newest browsers: an eleventh replaces the oldest', async () => {
    const { app } = context;
    const { headers, userId } = await trader(app, { email: 'push-many@example.com' });
    const endpoints = Array.from(
      { length: 11 },
      (_, i) => `${pushUrl}/live/${userId}/${String(i)}`,
    );
    for (const endpoint of endpoints) {
      expect((await subscribe(app, headers, browserSubscription(endpoint))).statusCode).toBe(201);
    }
    expect(await endpointsOf(app, userId)).toEqual(endpoints.slice(1));
  });

  // Issue 37, point 4 (decision 116): the subscription was upserted on the endpoint alone, so
  // whoever registered an endpoint last took it from the user whose browser it is.
  it('an endpoint another user registers stays its first user\u2019s too', async () => {
    const { app } = context;
    const owner = await trader(app, { email: 'push-owner@example.com' });
    const other = await trader(app, { email: 'push-other@example.com' });
    const shared = `${pushUrl}/live/shared/${owner.userId}`;
    const subscription = browserSubscription(shared);
    for (const { headers } of [owner, other]) {
      expect((await subscribe(app, headers, subscription)).statusCode).toBe(201);
    }
    const holders = async () =>
      (
        await app.database.db
          .select({ userId: pushSubscriptions.userId })
          .from(pushSubscriptions)
          .where(eq(pushSubscriptions.endpoint, shared))
      )
        .map((row) => row.userId)
        .sort();
    expect(await holders()).toEqual([owner.userId, other.userId].sort());

    await app.inject({ method: 'POST', url: `${v1}/robot/kill`, headers: owner.headers });
    await app.services.notifications.runDue();
    expect(received.filter((push) => push.path === `/live/shared/${owner.userId}`)).toHaveLength(1);

    // The other user forgetting it forgets only their own.
    await app.inject({
      method: 'DELETE',
      url: `${v1}/notifications/push/subscriptions`,
      headers: other.headers,
      payload: { endpoint: shared },
    });
    expect(await holders()).toEqual([owner.userId]);
  });
});

// Defence in depth (decision 115): whatever an accepted host name resolves to (DNS rebinding),
// web push connects to public addresses only.
describe('the push agent', () => {
  it('refuses to connect to a loopback address, by name or literal', async () => {
    const before = received.length;
    const keys = webpush.generateVAPIDKeys();
    const sender = webPushSender(keys, 'mailto:support@example.com', {
      // The local push service's certificate trusted: only the address check stands in the way.
      agent: publicPushAgent({ ca: certificate, allowAddresses: [] }),
      accepts: () => true,
    });
    const port = new URL(pushUrl).port;
    for (const host of ['localhost', '127.0.0.1', '[::ffff:127.0.0.1]']) {
      const outcome = await sender.send(
        { endpoint: `https://${host}:${port}/live/agent`, ...browserSubscription('').keys },
        '{}',
      );
      expect(outcome, host).toMatchObject({ status: 'failed' });
      expect(outcome.status === 'failed' && outcome.reason, host).toMatch(/is not allowed/);
    }
    expect(received.length).toBe(before);
  });

  it('takes a local push service in tests only', () => {
    const local = { origin: pushUrl, certificate };
    expect(() => pushDelivery('production', local)).toThrow(/tests only/);
    expect(() => pushDelivery('development', local)).toThrow(/tests only/);
    expect(pushDelivery('test', local).accepts(`${pushUrl}/live/x`)).toBe(true);
    expect(pushDelivery('production').accepts(`${pushUrl}/live/x`)).toBe(false);
  });
});
