import { defineConfig } from 'vitest/config';

const integration = ['test/**/*.test.ts'];
// The crash test restarts the real server 20 times (minutes): it runs on its own, `test:crash`.
const crash = ['test/crash/**/*.test.ts'];
const engines = process.env.TEST_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];

export default defineConfig({
  test: {
    projects: [
      { test: { name: 'unit', include: ['src/**/*.test.ts'] } },
      ...(process.env.CRASH_TEST
        ? [{ test: { name: 'crash', include: crash, testTimeout: 900_000, hookTimeout: 60_000 } }]
        : []),
      ...engines.map((engine) => ({
        test: {
          name: engine,
          include: integration,
          exclude: crash,
          env: { TEST_DB_ENGINE: engine },
          testTimeout: 20_000,
          hookTimeout: 30_000,
        },
      })),
    ],
  },
});
