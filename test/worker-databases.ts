import pg from 'pg';

/**
 * On PostgreSQL each test worker has a database of its own, made from the one TEST_DATABASE_URL names: the test
 * apps of one worker each make and drop a schema in it, and Kysely's migrator reads the catalog of every schema
 * in its database, failing ("schema … does not exist") when another worker drops one at that moment.
 */
export const TEST_WORKERS = 2;

/** The database of worker `id` (1-based, as VITEST_POOL_ID). */
export function workerDatabaseUrl(base: string, id: number): string {
  const url = new URL(base);
  url.pathname = `${url.pathname}_w${id}`;
  return url.toString();
}

const nameOf = (url: string) => decodeURIComponent(new URL(url).pathname.slice(1));

/** Makes each worker's database afresh; the returned function drops them (global setup and teardown). */
export async function makeWorkerDatabases(base: string): Promise<() => Promise<void>> {
  const each = async (sqlFor: (name: string) => string) => {
    const admin = new pg.Client({ connectionString: base });
    await admin.connect();
    try {
      for (let id = 1; id <= TEST_WORKERS; id++) await admin.query(sqlFor(pg.escapeIdentifier(nameOf(workerDatabaseUrl(base, id)))));
    } finally {
      await admin.end();
    }
  };
  // A run that was killed leaves its databases behind: the next run with the same URL starts them afresh.
  await each((db) => `drop database if exists ${db} with (force)`);
  await each((db) => `create database ${db}`);
  return () => each((db) => `drop database if exists ${db} with (force)`);
}
