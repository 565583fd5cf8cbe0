import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { argon2PasswordHasher } from '../src/repositories/password-hasher';
import { PromoCodesRepository } from '../src/repositories/promo-codes.repository';
import { UsersRepository } from '../src/repositories/users.repository';
import { replica, useTestApp } from './helpers/app';
import {
  bearer,
  login,
  register,
  registeredToken,
  v1,
  validRegistration,
} from './helpers/accounts';
import { startOwnRedis, type OwnRedis } from './helpers/redis-server';

const redisUrl = process.env.TEST_REDIS_URL;
/** The load balancer in front of the server, as the server's socket sees it. */
const balancer = '10.0.0.2';

/** A login whose X-Forwarded-For starts with an address the client made up. */
function spoofedLogin(
  app: FastifyInstance,
  client: string,
  email = `nadie-${randomUUID()}@example.com`,
) {
  return app.inject({
    method: 'POST',
    url: `${v1}/login`,
    remoteAddress: balancer,
    // The client sent the first entry; the balancer appended the address it saw.
    headers: { 'x-forwarded-for': `${randomSpoof()}, ${client}` },
    payload: { email, password: 'mala12345' },
  });
}

const password = 'segura123';

/** Users with `password`, straight into the database (one hash for all); their e-mails. */
async function usersWithPassword(app: FastifyInstance, count: number) {
  const passwordHash = await argon2PasswordHasher.hash(password);
  const repository = new UsersRepository(app.database.db);
  const emails: string[] = [];
  for (let n = 1; n <= count; n += 1) {
    const email = `oficina${String(n)}@example.com`;
    await repository.create({ name: 'Ana', lastName: 'Pérez', email, passwordHash });
    emails.push(email);
  }
  return emails;
}

let spoofs = 0;
const randomSpoof = () => `198.51.${Math.floor(++spoofs / 250) % 250}.${spoofs % 250}`;

async function statuses(count: number, send: (attempt: number) => Promise<{ statusCode: number }>) {
  const seen: number[] = [];
  for (let attempt = 1; attempt <= count; attempt++) seen.push((await send(attempt)).statusCode);
  return seen;
}

describe.each([
  ['a hop count', '1'],
  ['the balancer addresses', '10.0.0.0/8'],
])('behind a proxy given as %s (TRUST_PROXY=%s)', (_name, trustProxy) => {
  const context = useTestApp({ TRUST_PROXY: trustProxy });

  it('counts logins per real client address, whatever X-Forwarded-For the client adds', async () => {
    const seen = await statuses(31, () => spoofedLogin(context.app, '203.0.113.7'));
    expect(seen.slice(0, 30).every((status) => status === 401)).toBe(true);
    expect(seen[30]).toBe(429);
    // Another real client is not held back.
    expect((await spoofedLogin(context.app, '203.0.113.8')).statusCode).toBe(401);
  });

  it('counts promo code checks per real client address too', async () => {
    const seen = await statuses(31, () =>
      context.app.inject({
        method: 'POST',
        url: `${v1}/validate-promocode`,
        remoteAddress: balancer,
        headers: { 'x-forwarded-for': `${randomSpoof()}, 203.0.113.9` },
        payload: { promocode: 'NOEXISTE' },
      }),
    );
    expect(seen.slice(0, 30).every((status) => status === 200)).toBe(true);
    expect(seen[30]).toBe(429);
  });

  it('refuses registration from Uruguay even when the client claims another country first', async () => {
    const response = await context.app.inject({
      method: 'POST',
      url: `${v1}/register`,
      remoteAddress: balancer,
      headers: { 'x-forwarded-for': '181.30.0.1, 164.73.1.1' },
      payload: validRegistration,
    });
    expect(response.statusCode).toBe(403);
  });
});

describe('a client reaching the server directly with X-Forwarded-For', () => {
  // TRUST_PROXY given as addresses: a client that is not one of them is taken at its word.
  const context = useTestApp({ TRUST_PROXY: '10.0.0.0/8' });

  it('is counted by its own address', async () => {
    const seen = await statuses(31, () =>
      context.app.inject({
        method: 'POST',
        url: `${v1}/login`,
        remoteAddress: '203.0.113.50',
        headers: { 'x-forwarded-for': randomSpoof() },
        payload: { email: `x-${randomUUID()}@example.com`, password: 'mala12345' },
      }),
    );
    expect(seen[30]).toBe(429);
  });
});

