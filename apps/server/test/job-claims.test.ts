import { spawn } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../src/db/database';
import { jobClaims, simPayEvents } from '../src/db/schema';
import { SimulatedPaymentProvider } from '../src/payments/simulated/simulated-provider';
import type { WebhookTransport } from '../src/payments/simulated/webhook-outbox';
import { systemClock } from '../src/repositories/clock';
import { DrizzleJobClaims, maxRuns } from '../src/repositories/job-claims.repository';
import { createTestDatabase, testEngine, type TestDatabase } from './helpers/database';

// Decision 078: a timed item is done by exactly one of the processes sharing a database, and
// an item whose process died mid-job is retried by one other process, once.

let testDatabase: TestDatabase;
beforeEach(async () => {
  testDatabase = await createTestDatabase();
});
afterEach(async () => {
  await testDatabase.drop();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** `count` webhook events due now, in sequence order; returns their ids. */
async function dueEvents(db: Database['db'], count: number, prefix = 'evt'): Promise<string[]> {
  const now = new Date();
  const ids = Array.from({ length: count }, (_, index) => `${prefix}_${String(index)}`);
  for (const id of ids) {
    await db.insert(simPayEvents).values({
      id,
      type: 'invoice.paid',
      payload: { id },
      createdAt: now,
      nextAttemptAt: new Date(now.getTime() - 1000),
    });
  }
  return ids;
}

describe('claims on one database', () => {
  it('a claim is one holder’s until it lapses, then one retry, then none', async () => {
    const { db } = testDatabase.database;
    const given: string[] = [];
    const first = new DrizzleJobClaims(db, 'first', 300);
    const second = new DrizzleJobClaims(db, 'second', 300, (job, item) => {
      given.push(`${job}/${item}`);
    });

    const held = await first.claim('job', 'a');
    expect(held?.run).toBe(1);
    expect(await second.claim('job', 'a')).toBeUndefined();
    // `first` dies holding it: after the lease, `second` retries it, once.
    await sleep(350);
    const retry = await second.claim('job', 'a');
    expect(retry?.run).toBe(maxRuns);
    await sleep(350);
    expect(await first.claim('job', 'a')).toBeUndefined();
    expect(await second.claim('job', 'a')).toBeUndefined();
    expect(given).toEqual(['job/a']);

    // A finished item is nobody's again; a released one (a failure handled) is anyone's.
    const done = await first.claim('job', 'b');
    await done?.finish();
    expect(await second.claim('job', 'b')).toBeUndefined();
    const failed = await first.claim('job', 'c');
    await failed?.release();
    const taken = await second.claim('job', 'c');
    expect(taken?.run).toBe(1);
    // A holder whose lease was taken over changes nothing of the new holder's claim.
    await sleep(350);
    const late = await first.claim('job', 'c');
    expect(late?.run).toBe(2);
    await taken?.finish();
    await taken?.release();
    const [row] = await db
      .select()
      .from(jobClaims)
      .where(and(eq(jobClaims.job, 'job'), eq(jobClaims.item, 'c')));
    expect(row).toMatchObject({ owner: 'first', claims: 2, finishedAt: null });
    await late?.finish();
    // `prune(0)` takes what finished before the database's now(): `finish` stamped now() too,
    // and PGlite's now() has millisecond steps (measured: two statements in a row read the same
    // value 181 times in 200), so the next statement may see the same instant (CI, 2026-11-27).
    await sleep(20);
    expect(await first.prune(0)).toBe(2);
  });
});

describe.skipIf(testEngine !== 'postgres')('several processes on PostgreSQL', () => {
  const url = process.env.TEST_DATABASE_URL ?? '';
  const opened: Database[] = [];
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((database) => database.close()));
  });

  /** A server process's provider: its own connections, its own name, a shared counter. */
  async function processes(count: number, leaseMs: number, delivered: Map<string, number>) {
    const transport: WebhookTransport = async (_url, body) => {
      const { id } = JSON.parse(body) as { id: string };
      delivered.set(id, (delivered.get(id) ?? 0) + 1);
      await sleep(Math.random() * 5);
      return 200;
    };
    const given: string[] = [];
    const providers: SimulatedPaymentProvider[] = [];
    for (let index = 0; index < count; index++) {
      const database = await openDatabase({
        databaseUrl: url,
        searchPath: testDatabase.schema,
        poolSize: 4,
      });
      opened.push(database);
      providers.push(
        new SimulatedPaymentProvider({
          db: database.db,
          clock: systemClock,
          secret: 'several',
          webhookUrl: () => 'http://127.0.0.1:9/unused',
          transport,
          autoDeliver: false,
          claims: new DrizzleJobClaims(
            database.db,
            `process-${String(index)}`,
            leaseMs,
            (job, item) => given.push(`${job}/${item}`),
          ),
          onError: (error) => {
            throw error;
          },
        }),
      );
    }
    const race = () => Promise.all(providers.map((provider) => provider.deliverDue()));
    return { race, given };
  }

  it('three processes racing deliver each due event exactly once', async () => {
    const ids = await dueEvents(testDatabase.database.db, 150);
    const delivered = new Map<string, number>();
    const { race } = await processes(3, 30_000, delivered);
    await Promise.all([race(), race()]);
    await race();
    expect([...delivered.keys()].sort()).toEqual([...ids].sort());
    expect([...delivered.values()].filter((times) => times !== 1)).toEqual([]);
  });

  it('a worker killed mid-delivery leaves its event to one retry, and a second death to none', async () => {
    const leaseMs = 1500;
    const [killedOnce] = await dueEvents(testDatabase.database.db, 1, 'once');
    const others = await dueEvents(testDatabase.database.db, 20, 'other');
    const received = new Map<string, number>();
    let victim: ReturnType<typeof spawn> | undefined;
    // The webhook's receiver: the worker dies with SIGKILL as its first request arrives.
    const server = http.createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        const { id } = JSON.parse(body) as { id: string };
        received.set(id, (received.get(id) ?? 0) + 1);
        victim?.kill('SIGKILL');
        response.destroy();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const worker = async () => {
      // node itself (tsx as a loader), so that the pid killed is the worker's.
      const script = path.resolve(import.meta.dirname, 'helpers/claiming-worker.ts');
      victim = spawn(process.execPath, ['--import', 'tsx', script], {
        env: {
          ...process.env,
          DATABASE_URL: url,
          SCHEMA: testDatabase.schema,
          WEBHOOK_URL: `http://127.0.0.1:${String((server.address() as AddressInfo).port)}/hook`,
          LEASE_MS: String(leaseMs),
        },
        stdio: 'ignore',
      });
      const signal = await new Promise<NodeJS.Signals | null>((resolve) => {
        victim?.once('exit', (_code, exitSignal) => {
          resolve(exitSignal);
        });
      });
      expect(signal).toBe('SIGKILL');
    };

    try {
      const delivered = new Map<string, number>();
      const { race, given } = await processes(3, leaseMs, delivered);
      await worker();
      expect(received.get(killedOnce ?? '')).toBe(1);
      // Within the dead worker's lease its event waits; the others go out once each.
      await race();
      expect(delivered.has(killedOnce ?? '')).toBe(false);
      expect(others.map((id) => delivered.get(id) ?? 0)).toEqual(others.map(() => 1));
      // After the lease, one of the three retries it: once.
      await sleep(leaseMs + 100);
      await Promise.all([race(), race()]);
      expect(delivered.get(killedOnce ?? '')).toBe(1);

      // An event whose run and retry both die is left undone, and said so once.
      const [killedTwice] = await dueEvents(testDatabase.database.db, 1, 'twice');
      await worker();
      await sleep(leaseMs + 100);
      await worker();
      expect(received.get(killedTwice ?? '')).toBe(2);
      await sleep(leaseMs + 100);
      await Promise.all([race(), race()]);
      await race();
      expect(delivered.has(killedTwice ?? '')).toBe(false);
      expect(given).toEqual([`simpay.webhook/${killedTwice ?? ''}:0`]);
    } finally {
      victim?.kill('SIGKILL');
      server.close();
    }
  });
});
