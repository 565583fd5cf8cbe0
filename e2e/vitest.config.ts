import { defineConfig } from 'vitest/config';

const workers = Number(process.env.E2E_WORKERS ?? 2);

export default defineConfig({
  test: {
    root: import.meta.dirname,
    include: ['**/*.e2e.ts'],
    globalSetup: ['./global-setup.ts'],
    // Two files at a time (E2E_WORKERS, decision 094 amended 2026-11-29): a file keeps less than
    // one core busy on average (its browser and servers wait on the pages and the market).
    fileParallelism: workers > 1,
    maxWorkers: workers,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