describe('register and email-subscription, per address', () => {
  const context = useTestApp();

  it('allows 10 registrations an hour from one address, then answers 429', async () => {
    await registeredToken(context.app);
    // Different e-mails (each is also limited on its own, to 5 an hour: each mails it).
    let n = 0;
    const seen = await statuses(10, () => {
      n += 1;
      return register(context.app, { email: `persona${String(n)}@example.com` });
    });
    expect(seen.slice(0, 9)).toEqual(Array(9).fill(202));
    expect(seen[9]).toBe(429);
    const response = await register(context.app, { email: 'otra@example.com' });
    expect(response.statusCode).toBe(429);
    expect(Number(response.headers['retry-after'])).toBeGreaterThan(3500);
    expect(response.json()).toEqual({
      // The wait its Retry-After gives, in words (issue 39).
      message: expect.stringMatching(
        /^Demasiados intentos\. Vuelve a intentarlo en \d+ minutos\.$/,
      ) as string,
      code: 'RATE_LIMITED',
    });
    // Another address may still register.
    const other = await context.app.inject({
      method: 'POST',
      url: `${v1}/register`,
      remoteAddress: '200.147.67.142',
      payload: { ...validRegistration, email: 'otra@example.com' },
    });
    expect(other.statusCode).toBe(202);
  });

  it('mails one address at most 5 times an hour, from any number of addresses', async () => {
    const seen: number[] = [];
    for (let attempt = 0; attempt < 6; attempt += 1) {
      const response = await context.app.inject({
        method: 'POST',
        url: `${v1}/register`,
        remoteAddress: `200.147.67.${String(10 + attempt)}`,
        payload: { ...validRegistration, email: 'victima@example.com' },
      });
      seen.push(response.statusCode);
    }
    expect(seen).toEqual([202, 202, 202, 202, 202, 429]);
  });

  it('subscribes 10 new e-mails an hour from one address, then answers 429', async () => {
    // The landing page's promotion must exist: without a usable code the answer is a 422.
    await new PromoCodesRepository(context.app.database.db).upsert({
      code: 'MESGRATIS',
      benefit: 'free_month',
      validFrom: new Date('2026-01-01T00:00:00Z'),
      validUntil: null,
      maxUses: null,
    });
    const seen = await statuses(11, (attempt) =>
      context.app.inject({
        method: 'POST',
        url: `${v1}/email-subscription`,
        payload: { email: `lector${attempt}@example.com`, promo: 'MESGRATIS' },
        headers: { 'accept-language': 'pt' },
      }),
    );
    expect(seen.slice(0, 10)).toEqual(Array(10).fill(201));
    expect(seen[10]).toBe(429);
  });
});

describe.skipIf(!redisUrl)('scaled: two processes share the counters in Redis', () => {
  const context = useTestApp(() => ({ REDIS_URL: redisUrl ?? '' }));
  let other: FastifyInstance | undefined;
  afterEach(async () => {
    await other?.close();
    other = undefined;
  });

  it('refuses the 31st login from one address, wherever the 30 before it went', async () => {
    const second = await replica(context, { REDIS_URL: redisUrl ?? '' });
    other = second;
    const seen = await statuses(31, (attempt) =>
      login(
        attempt % 2 === 0 ? context.app : second,
        { email: `u${attempt}@example.com`, password: 'x1234567' },
        '203.0.113.20',
      ),
    );
    expect(seen.slice(0, 30).every((status) => status === 401)).toBe(true);
    expect(seen[30]).toBe(429);

    const redis = new Redis(redisUrl ?? '');
    try {
      const keys = await redis.keys(`test:${context.testDatabase.schema}:rate-limit:*`);
      expect(keys.some((key) => key.endsWith('login:ip:203.0.113.20'))).toBe(true);
    } finally {
      redis.disconnect();
    }
  });

  it('counts only failures: 35 sign-ins from one address pass, its wrong passwords still stop', async () => {
    const second = await replica(context, { REDIS_URL: redisUrl ?? '' });
    other = second;
    const emails = await usersWithPassword(context.app, 35);
    const app = (attempt: number) => (attempt % 2 === 0 ? context.app : second);
    const signIns = await statuses(35, (attempt) =>
      login(app(attempt), { email: emails[attempt - 1] ?? '', password }, '203.0.113.21'),
    );
    expect(signIns).toEqual(Array(35).fill(200));
    // A typo, then the right password, ten times over: the pair is reset each time.
    const [email = ''] = emails;
    const seen = await statuses(20, (attempt) =>
      login(
        app(attempt),
        { email, password: attempt % 2 === 1 ? 'mala12345' : password },
        '203.0.113.21',
      ),
    );
    expect(seen).toEqual(Array.from({ length: 20 }, (_, index) => (index % 2 === 0 ? 401 : 200)));
    // The ten wrong passwords above count against the address (30): twenty more, then 429.
    const spray = await statuses(21, (attempt) =>
      login(
        app(attempt),
        { email: `nadie${String(attempt)}@example.com`, password: 'x1234567' },
        '203.0.113.21',
      ),
    );
    expect(spray).toEqual([...Array<number>(20).fill(401), 429]);
  });
});

