import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts', 'web/src/**/*.test.ts', 'web/scripts/**/*.test.ts'],
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 30_000,
    globalSetup: ['test/global-setup.ts'],
    reporters: ['default', './test/summary-reporter.ts'],
  },
});
