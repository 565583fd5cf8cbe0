import fs from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { apiV1Prefix, billingPaths } from '@tradebot/contract';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { openDatabase } from '../src/db/database';
import { payments, simPayCharges, simPayEvents } from '../src/db/schema';
import { fileMailer, type Mailer, type MailMessage } from '../src/repositories/mail.repository';
import { manualClock } from './helpers/accounts';
import { testConfig } from './helpers/app';
import { customer, simSecret, startCheckout, submitCard, testCards } from './helpers/billing';
import { createTestDatabase, testEngine, type TestDatabase } from './helpers/database';

// Issue 21, proof 7 (decision 078): three server processes on one database race billing's
// clock; every due job (a delivery, a renewal, a receipt) is done exactly once.

const dayMs = 86_400_000;
const receiptSubject = 'Recibo de tu suscripción a Tradebot';

describe.skipIf(testEngine !== 'postgres')('billing with three processes on one database', () => {
  let testDatabase: TestDatabase;
  let apps: FastifyInstance[] = [];
  const mails: { process: number; message: MailMessage }[] = [];
  const clock = manualClock(new Date('2026-11-21T12:00:00Z'));
  let dataDirs: string[] = [];
  let mailDown = false;
  /** How many times each event reached our webhook. */
  const deliveries = new Map<string, number>();
  // Every process posts its events through this proxy to the first one's webhook, counted.
  const proxy = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString();
      const { id } = JSON.parse(body) as { id: string };
      deliveries.set(id, (deliveries.get(id) ?? 0) + 1);
      const target = apps[0]?.server.address() as AddressInfo;
      void fetch(`http://127.0.0.1:${String(target.port)}${request.url ?? ''}`, {
        method: 'POST',
        headers: request.headers as Record<string, string>,
        body,
      }).then(async (answer) => {
        response.writeHead(answer.status).end(await answer.text());
      });
    });
  });

  beforeAll(async () => {
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  });
  afterAll(() => {
    proxy.close();
  });

  beforeEach(async () => {
    testDatabase = await createTestDatabase();
    mails.length = 0;
    deliveries.clear();
    mailDown = false;
    dataDirs = [];
    for (let index = 0; index < 3; index++) {
      const dataDir = path.join(
        os.tmpdir(),
        `tradebot-test-${testDatabase.schema}-${String(index)}`,
      );
      dataDirs.push(dataDir);
      const config = testConfig(dataDir, {
        SIM_PAY_WEBHOOK_SECRET: simSecret,
        SIM_PAY_WEBHOOK_URL: `http://127.0.0.1:${String((proxy.address() as AddressInfo).port)}${apiV1Prefix}${billingPaths.webhooks}/simulated`,
      });
      // Recorded for the assertions, and written as the embedded set-up writes them, where the
      // registration's link is read (decision 085).
      const files = fileMailer(
        path.join(dataDir, 'mail'),
        'tradebot@test.invalid',
        () => undefined,
      );
      const mailer: Mailer = {
        send: async (message) => {
          if (mailDown) throw new Error('the mail server is down');
          mails.push({ process: index, message });
          await files.send(message);
        },
        close: () => files.close(),
      };
      // Each process its own connections, as separate server processes have.
      const database =
        index === 0
          ? testDatabase.database
          : await openDatabase({
              databaseUrl: process.env.TEST_DATABASE_URL ?? '',
              searchPath: testDatabase.schema,
            });
      const app = await buildApp(config, {
        rateLimitRedisPrefix: `test:${testDatabase.schema}:${String(index)}:rate-limit:`,
        clock,
        billingTimers: false,
        mailer,
        database,
      });
      await app.listen({ port: 0, host: '127.0.0.1' });
      apps.push(app);
    }
  });

  afterEach(async () => {
    for (const [index, app] of apps.entries()) {
      await app.close();
      if (index > 0) await app.database.close();
    }
    apps = [];
    await testDatabase.drop();
    await Promise.all(dataDirs.map((dir) => fs.rm(dir, { recursive: true, force: true })));
  });

  const race = async () => {
    await Promise.all([...apps, ...apps].map((app) => app.services.billing.runDue()));
  };

  it('a payment and its renewal: each event delivered once, each receipt sent once', async () => {
    const [first] = apps;
    if (!first) throw new Error('no app');
    const who = await customer(first, clock);
    const { url } = await startCheckout(first, who, 'monthly');
    expect((await submitCard(first, url, testCards.pays)).statusCode).toBe(303);
    // The receipt fails with the payment's event; billing's clock retries it ten minutes on.
    mailDown = true;
    clock.advance(1000);
    await race();
    await race();
    const db = testDatabase.database.db;
    const receipts = () => mails.filter((mail) => mail.message.subject === receiptSubject);
    expect(receipts()).toHaveLength(0);
    mailDown = false;
    clock.advance(11 * 60_000);
    await race();
    expect(receipts()).toHaveLength(1);
    let events = await db.select().from(simPayEvents);
    expect(events.length).toBeGreaterThanOrEqual(3);
    expect(events.map((event) => [event.type, event.attempts, event.deliveredAt !== null])).toEqual(
      events.map((event) => [event.type, 1, true]),
    );

    // A month on: the renewal is charged once, delivered once, receipted once.
    clock.advance(31 * dayMs);
    await race();
    clock.advance(1000);
    await race();
    const charges = await db.select().from(simPayCharges);
    expect(charges).toHaveLength(2);
    const stored = await db.select().from(payments);
    expect(stored).toHaveLength(2);
    expect(receipts()).toHaveLength(2);
    expect(new Set(receipts().map((mail) => mail.message.to)).size).toBe(1);
    events = await db.select().from(simPayEvents);
    expect(events.filter((event) => event.type === 'invoice.paid')).toHaveLength(2);
    expect([...deliveries.keys()].sort()).toEqual(events.map((event) => event.id).sort());
    expect([...deliveries.values()].filter((times) => times !== 1)).toEqual([]);
    expect(events.every((event) => event.attempts === 1 && event.deliveredAt !== null)).toBe(true);
    const sentReceipts = await db
      .select({ at: payments.receiptSentAt })
      .from(payments)
      .where(eq(payments.provider, 'simulated'));
    expect(sentReceipts.every((row) => row.at !== null)).toBe(true);
  });
});