describe('when Redis goes down', () => {
  const context = useTestApp();
  let redis: OwnRedis | undefined;
  let app: FastifyInstance | undefined;
  afterEach(async () => {
    await app?.close();
    app = undefined;
    await redis?.kill();
    redis = undefined;
  });

  it('keeps answering and limiting, counting in the process meanwhile, and says so in the log', async () => {
    redis = await startOwnRedis();
    const logs: string[] = [];
    const server = await replica(context, { REDIS_URL: redis.url }, logs);
    app = server;
    // Counted in Redis while it is up.
    expect(
      (await login(app, { email: 'a@example.com', password: 'x1234567' }, '203.0.113.30'))
        .statusCode,
    ).toBe(401);
    await redis.kill();

    const started = Date.now();
    const seen = await statuses(31, (attempt) =>
      login(server, { email: `u${attempt}@example.com`, password: 'x1234567' }, '203.0.113.30'),
    );
    expect(seen).toEqual([...Array<number>(30).fill(401), 429]);
    // No request waited for Redis: 31 logins (an argon2 hash each) in well under the
    // 500 ms command timeout apiece.
    expect(Date.now() - started).toBeLessThan(31 * 500);
    const warnings = logs.filter((line) => line.includes('rate limits: Redis failed'));
    expect(warnings.length).toBeGreaterThanOrEqual(1);
    // Reported once per outage period, not once per request.
    expect(warnings.length).toBeLessThan(5);

    // Redis back (empty): counting goes back to it.
    await redis.restart();
    const counter = new Redis(redis.url);
    try {
      await expect
        .poll(
          async () => {
            await login(server, { email: 'b@example.com', password: 'x1234567' }, '203.0.113.31');
            return counter.keys('*login:ip:203.0.113.31');
          },
          { timeout: 10_000, interval: 200 },
        )
        .toHaveLength(1);
    } finally {
      counter.disconnect();
    }
  });
});

