import { defineConfig } from 'vitest/config';
import { TEST_WORKERS } from './test/worker-databases.js';

/**
 * `npm test`. Loading the service's modules took about 3 s per test file, half of the suite's time, so the files
 * run by one worker share their modules (`isolate: false`): every file still opens its own stores and servers,
 * but no file may replace a module with `vi.mock` (lint refuses it; pass a fake through options instead). Two
 * files run at once, as measured on the two cores CI has, where the timing-sensitive fault tests hold; on
 * PostgreSQL each worker has a database of its own (test/worker-databases.ts). Together: about 10 minutes → 5 on
 * SQLite, 14 → 8 on PostgreSQL.
 */
export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts', 'web/src/**/*.test.ts', 'web/scripts/**/*.test.ts'],
    pool: 'forks',
    poolOptions: { forks: { isolate: false, minForks: TEST_WORKERS, maxForks: TEST_WORKERS } },
    testTimeout: 30_000,
    hookTimeout: 30_000,
    globalSetup: ['test/global-setup.ts'],
    setupFiles: ['test/worker-setup.ts'],
    reporters: ['default', './test/summary-reporter.ts'],
  },
});
