import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { testConfig } from './helpers/app';
import { createTestDatabase } from './helpers/database';

describe('closing the app (what SIGTERM and SIGINT do in main.ts)', () => {
  it('stops accepting, lets an in-flight request finish, then closes', async () => {
    const testDatabase = await createTestDatabase();
    // The test server's settings: no robot, no track record, no demo to seed (each costs a
    // start-up that, on a loaded machine, ran the test past its time).
    const app = await buildApp(
      testConfig(path.join(os.tmpdir(), `tradebot-test-${testDatabase.schema}`), {
        SEED_DEMO: 'false',
      }),
      { database: testDatabase.database },
    );
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    let arrived: () => void = () => undefined;
    const handling = new Promise<void>((resolve) => {
      arrived = resolve;
    });
    app.get('/core-api/public/api/v1/slow', async () => {
      arrived();
      await released;
      return { data: 'finished' };
    });
    const address = await app.listen({ host: '127.0.0.1', port: 0 });
    try {
      const inFlight = fetch(`${address}/core-api/public/api/v1/slow`);
      // Close once the request is in the handler (a fixed 100 ms wait closed before a loaded
      // machine had even connected, and the request was refused instead of finished).
      await handling;
      const closed = app.close();
      await new Promise((resolve) => setTimeout(resolve, 50));
      await expect(fetch(`${address}/core-api/health`)).rejects.toThrow();
      release();
      const response = await inFlight;
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ data: 'finished' });
      expect(response.headers.get('connection')).toBe('close');
      // Resolves promptly: no keep-alive socket holds it open.
      await closed;
    } finally {
      release();
      await app.close();
      await testDatabase.drop();
    }
    // Building the app (migrations on a fresh schema) is part of this test, not of a hook.
  }, 60_000);
});
