import { defineConfig } from 'vitest/config';

const integration = ['test/**/*.test.ts'];
const engines = process.env.TEST_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];

export default defineConfig({
  test: {
    projects: [
      { test: { name: 'unit', include: ['src/**/*.test.ts'] } },
      ...engines.map((engine) => ({
        test: {
          name: engine,
          include: integration,
          env: { TEST_DB_ENGINE: engine },
          testTimeout: 20_000,
          hookTimeout: 30_000,
        },
      })),
    ],
  },
});
