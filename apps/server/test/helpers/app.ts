import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach } from 'vitest';
import { buildApp } from '../../src/app';
import { loadConfig } from '../../src/config';
import { createTestDatabase, type TestDatabase } from './database';

export interface TestContext {
  app: FastifyInstance;
  testDatabase: TestDatabase;
}

/**
 * Boots the real app on a fresh schema before each test and closes it after
 * (fastify/demo's helper). Requests go through `inject`.
 */
export function useTestApp(env: Record<string, string> = {}): TestContext {
  const context = {} as TestContext;
  beforeEach(async () => {
    context.testDatabase = await createTestDatabase();
    const config = loadConfig({
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      DATA_DIR: path.join(os.tmpdir(), `tradebot-test-${context.testDatabase.schema}`),
      WEB_DIST_DIR: path.join(os.tmpdir(), 'tradebot-no-web-build'),
      ...env,
    });
    context.app = await buildApp(config, { database: context.testDatabase.database });
    await context.app.ready();
  });
  afterEach(async () => {
    await context.app.close();
    await context.testDatabase.drop();
  });
  return context;
}
