import { workerDatabaseUrl } from './worker-databases.js';

// Runs in each test worker before each of its files (vitest.config.ts `setupFiles`): from here on, every reader of
// TEST_DATABASE_URL in this worker (helpers, child services, fault kits) gets the worker's own database. The URL
// given is kept aside, since the files of a worker share its environment.
if (process.env.TEST_DATABASE_URL && !process.env.TEST_DATABASE_BASE_URL) process.env.TEST_DATABASE_BASE_URL = process.env.TEST_DATABASE_URL;
const base = process.env.TEST_DATABASE_BASE_URL;
const id = Number(process.env.VITEST_POOL_ID);
if (base && id) process.env.TEST_DATABASE_URL = workerDatabaseUrl(base, id);
