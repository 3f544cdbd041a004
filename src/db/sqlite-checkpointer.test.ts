import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { openStore } from './database.js';
import { startCheckpointer } from './sqlite-checkpointer.js';

/** A WAL checkpoint inside a COMMIT blocked the event loop for up to a second; a worker does it now. */
describe('SQLite checkpointer', () => {
  it('copies committed pages into the database file without the main connection checkpointing, and stops with the store', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'ckpt-'));
    const file = path.join(dir, 'wallet.sqlite');
    const failures: unknown[] = [];
    const store = openStore({ databaseUrl: '', sqliteFile: file, onCheckpointerFailure: (e) => failures.push(e) });
    let closed = false;
    try {
      await sql`create table t (id integer primary key, v text not null)`.execute(store.db);
      const before = statSync(file).size;
      // ~2 MB of pages, far below the main connection's own checkpoint threshold (MAIN_AUTOCHECKPOINT_PAGES).
      for (let i = 0; i < 100; i++) {
        await store.transaction(async (tx) => {
          for (let j = 0; j < 20; j++) await sql`insert into t (v) values (${'x'.repeat(1000)})`.execute(tx);
        });
      }
      const deadline = Date.now() + 5_000;
      while (statSync(file).size < before + 1_500_000 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      expect(statSync(file).size).toBeGreaterThan(before + 1_500_000);
      const rows = await sql<{ n: number }>`select count(*) as n from t`.execute(store.db);
      expect(rows.rows[0]!.n).toBe(2000);
      await store.close();
      closed = true;
      // SQLite removes the WAL only when its last connection closes: closing the store closed the worker's too.
      expect(existsSync(`${file}-wal`)).toBe(false);
      expect(failures).toEqual([]);
    } finally {
      if (!closed) await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('backs off while a reader pins the log, instead of retrying a checkpoint that cannot advance', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'ckpt-pin-'));
    const file = path.join(dir, 'wallet.sqlite');
    const writer = new SQLite(file);
    writer.pragma('journal_mode = WAL');
    writer.pragma('wal_autocheckpoint = 0');
    writer.exec('create table t (id integer primary key, v text not null)');
    const c = startCheckpointer(file, () => undefined);
    const reader = new SQLite(file, { readonly: true });
    try {
      // The reader's snapshot ends here: no checkpoint can copy the frames committed after it.
      reader.exec('begin');
      reader.prepare('select count(*) from t').get();
      const insert = writer.prepare('insert into t (v) values (?)');
      for (let i = 0; i < 200; i++) insert.run('x'.repeat(1000));
      await new Promise((r) => setTimeout(r, 300));
      const before = await c.passes();
      await new Promise((r) => setTimeout(r, 1_000));
      // About one pass per 100 ms; a worker retrying at once would make hundreds.
      expect((await c.passes()) - before).toBeLessThan(30);
    } finally {
      reader.close();
      await c.stop();
      writer.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('tells when the worker fails, so the main connection can checkpoint again', async () => {
    const failures: unknown[] = [];
    const c = startCheckpointer(path.join(tmpdir(), 'no-such-dir-ckpt', 'x', 'wallet.sqlite'), (err) => failures.push(err));
    const deadline = Date.now() + 5_000;
    while (failures.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(failures).toHaveLength(1);
    await c.stop();
    expect(failures).toHaveLength(1);
  });
});
