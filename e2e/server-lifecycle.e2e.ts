import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { startServer } from './support/server';

describe('the built server process', () => {
  it('seeds the demo user, serves API and SPA, and shuts down cleanly on SIGTERM', async () => {
    const server = await startServer();
    try {
      expect(server.output()).toContain('demo login: demo@tradebot.app');
      const ready = await fetch(`${server.url}/core-api/ready`);
      expect(ready.status).toBe(200);
      const page = await fetch(`${server.url}/dashboard`);
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toContain('text/html');
      expect(await page.text()).toContain('<div id="root">');
    } finally {
      expect(await server.stop()).toBe(0);
    }
  });

  it('refuses bad configuration with a readable message and exit code 1', async () => {
    await expect(startServer({ PORT: 'eighty', DATABASE_URL: 'mysql://nope' })).rejects.toThrow(
      /exited with 1[\s\S]*PORT[\s\S]*DATABASE_URL: must start with postgres/,
    );
  });

  it('refuses a damaged data folder and an unreachable PostgreSQL with one line each (decision 065)', async () => {
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'tradebot-e2e-damaged-'));
    try {
      // What is left of a database whose PG_VERSION was lost: never re-initialised as new.
      await fs.mkdir(path.join(dataDir, 'pglite', 'base'), { recursive: true });
      await fs.writeFile(path.join(dataDir, 'pglite', 'postgresql.conf'), '# kept\n');
      await expect(startServer({}, { dataDir })).rejects.toThrow(
        /exited with 1[\s\S]*pglite is damaged: PG_VERSION is missing[\s\S]*npm run db:restore/,
      );
      expect((await fs.readdir(path.join(dataDir, 'pglite'))).sort()).toEqual([
        'base',
        'postgresql.conf',
      ]);
    } finally {
      await fs.rm(dataDir, { recursive: true, force: true });
    }
    await expect(
      startServer({ DATABASE_URL: 'postgres://tradebot:hidden-pw@127.0.0.1:1/tradebot' }),
    ).rejects.toThrow(/exited with 1[\s\S]*DATABASE_URL \(postgres:\/\/tradebot:\*\*\*@127/);
  });
});
