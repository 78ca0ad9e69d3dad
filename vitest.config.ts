import { defineConfig } from 'vitest/config';

/**
 * Test files that replace a module with vi.mock: they need a module registry of their own, so they run
 * isolated (a fresh process each). Every other file shares its worker's modules (`isolate: false`): each
 * file still has its own module of tests and its own home (test/setup-home.ts), but src/ and the
 * libraries are loaded once per worker instead of once per file, which was a third of the run's time.
 */
const MOCKING = ['test/app/status-reads.test.ts', 'test/checkpoint/snapshot-at-open.test.ts'];

const common = {
  // A home of its own for every test file: the account's store is never the real user's (test/setup-home.ts).
  setupFiles: ['test/setup-home.ts'],
  // A safety net against a hang, not a speed goal (speed lives in `npm run bench`): on a shared machine with a
  // load of 13 on 2 cores the demo's run of 270 contacts took 30.5 s against 21 s on a quiet one, so the
  // half-minute of before failed a fresh clone's CI. No test asserts how long it takes.
  testTimeout: 120_000,
  hookTimeout: 60_000,
  pool: 'forks' as const,
};

export default defineConfig({
  test: {
    // Three at once on two cores: most tests wait (on the simulator's latency and rate limits, a lease or a claim
    // to lapse, child processes, the database), so two workers kept the cores half idle. Measured on the shared
    // 2-core machine, the same commit back to back: 2 workers 667 s, 3 workers 372 s and 395 s.
    maxWorkers: 3,
    projects: [
      {
        test: {
          ...common,
          name: 'shared',
          include: ['test/**/*.test.ts'],
          exclude: [...MOCKING],
          globalSetup: ['test/pg-global-setup.ts', 'test/run-folder-setup.ts'],
          isolate: false,
        },
      },
      {
        // No database here: these files do not use the cluster, so they need no global set-up of their own.
        test: { ...common, name: 'isolated', include: MOCKING, isolate: true },
      },
    ],
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
