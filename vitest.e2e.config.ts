import { defineConfig } from 'vitest/config';

/**
 * The browser suite (`npm run test:e2e`): Debian's Chromium driven by playwright-core against the real built
 * server on SQLite. One file at a time; each file starts its own servers.
 */
export default defineConfig({
  test: {
    include: ['test/e2e/**/*.e2e.ts'],
    pool: 'forks',
    fileParallelism: false,
    testTimeout: 90_000,
    hookTimeout: 90_000,
    reporters: ['default', './test/summary-reporter.ts'],
  },
});
