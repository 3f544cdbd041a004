/**
 * CI must prove the suite on PostgreSQL and the shared rate limit on Redis: there, a missing service is a
 * failure, never a silent skip.
 */
export default function setup(): void {
  if (process.env.CI === 'true' && process.env.REQUIRE_POSTGRES === 'true' && !process.env.TEST_DATABASE_URL) {
    throw new Error('REQUIRE_POSTGRES=true but TEST_DATABASE_URL is not set');
  }
  const store = process.env.TEST_DATABASE_URL ? 'PostgreSQL' : 'SQLite';
  console.log(`[tests] store: ${store}; redis: ${process.env.TEST_REDIS_URL ? 'yes' : 'no'}`);
}
