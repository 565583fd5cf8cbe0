import { defineConfig } from 'vitest/config';

const integration = ['test/**/*.test.ts'];
const engines = process.env.TEST_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];

// One process runs a project's files one after another without a fresh module graph per file
// (decision 094, amended 2026-11-27): the server's modules are imported once, not once per file,
// and the integration files share one in-memory PGlite (each file migrates a schema of its own,
// `test/helpers/database.ts`), where each file created its own before: 2-5 s each.
const isolate = false;

export default defineConfig({
  test: {
    projects: [
      { test: { name: 'unit', include: ['src/**/*.test.ts'], isolate } },
      ...engines.map((engine) => ({
        test: {
          name: engine,
          include: integration,
          env: { TEST_DB_ENGINE: engine },
          isolate,
          testTimeout: 20_000,
          hookTimeout: 30_000,
        },
      })),
    ],
  },
});
