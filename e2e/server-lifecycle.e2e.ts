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
});