describe('billing mutations, per signed-in user', () => {
  const context = useTestApp();
  const post = (token: string, path: string, language = 'es', remoteAddress = '127.0.0.1') =>
    context.app.inject({
      method: 'POST',
      url: `${v1}/billing/${path}`,
      remoteAddress,
      headers: { ...bearer(token), 'accept-language': language },
      payload: path === 'checkout' ? { plan: 'monthly' } : {},
    });

  it('opens 10 checkouts an hour per user, then answers a localized 429', async () => {
    const token = await registeredToken(context.app);
    // Each opens a session at the provider: the user never paid, so each one succeeds.
    const seen = await statuses(10, () => post(token, 'checkout'));
    expect(seen).toEqual(Array(10).fill(200));
    const refused = await post(token, 'checkout');
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(3500);
    expect(refused.json()).toEqual({
      // The wait its Retry-After gives, in words (issue 39).
      message: expect.stringMatching(
        /^Demasiados intentos\. Vuelve a intentarlo en \d+ minutos\.$/,
      ) as string,
      code: 'RATE_LIMITED',
    });
    // From another address too: the user is counted, not only the address.
    const elsewhere = await post(token, 'checkout', 'pt-BR', '200.147.67.142');
    expect(elsewhere.statusCode).toBe(429);
    expect(elsewhere.json()).toEqual({
      message: expect.stringMatching(
        /^Muitas tentativas\. Tente novamente em \d+ minutos\.$/,
      ) as string,
      code: 'RATE_LIMITED',
    });
    // Another user still may.
    const other = await registeredToken(context.app, 'otra@example.com');
    expect((await post(other, 'checkout')).statusCode).toBe(200);
  });

  it('counts cancel, resume, refund and the card page together: 10 per 15 minutes', async () => {
    const token = await registeredToken(context.app);
    const paths = ['cancel', 'resume', 'refund', 'portal'];
    // Nothing to change (no subscription): refused with 409, and each still counts.
    const seen = await statuses(10, (attempt) => post(token, paths[attempt % 4] ?? 'cancel'));
    expect(seen).toEqual(Array(10).fill(409));
    for (const path of paths) {
      const refused = await post(token, path, 'pt');
      expect(refused.statusCode).toBe(429);
      expect(refused.json<{ message: string }>().message).toMatch(
        /^Muitas tentativas\. Tente novamente em \d+ minutos\.$/,
      );
    }
  });
});

describe('sign-ins count failures, not sign-ins (issue 37, point 6)', () => {
  const context = useTestApp();
  const users = (count: number) => usersWithPassword(context.app, count);

  it('lets 35 people behind one shared address (an office, a carrier) sign in', async () => {
    const emails = await users(35);
    const seen = await statuses(35, (attempt) =>
      login(context.app, { email: emails[attempt - 1] ?? '', password }, '190.210.5.5'),
    );
    expect(seen).toEqual(Array(35).fill(200));
  });

  it('lets one user sign in 20 times from one address, a typo now and then', async () => {
    const [email = ''] = await users(1);
    const seen = await statuses(20, (attempt) =>
      login(
        context.app,
        { email, password: attempt % 5 === 0 ? 'mala12345' : password },
        '190.210.5.6',
      ),
    );
    expect(seen).toEqual(
      Array.from({ length: 20 }, (_, index) => ((index + 1) % 5 === 0 ? 401 : 200)),
    );
  });

  it('still limits wrong passwords: 10 per account and address, 30 per address', async () => {
    const [email = ''] = await users(1);
    const wrong = await statuses(11, () =>
      login(context.app, { email, password: 'mala12345' }, '190.210.5.7'),
    );
    expect(wrong).toEqual([...Array<number>(10).fill(401), 429]);
    // The right password is not tried either, from that address.
    expect((await login(context.app, { email, password }, '190.210.5.7')).statusCode).toBe(429);

    const spray = await statuses(31, (attempt) =>
      login(
        context.app,
        { email: `nadie${String(attempt)}@example.com`, password: 'mala12345' },
        '190.210.5.8',
      ),
    );
    expect(spray).toEqual([...Array<number>(30).fill(401), 429]);
  });

  it('a success resets the pair: 9 wrong, the right one, 9 wrong again all answer', async () => {
    const [email = ''] = await users(1);
    const bad = () => login(context.app, { email, password: 'mala12345' }, '190.210.5.9');
    expect(await statuses(9, bad)).toEqual(Array(9).fill(401));
    expect((await login(context.app, { email, password }, '190.210.5.9')).statusCode).toBe(200);
    expect(await statuses(10, bad)).toEqual(Array(10).fill(401));
    expect((await bad()).statusCode).toBe(429);
  });
});

describe('account changes, per signed-in user', () => {
  const context = useTestApp();

  it('never stops someone saving their notification settings: 200 saves in a row', async () => {
    const token = await registeredToken(context.app);
    const seen = await statuses(200, (attempt) =>
      context.app.inject({
        method: 'PUT',
        url: `${v1}/notifications/settings`,
        headers: bearer(token),
        payload: {
          operations: true,
          stop_loss: true,
          robot_stopped: true,
          margin_warning: true,
          daily_summary: attempt % 2 === 0,
        },
      }),
    );
    expect(seen).toEqual(Array(200).fill(200));
  });
});
