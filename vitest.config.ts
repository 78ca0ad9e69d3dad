import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/pg-global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
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
