import path from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import type { TestApp } from './helpers.js';

/**
 * Another session of the same database holds `table` against writes, so that the app's next write there waits
 * past its bound (D42): PostgreSQL's lock_timeout (set it short in the app's env), SQLite's busy_timeout (5 s; on
 * SQLite the whole database is held). Returns the release.
 */
export async function holdWrites(t: TestApp, table: string): Promise<() => Promise<void>> {
  if (t.app.ctx.store.dialect === 'postgres') {
    const outside = new pg.Client({ connectionString: t.config.databaseUrl });
    await outside.connect();
    await outside.query('begin');
    await outside.query(`lock table ${table} in exclusive mode`);
    return async () => {
      await outside.query('rollback');
      await outside.end();
    };
  }
  const other = new SQLite(path.join(t.config.dataDir, 'wallet.sqlite'));
  other.exec('begin immediate');
  return async () => {
    other.exec('rollback');
    other.close();
  };
}
