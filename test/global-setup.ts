import { makeWorkerDatabases } from './worker-databases.js';

/**
 * CI must prove the suite on PostgreSQL and the shared rate limit on Redis: there, a missing service is a
 * failure, never a silent skip. On PostgreSQL each worker gets a database of its own (worker-databases.ts),
 * dropped at the end.
 */
export default async function setup(): Promise<(() => Promise<void>) | undefined> {
  if (process.env.CI === 'true' && process.env.REQUIRE_POSTGRES === 'true' && !process.env.TEST_DATABASE_URL) {
    throw new Error('REQUIRE_POSTGRES=true but TEST_DATABASE_URL is not set');
  }
  const store = process.env.TEST_DATABASE_URL ? 'PostgreSQL' : 'SQLite';
  console.log(`[tests] store: ${store}; redis: ${process.env.TEST_REDIS_URL ? 'yes' : 'no'}`);
  return process.env.TEST_DATABASE_URL ? makeWorkerDatabases(process.env.TEST_DATABASE_URL) : undefined;
}
