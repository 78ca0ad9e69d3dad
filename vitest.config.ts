import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/pg-global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Two at once even on two cores: most tests wait on child processes, the simulator's latency or the database,
    // and vitest's default (cores − 1) would run them one by one.
    maxWorkers: 2,
    coverage: {
      enabled: true,
      provider: 'v8',
      include: ['src/**/*.ts'],
      // The entry point only wires main() to the process; it runs in the end-to-end tests' child processes.
      exclude: ['src/cli/main.ts'],
      reporter: ['text-summary', 'json-summary'],
      reportsDirectory: 'coverage',
      thresholds: { lines: 90 },
    },
  },
});
