import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['functions/**/*.test.ts', 'core/**/*.test.ts', 'db/**/*.test.ts', 'consumers/**/*.test.ts', 'test/**/*.test.ts', 'storage-service/**/*.test.ts', 'vc-service/**/*.test.ts', 'cli/**/*.test.ts'],
    globalSetup: ['test/rig/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    reporters: ['default', './test/rig/summary-reporter.ts'],
  },
});
