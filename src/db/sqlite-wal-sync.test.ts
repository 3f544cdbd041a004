import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStore } from './database.js';
import { walSyncer } from './sqlite-wal-sync.js';

/** Counts the syncs the store asks for, so a test can tell that the driver really waits on them. */
const counted = { syncs: 0 };
const countingSyncer = (file: string) => {
  const w = walSyncer(file);
  return { ...w, sync: () => (counted.syncs++, w.sync()) };
};

/** SQLITE_SYNC: which sync setting a store gets, and the log sync thread on a real file. */
describe('SQLite sync setting', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'wal-sync-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const synchronousOf = async (sqliteSync?: 'background' | 'inline', file = path.join(dir, 'wallet.sqlite')) => {
    const store = openStore({ databaseUrl: '', sqliteFile: file, sqliteSync, walSyncer: countingSyncer });
    try {
      await sql`create table if not exists t (id integer primary key)`.execute(store.db);
      await store.transaction((tx) => sql`insert or replace into t (id) values (1)`.execute(tx));
      const { rows } = await sql<{ synchronous: number }>`pragma synchronous`.execute(store.db);
      return rows[0]!.synchronous;
    } finally {
      await store.close();
    }
  };

  it('is SQLite\'s own FULL unless told otherwise, with no sync of the store\'s own', async () => {
    counted.syncs = 0;
    expect(await synchronousOf()).toBe(2);
    expect(await synchronousOf('inline')).toBe(2);
    expect(counted.syncs).toBe(0);
  });

  it('background: COMMITs only write the log (NORMAL), and the store syncs it itself', async () => {
    counted.syncs = 0;
    expect(await synchronousOf('background')).toBe(1);
    // The table, then the transaction: each answered only after a sync of its own.
    expect(counted.syncs).toBeGreaterThanOrEqual(2);
  });

  it('background works through a symlinked data directory, as SQLite resolves it', async () => {
    const real = path.join(dir, 'real');
    mkdirSync(real);
    symlinkSync(real, path.join(dir, 'link'));
    expect(await synchronousOf('background', path.join(dir, 'link', 'wallet.sqlite'))).toBe(1);
  });

  it('a sync of a log that is not there fails, and a closed syncer refuses to sync', async () => {
    const file = path.join(dir, 'plain');
    mkdirSync(file); // realpath needs something there; its "-wal" does not exist
    const wal = walSyncer(file);
    try {
      await expect(wal.sync()).rejects.toThrow(/ENOENT/);
    } finally {
      await wal.close();
    }
    await expect(wal.sync()).rejects.toThrow(/closed/);
  });
});
