import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['functions/**/*.test.ts', 'core/**/*.test.ts', 'db/**/*.test.ts', 'consumers/**/*.test.ts', 'test/**/*.test.ts', 'storage-service/**/*.test.ts', 'vc-service/**/*.test.ts', 'cli/**/*.test.ts'],
    globalSetup: ['test/rig/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Most files wait on PostgreSQL, child processes and sockets, not the CPU: on a 2-core machine the default
    // (cores - 1 = one file at a time) leaves the CPU idle most of the run.
    maxWorkers: 3,
    reporters: ['default', './test/rig/summary-reporter.ts'],
  },
});
