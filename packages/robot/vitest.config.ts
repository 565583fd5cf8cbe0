import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts', 'test-support/**/*.test.ts'],
    // Simulation and property tests are CPU-bound: a few seconds each on a loaded 2-core
    // machine, where the 5 s default turned a correct run red.
    testTimeout: 30_000,
  },
});
