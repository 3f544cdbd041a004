import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GroupCommitSqliteDialect } from './sqlite-group-commit.js';

interface Db {
  parent: { id: number };
  item: { id: number; parent_id: number | null; note: string };
}

/**
 * The embedded store's group commit (issue "cost proportional to work"): concurrent transactions share one
 * COMMIT (one fsync), each keeps its own atomicity, and nobody is answered before what they wrote or read is
 * durable. These run on SQLite in every CI run: the driver is SQLite's whatever store the suite targets.
 */
describe('SQLite group commit', () => {
  let dir: string;
  let file: string;
  let db: Kysely<Db>;
  let commits: number[];

  beforeEach(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'group-commit-'));
    file = path.join(dir, 'db.sqlite');
    const raw = new SQLite(file);
    raw.pragma('journal_mode = WAL');
    raw.pragma('synchronous = FULL');
    raw.pragma('foreign_keys = ON');
    commits = [];
    db = new Kysely<Db>({ dialect: new GroupCommitSqliteDialect(raw, (units) => commits.push(units)) });
    await sql`create table parent (id integer primary key)`.execute(db);
    // Deferred: checked at the physical COMMIT, which lets a test make that COMMIT fail.
    await sql`create table item (id integer primary key, parent_id integer references parent (id) deferrable initially deferred, note text not null)`.execute(db);
    commits = [];
  });

  afterEach(async () => {
    await db.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  /** What another connection sees: only what was committed. */
  const committedNotes = () => {
    const other = new SQLite(file, { readonly: true });
    try {
      return (other.prepare('select note from item order by id').all() as { note: string }[]).map((r) => r.note);
    } finally {
      other.close();
    }
  };

  it('concurrent transactions share commits, and each caller is answered after its commit', async () => {
    const seenAtAnswer: boolean[] = [];
    await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        db.transaction().execute(async (tx) => {
          await tx.insertInto('item').values({ id: i + 1, parent_id: null, note: `n${i}` }).execute();
          await tx.selectFrom('item').select('id').where('id', '=', i + 1).executeTakeFirstOrThrow();
        }).then(() => seenAtAnswer.push(committedNotes().includes(`n${i}`))),
      ),
    );
    expect(seenAtAnswer).toEqual(Array(40).fill(true));
    expect(commits.reduce((a, b) => a + b, 0)).toBe(40);
    expect(commits.length).toBeLessThan(10);
  });

  it('a failing transaction rolls back only its own work; the others of its batch commit', async () => {
    const results = await Promise.allSettled(
      Array.from({ length: 10 }, (_, i) =>
        db.transaction().execute(async (tx) => {
          await tx.insertInto('item').values({ id: i + 1, parent_id: null, note: `n${i}` }).execute();
          if (i % 3 === 0) throw new Error(`unit ${i} fails`);
        }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(Array.from({ length: 10 }, (_, i) => (i % 3 === 0 ? 'rejected' : 'fulfilled')));
    expect(committedNotes()).toEqual(['n1', 'n2', 'n4', 'n5', 'n7', 'n8']);
    expect(commits.length).toBeLessThan(10);
  });

  it('a COMMIT that fails fails every unit of its batch, and nothing of it is kept', async () => {
    await db.insertInto('parent').values({ id: 1 }).execute();
    const results = await Promise.allSettled([
      db.transaction().execute((tx) => tx.insertInto('item').values({ id: 1, parent_id: 1, note: 'fine' }).execute()),
      // Violates the deferred foreign key: its savepoint is released, and the physical COMMIT refuses the batch.
      db.transaction().execute((tx) => tx.insertInto('item').values({ id: 2, parent_id: 99, note: 'orphan' }).execute()),
      db.insertInto('item').values({ id: 3, parent_id: null, note: 'lone statement' }).execute(),
    ]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected', 'rejected']);
    expect(committedNotes()).toEqual([]);
    // The store goes on working.
    await db.transaction().execute((tx) => tx.insertInto('item').values({ id: 4, parent_id: 1, note: 'after' }).execute());
    expect(committedNotes()).toEqual(['after']);
  });

  it('when SQLite itself ends the shared transaction, the units already in it fail too', async () => {
    const results = await Promise.allSettled([
      db.transaction().execute((tx) => tx.insertInto('item').values({ id: 1, parent_id: null, note: 'earlier in the batch' }).execute()),
      db.transaction().execute(async (tx) => {
        await tx.insertInto('item').values({ id: 2, parent_id: null, note: 'doomed' }).execute();
        // What SQLite does on its own after an I/O error or a full disk: the whole transaction is gone.
        await sql`rollback`.execute(tx);
        throw new Error('the statement failed');
      }),
    ]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(committedNotes()).toEqual([]);
    await db.transaction().execute((tx) => tx.insertInto('item').values({ id: 3, parent_id: null, note: 'after' }).execute());
    expect(committedNotes()).toEqual(['after']);
  });

  it('a read that ran inside an open batch is answered only once that batch is durable', async () => {
    let readAnswered = false;
    let committedWhenRead: string[] = [];
    await Promise.all([
      db.transaction().execute((tx) => tx.insertInto('item').values({ id: 1, parent_id: null, note: 'pending' }).execute()),
      db
        .selectFrom('item')
        .select('note')
        .execute()
        .then((rows) => {
          readAnswered = true;
          committedWhenRead = committedNotes();
          expect(rows.map((r) => r.note)).toEqual(['pending']);
        }),
    ]);
    expect(readAnswered).toBe(true);
    expect(committedWhenRead).toEqual(['pending']);
  });

  it('a lone statement with no batch open commits on its own, at once', async () => {
    await db.insertInto('item').values({ id: 1, parent_id: null, note: 'alone' }).execute();
    expect(committedNotes()).toEqual(['alone']);
    expect(commits).toEqual([]);
  });

  it('bounds a batch, so a long burst commits in several steps', async () => {
    await Promise.all(
      Array.from({ length: 600 }, (_, i) =>
        db.transaction().execute((tx) => tx.insertInto('item').values({ id: i + 1, parent_id: null, note: `n${i}` }).execute()),
      ),
    );
    expect(commits.reduce((a, b) => a + b, 0)).toBe(600);
    expect(Math.max(...commits)).toBeLessThanOrEqual(256);
    expect(committedNotes()).toHaveLength(600);
  });

  it('a transaction that awaits something slow keeps the batch open until it finishes', async () => {
    const slow = db.transaction().execute(async (tx) => {
      await tx.insertInto('item').values({ id: 1, parent_id: null, note: 'slow' }).execute();
      await new Promise((r) => setTimeout(r, 30));
      await tx.insertInto('item').values({ id: 2, parent_id: null, note: 'slow 2' }).execute();
    });
    const quick = db.transaction().execute((tx) => tx.insertInto('item').values({ id: 3, parent_id: null, note: 'quick' }).execute());
    await Promise.all([slow, quick]);
    expect(committedNotes()).toEqual(['slow', 'slow 2', 'quick']);
  });
});
