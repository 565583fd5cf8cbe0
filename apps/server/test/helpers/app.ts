import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach } from 'vitest';
import { buildApp, type AppDependencies } from '../../src/app';
import { loadConfig } from '../../src/config';
import { createTestDatabase, type TestDatabase } from './database';
import { testMarketStart } from './market-clock';

export interface TestContext {
  app: FastifyInstance;
  testDatabase: TestDatabase;
  /** Where this test's app writes e-mails (.eml files). */
  mailDir: string;
}

/** A test server's settings: quiet, no web build, no robot unless `env` turns it on. */
export function testConfig(dataDir: string, env: Record<string, string> = {}) {
  return loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATA_DIR: dataDir,
    WEB_DIST_DIR: path.join(os.tmpdir(), 'tradebot-no-web-build'),
    // The robot costs a start-up and a timer: suites that need it turn it on.
    ROBOT_ENABLED: 'false',
    // The robot's own account (decision 060) trades beside the users: its suite turns it on.
    TRACK_RECORD_ENABLED: 'false',
    // The robot on recorded quotes (decision 142) costs a child process: its suite turns it on.
    RECORDED_QUOTES_DIR: 'off',
    ...env,
  });
}

/**
 * A robot on the wall clock starts its market at the pinned instant (issue 41); a test that
 * moves a clock of its own keeps it, and one that pins MARKET_START itself wins.
 */
function wallClockMarket(dependencies: Pick<AppDependencies, 'clock'>): Record<string, string> {
  return dependencies.clock ? {} : { MARKET_START: testMarketStart };
}

/**
 * Boots the real app on a fresh schema before each test and closes it after
 * (fastify/demo's helper). Requests go through `inject`.
 */
export function useTestApp(
  /** Extra environment; a function is read when each test starts (ports chosen in beforeAll). */
  env: Record<string, string> | (() => Record<string, string>) = {},
  dependencies: () => Omit<AppDependencies, 'database'> = () => ({}),
): TestContext {
  const context = {} as TestContext;
  beforeEach(async () => {
    context.testDatabase = await createTestDatabase();
    const dataDir = path.join(os.tmpdir(), `tradebot-test-${context.testDatabase.schema}`);
    context.mailDir = path.join(dataDir, 'mail');
    const extras = dependencies();
    const config = testConfig(dataDir, {
      ...wallClockMarket(extras),
      ...(typeof env === 'function' ? env() : env),
    });
    context.app = await buildApp(config, {
      // Rate-limit counters in a shared Redis stay this test's own.
      rateLimitRedisPrefix: `test:${context.testDatabase.schema}:rate-limit:`,
      ...extras,
      database: context.testDatabase.database,
    });
    await context.app.ready();
  });
  afterEach(async () => {
    await context.app.close();
    await context.testDatabase.drop();
    await fs.rm(path.dirname(context.mailDir), { recursive: true, force: true });
  });
  return context;
}

/**
 * Another server process: the same database and Redis prefix, as a second replica would be.
 * Its log lines (warnings and up) go to `logs`.
 */
export async function replica(
  context: TestContext,
  env: Record<string, string>,
  logs?: string[],
  dependencies: Omit<AppDependencies, 'database'> = {},
): Promise<FastifyInstance> {
  const app = await buildApp(
    loadConfig({
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      DATA_DIR: path.join(os.tmpdir(), `tradebot-test-replica-${context.testDatabase.schema}`),
      WEB_DIST_DIR: path.join(os.tmpdir(), 'tradebot-no-web-build'),
      ROBOT_ENABLED: 'false',
      ...wallClockMarket(dependencies),
      ...env,
    }),
    {
      rateLimitRedisPrefix: `test:${context.testDatabase.schema}:rate-limit:`,
      logStream: new Writable({
        write(chunk: Buffer, _encoding, done) {
          logs?.push(chunk.toString());
          done();
        },
      }),
      ...dependencies,
      database: context.testDatabase.database,
    },
  );
  await app.ready();
  return app;
}
