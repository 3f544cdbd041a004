import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, sql, type Generated } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GroupCommitSqliteDialect } from './sqlite-group-commit.js';
import { walSyncer } from './sqlite-wal-sync.js';
import { isStoreUnavailable, storeFailureKind } from './store-errors.js';

interface Db {
  parent: { id: number };
  item: { id: Generated<number>; parent_id: number | null; note: string };
}

/**
 * The embedded store's group commit (cost proportional to work): concurrent transactions share one
 * COMMIT (one fsync), each keeps its own atomicity, and nobody is answered before what they wrote or read is
 * durable. These run on SQLite in every CI run: the driver is SQLite's whatever store the suite targets.
 */
/** What another connection sees in `file`: only what was committed. */
function notesIn(file: string): string[] {
  const other = new SQLite(file, { readonly: true });
  try {
    return (other.prepare('select note from item order by id').all() as { note: string }[]).map((r) => r.note);
  } finally {
    other.close();
  }
}

describe.each([
  { sync: 'inline', how: 'each COMMIT syncs (synchronous=FULL)' },
  { sync: 'background', how: 'the log is synced off the event loop (synchronous=NORMAL + walSyncer)' },
])('SQLite group commit, $how', ({ sync }) => {
  let dir: string;
  let file: string;
  let db: Kysely<Db>;
  let commits: number[];
  let wal: ReturnType<typeof walSyncer> | null;
  let raw: SQLite.Database;

  beforeEach(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'group-commit-'));
    file = path.join(dir, 'db.sqlite');
    raw = new SQLite(file);
    raw.pragma('journal_mode = WAL');
    wal = sync === 'background' ? walSyncer(file) : null;
    raw.pragma(wal ? 'synchronous = NORMAL' : 'synchronous = FULL');
    raw.pragma('foreign_keys = ON');
    commits = [];
    db = new Kysely<Db>({
      dialect: new GroupCommitSqliteDialect(raw, { onCommit: (units) => commits.push(units), syncLog: wal?.sync }),
    });
    await sql`create table parent (id integer primary key)`.execute(db);
    // Deferred: checked at the physical COMMIT, which lets a test make that COMMIT fail.
    await sql`create table item (id integer primary key, parent_id integer references parent (id) deferrable initially deferred, note text not null)`.execute(db);
    commits = [];
  });

  afterEach(async () => {
    await db.destroy();
    await wal?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const committedNotes = () => notesIn(file);
  /** Another driver of this process on the same file, as two nodes on SQLite in one test have; it gives up soon. */
  const secondDriver = () => {
    const raw2 = new SQLite(file);
    raw2.pragma('busy_timeout = 2000');
    return new Kysely<Db>({ dialect: new GroupCommitSqliteDialect(raw2) });
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

  it('a failing unit leaves the earlier units of its batch as they were told: rows, ids given out, caught failures', async () => {
    await db.insertInto('parent').values({ id: 1 }).execute();
    commits = [];
    const told: unknown[] = [];
    const results = await Promise.allSettled([
      // Ids chosen by SQLite, and rows returned: the replay must give the same ones.
      db.transaction().execute(async (tx) => {
        const r = await tx.insertInto('item').values({ parent_id: 1, note: 'auto id' }).returning('id').executeTakeFirstOrThrow();
        told.push(r.id);
        await tx.updateTable('item').set({ note: sql`note || ' (updated)'` }).where('id', '=', r.id).execute();
      }),
      db.insertInto('item').values({ id: 50, parent_id: null, note: 'lone write' }).execute(),
      db.transaction().execute(async (tx) => {
        await tx.insertInto('item').values({ id: 60, parent_id: null, note: 'kept' }).execute();
        // A statement that failed and was caught changed nothing, and is not run again.
        await tx.insertInto('item').values({ id: 50, parent_id: null, note: 'duplicate, caught' }).execute().catch(() => undefined);
        const r = await tx.insertInto('item').values({ parent_id: null, note: 'auto id 2' }).returning('id').executeTakeFirstOrThrow();
        told.push(r.id);
      }),
      db.transaction().execute(async (tx) => {
        await tx.insertInto('item').values({ parent_id: null, note: 'undone' }).execute();
        await tx.deleteFrom('item').where('id', '=', 50).execute();
        throw new Error('fails after writing');
      }),
      db.transaction().execute(async (tx) => {
        const r = await tx.insertInto('item').values({ parent_id: null, note: 'after the failure' }).returning('id').executeTakeFirstOrThrow();
        told.push(r.id);
      }),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
    expect(told).toEqual([1, 61, 62]);
    const other = new SQLite(file, { readonly: true });
    try {
      expect(other.prepare('select id, note from item order by id').all()).toEqual([
        { id: 1, note: 'auto id (updated)' },
        { id: 50, note: 'lone write' },
        { id: 60, note: 'kept' },
        { id: 61, note: 'auto id 2' },
        { id: 62, note: 'after the failure' },
      ]);
    } finally {
      other.close();
    }
    // The batch commits at the failing unit's release, so a later failure never replays the same units again.
    expect(commits).toEqual([4, 1]);
  });

  it('when the earlier units cannot be run again as they ran, the whole batch fails and nothing of it is kept', async () => {
    // The driver's SQL never reads anything but its parameters and rows; a function that answers differently the
    // second time stands for what would break that.
    let calls = 0;
    raw.function('first_time_only', { deterministic: false }, () => {
      if (calls++ > 0) throw new Error('not the same the second time');
      return 'once';
    });
    const results = await Promise.allSettled([
      db.transaction().execute((tx) => tx.insertInto('item').values({ id: 1, parent_id: null, note: sql<string>`first_time_only()` }).execute()),
      db.insertInto('item').values({ id: 2, parent_id: null, note: 'lone write' }).execute(),
      db.transaction().execute(async (tx) => {
        await tx.insertInto('item').values({ id: 3, parent_id: null, note: 'undone' }).execute();
        throw new Error('fails after writing');
      }),
    ]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected', 'rejected']);
    expect(String((results[0] as PromiseRejectedResult).reason)).toMatch(/could not undo one transaction of a group alone; retry/);
    // Nothing of the group is kept and a retry may succeed: the store is unavailable for now (D42: 503), not 500.
    for (const r of results.slice(0, 2)) {
      expect(isStoreUnavailable((r as PromiseRejectedResult).reason)).toBe(true);
      expect(storeFailureKind((r as PromiseRejectedResult).reason)).toBe('group_rolled_back');
    }
    expect(committedNotes()).toEqual([]);
    await db.transaction().execute((tx) => tx.insertInto('item').values({ id: 4, parent_id: null, note: 'after' }).execute());
    expect(committedNotes()).toEqual(['after']);
  });

  it('another connection committing between the undo\'s ROLLBACK and its BEGIN fails the batch rather than replay on other rows', async () => {
    const other = new SQLite(file);
    let inject = false;
    // The driver prepares its ROLLBACK once, through this handle: after it runs, another connection commits.
    const prepare = raw.prepare.bind(raw);
    (raw as unknown as { prepare: (text: string) => unknown }).prepare = (text: string) => {
      const stmt = prepare(text);
      if (text !== 'rollback') return stmt;
      return {
        run: () => {
          const r = stmt.run();
          if (inject) {
            inject = false;
            other.prepare("insert into item (id, parent_id, note) values (99, null, 'other connection')").run();
          }
          return r;
        },
      };
    };
    try {
      const results = await Promise.allSettled([
        db.transaction().execute((tx) => tx.insertInto('item').values({ id: 1, parent_id: null, note: 'earlier' }).execute()),
        db.transaction().execute(async (tx) => {
          await tx.insertInto('item').values({ id: 2, parent_id: null, note: 'failing' }).execute();
          inject = true;
          throw new Error('fails after writing');
        }),
      ]);
      expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
      expect(String((results[0] as PromiseRejectedResult).reason)).toMatch(/another connection wrote meanwhile/);
      expect(committedNotes()).toEqual(['other connection']);
    } finally {
      other.close();
    }
  });

  it('a failing unit that wrote nothing undoes nothing: the units that only read are not failed by another connection\'s commit', async () => {
    const db2 = secondDriver();
    try {
      await db.insertInto('item').values({ id: 1, parent_id: null, note: 'before' }).execute();
      commits = [];
      let release!: () => void;
      const gate = new Promise<void>((r) => (release = r));
      const results = Promise.allSettled([
        db.transaction().execute(async (tx) => (await tx.selectFrom('item').selectAll().execute()).length),
        db.transaction().execute(async (tx) => {
          await tx.selectFrom('item').selectAll().execute();
          await gate;
          throw new Error('a refusal decided after reads only');
        }),
      ]);
      await new Promise((r) => setTimeout(r, 20));
      // Meanwhile a connection of this process commits the open batch and writes on its own.
      await db2.insertInto('item').values({ id: 5, parent_id: null, note: 'other driver' }).execute();
      release();
      expect((await results).map((r) => r.status)).toEqual(['fulfilled', 'rejected']);
      expect(committedNotes()).toEqual(['before', 'other driver']);
    } finally {
      await db2.destroy();
    }
  });

  it('a session that wrote in a batch SQLite ended by itself fails at its next transaction, not told success', async () => {
    const outcome = await db
      .connection()
      .execute(async (c) => {
        await c.insertInto('item').values({ id: 1, parent_id: null, note: 'first, lost' }).execute();
        // SQLite ends the physical transaction on its own, as after a full disk; the caller catches the error.
        await sql`insert or rollback into item (id, parent_id, note) values (1, null, 'again')`.execute(c).catch(() => undefined);
        await c.transaction().execute((tx) => tx.insertInto('item').values({ id: 2, parent_id: null, note: 'second' }).execute());
      })
      .then(
        () => 'fulfilled',
        (e: unknown) => `rejected (${isStoreUnavailable(e) ? 'unavailable' : 'other'}): ${String(e)}`,
      );
    expect(outcome).toMatch(/^rejected \(unavailable\): .*rolled back a group of transactions/);
    expect(committedNotes()).toEqual([]);
    await db.insertInto('item').values({ id: 3, parent_id: null, note: 'after' }).execute();
    expect(committedNotes()).toEqual(['after']);
  });

  it('many units with failures among them commit exactly the work of those that succeeded', async () => {
    await sql`create table counter (id integer primary key, n integer not null)`.execute(db);
    await sql`insert into counter (id, n) values (1, 0)`.execute(db);
    commits = [];
    let seed = 7;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const plan = Array.from({ length: 120 }, (_, i) => ({ i, fails: random() < 0.25, lone: random() < 0.2 }));
    const results = await Promise.allSettled(
      plan.map(({ i, fails, lone }) =>
        lone && !fails
          ? sql`update counter set n = n + 1 where id = 1`.execute(db).then(() => db.insertInto('item').values({ id: 1000 + i, parent_id: null, note: `lone ${i}` }).execute())
          : db.transaction().execute(async (tx) => {
              await sql`update counter set n = n + 1 where id = 1`.execute(tx);
              await tx.insertInto('item').values({ id: 1000 + i, parent_id: null, note: `unit ${i}` }).execute();
              if (fails) throw new Error(`unit ${i} fails`);
            }),
      ),
    );
    const succeeded = plan.filter((p) => !p.fails);
    expect(results.map((r) => r.status)).toEqual(plan.map((p) => (p.fails ? 'rejected' : 'fulfilled')));
    const other = new SQLite(file, { readonly: true });
    try {
      expect(other.prepare('select n from counter').get()).toEqual({ n: succeeded.length });
      expect((other.prepare('select id from item order by id').all() as { id: number }[]).map((r) => r.id)).toEqual(succeeded.map((p) => 1000 + p.i));
    } finally {
      other.close();
    }
    // Each failure closes its batch (about one commit per failure here), and the rest still share commits.
    expect(commits.length).toBeLessThanOrEqual(plan.filter((p) => p.fails).length + 3);
    expect(commits.length).toBeLessThan(succeeded.length / 2);
  });

  it('a COMMIT that fails fails every unit of its batch, and nothing of it is kept', async () => {
    await db.insertInto('parent').values({ id: 1 }).execute();
    const results = await Promise.allSettled([
      db.transaction().execute((tx) => tx.insertInto('item').values({ id: 1, parent_id: 1, note: 'fine' }).execute()),
      // Violates the deferred foreign key: the unit itself succeeds, and the physical COMMIT refuses the batch.
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

  it('a lone write with no batch open starts one, and is answered once it is committed', async () => {
    await db.insertInto('item').values({ id: 1, parent_id: null, note: 'alone' }).execute();
    expect(committedNotes()).toEqual(['alone']);
    expect(commits).toEqual([1]);
  });

  it('concurrent lone writes share a commit, and each is answered after it', async () => {
    const seenAtAnswer: boolean[] = [];
    await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        db
          .updateTable('item')
          .set({ note: 'x' })
          .where('id', '=', -1)
          .execute()
          .then(() => db.insertInto('item').values({ id: i + 1, parent_id: null, note: `n${i}` }).execute())
          .then(() => seenAtAnswer.push(committedNotes().includes(`n${i}`))),
      ),
    );
    expect(seenAtAnswer).toEqual(Array(30).fill(true));
    expect(commits.reduce((a, b) => a + b, 0)).toBe(60);
    expect(commits.length).toBeLessThan(10);
  });

  it('a lone write that fails fails alone; the lone writes of its batch commit', async () => {
    await db.insertInto('item').values({ id: 1, parent_id: null, note: 'first' }).execute();
    commits = [];
    const results = await Promise.allSettled([
      db.insertInto('item').values({ id: 2, parent_id: null, note: 'before' }).execute(),
      db.insertInto('item').values({ id: 1, parent_id: null, note: 'duplicate' }).execute(),
      db.insertInto('item').values({ id: 3, parent_id: null, note: 'after' }).execute(),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(String((results[1] as PromiseRejectedResult).reason)).toMatch(/UNIQUE/);
    expect(committedNotes()).toEqual(['first', 'before', 'after']);
    expect(commits).toEqual([3]);
  });

  it('a connection of this process about to write first commits the batch another one left open for the next turn', async () => {
    const db2 = secondDriver();
    try {
      const started = Date.now();
      // The first writes while it is the file's only driver, so its batch stays open for the next turn of the event
      // loop (microtasks never reach it); the second's first write would then busy-wait, blocking that turn.
      const here = db.insertInto('item').values({ id: 1, parent_id: null, note: 'here' }).execute();
      for (let i = 0; i < 100; i++) await Promise.resolve();
      await Promise.all([here, db2.insertInto('item').values({ id: 2, parent_id: null, note: 'there' }).execute()]);
      expect(Date.now() - started).toBeLessThan(1000);
      expect(commits).toEqual([1]);
    } finally {
      await db2.destroy();
    }
    await db.insertInto('item').values({ id: 3, parent_id: null, note: 'alone again' }).execute();
    expect(commits).toEqual([1, 1]);
    expect(committedNotes()).toEqual(['here', 'there', 'alone again']);
  });

  it('while two connections of this process use the file, lone writes commit by themselves and never wait on each other', async () => {
    const db2 = secondDriver();
    try {
      await db2.selectFrom('item').selectAll().execute();
      const started = Date.now();
      const writes: Promise<unknown>[] = [];
      for (let i = 0; i < 10; i++) {
        writes.push(db2.insertInto('item').values({ id: 100 + i, parent_id: null, note: `b${i}` }).execute());
        writes.push(db.insertInto('item').values({ id: i + 1, parent_id: null, note: `a${i}` }).execute());
      }
      const results = await Promise.allSettled(writes);
      expect(results.filter((r) => r.status === 'rejected')).toEqual([]);
      expect(Date.now() - started).toBeLessThan(1000);
      expect(committedNotes()).toHaveLength(20);
      expect(commits).toEqual([]);
    } finally {
      await db2.destroy();
    }
  });

  it('a lone write after SQLite ended the batch its unit wrote in fails, rather than commit without the lost work', async () => {
    const outcome = db
      .connection()
      .execute(async (c) => {
        await c.insertInto('item').values({ id: 1, parent_id: null, note: 'first' }).execute();
        // OR ROLLBACK ends the whole physical transaction, the first insert with it.
        await expect(sql`insert or rollback into item (id, parent_id, note) values (1, null, 'again')`.execute(c)).rejects.toThrow(/UNIQUE/);
        await c.insertInto('item').values({ id: 2, parent_id: null, note: 'second' }).execute();
      });
    await expect(outcome).rejects.toThrow(/rolled back/);
    expect(committedNotes()).toEqual([]);
  });

  it('a lone schema change is a write like any other, told apart by SQLite and not by its text: it commits in a batch, before its answer', async () => {
    await sql`create table other (id integer primary key)`.execute(db);
    expect(commits).toEqual([1]);
    await db.transaction().execute((tx) => sql`insert into other (id) values (1)`.execute(tx));
    expect((await sql<{ n: number }>`select count(*) as n from other`.execute(db)).rows[0]!.n).toBe(1);
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

/**
 * With `synchronous=NORMAL` a COMMIT only writes the log; the driver answers nobody before a sync of the log that
 * began after their COMMIT has finished. The sync is a fake here, so each test decides when the disk is done.
 */
describe('SQLite group commit with the log synced off the event loop', () => {
  let dir: string;
  let db: Kysely<Db>;
  let raw: SQLite.Database;
  let syncs: Array<{ done: () => void; fail: (e: Error) => void }>;

  beforeEach(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'group-commit-sync-'));
    raw = new SQLite(path.join(dir, 'db.sqlite'));
    raw.pragma('journal_mode = WAL');
    raw.pragma('synchronous = NORMAL');
    syncs = [];
    const syncLog = () => new Promise<void>((done, fail) => syncs.push({ done, fail }));
    db = new Kysely<Db>({ dialect: new GroupCommitSqliteDialect(raw, { syncLog }) });
    const creating = sql`create table item (id integer primary key, parent_id integer, note text not null)`.execute(db);
    await until(() => syncs.length === 1);
    syncs[0]!.done();
    await creating;
    syncs = [];
  });

  afterEach(async () => {
    let closed = false;
    const closing = db.destroy().then(() => (closed = true));
    while (!closed) {
      for (const s of syncs.splice(0)) s.done();
      await new Promise((r) => setImmediate(r));
    }
    await closing;
    rmSync(dir, { recursive: true, force: true });
  });

  const until = async (cond: () => boolean) => {
    for (let i = 0; i < 1000 && !cond(); i++) await new Promise((r) => setImmediate(r));
    expect(cond()).toBe(true);
  };
  /** Lets every pending callback run, so a promise that could settle has settled. */
  const settle = () => new Promise((r) => setTimeout(r, 5));
  const track = <T>(p: Promise<T>) => {
    const t = { settled: false, ok: false, error: undefined as unknown };
    p.then(
      () => Object.assign(t, { settled: true, ok: true }),
      (error) => Object.assign(t, { settled: true, error }),
    );
    return t;
  };
  const insert = (id: number) =>
    db.transaction().execute((tx) => tx.insertInto('item').values({ id, parent_id: null, note: `n${id}` }).execute());
  /** A transaction that writes row 2, then holds the connection until released (and then writes `thenId`). */
  const heldOpen = (thenId?: number) => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const unit = track(
      db.transaction().execute(async (tx) => {
        await tx.insertInto('item').values({ id: 2, parent_id: null, note: 'n2' }).execute();
        await gate;
        if (thenId) await tx.insertInto('item').values({ id: thenId, parent_id: null, note: `n${thenId}` }).execute();
      }),
    );
    return { unit, release };
  };
  const diskFails = () => syncs[0]!.fail(new Error('EIO: i/o error, fdatasync'));

  it('a transaction is answered only once a sync that began after its COMMIT has finished', async () => {
    const a = track(insert(1));
    await until(() => syncs.length === 1);
    await settle();
    expect(a.settled).toBe(false);
    syncs[0]!.done();
    await settle();
    expect(a).toMatchObject({ settled: true, ok: true });
  });

  it('batches committed while a sync runs wait for the next one', async () => {
    const a = track(insert(1));
    await until(() => syncs.length === 1);
    const b = track(insert(2));
    await settle();
    // b committed while the first sync was running: one sync at a time, so the next starts when it ends.
    expect(syncs).toHaveLength(1);
    syncs[0]!.done();
    await until(() => syncs.length === 2);
    await settle();
    expect([a.settled, b.settled]).toEqual([true, false]);
    syncs[1]!.done();
    await settle();
    expect(b).toMatchObject({ settled: true, ok: true });
  });

  it('a read with no batch open waits for the sync of what it could see', async () => {
    const a = track(insert(1));
    await until(() => syncs.length === 1);
    const read = track(db.selectFrom('item').select('note').execute());
    await settle();
    expect(read.settled).toBe(false);
    syncs[0]!.done();
    await settle();
    expect([a.ok, read.ok]).toEqual([true, true]);
  });

  it.each([
    { what: 'a lone write', returning: false },
    // A write with RETURNING is a "reader" to better-sqlite3: what counts is that it is not read-only.
    { what: 'a lone write that returns rows', returning: true },
  ])('$what with no batch open is synced before it is answered', async ({ returning }) => {
    const q = db.insertInto('item').values({ id: 1, parent_id: null, note: 'alone' });
    const lone = track<unknown>(returning ? q.returning('id').execute() : q.execute());
    await until(() => syncs.length === 1);
    await settle();
    expect(lone.settled).toBe(false);
    syncs[0]!.done();
    await settle();
    expect(lone.ok).toBe(true);
  });

  it('a read waits for the latest sync that covers what it can see, not an earlier one', async () => {
    const a = track(insert(1));
    await until(() => syncs.length === 1);
    const b = track(insert(2));
    await settle();
    syncs[0]!.done();
    await until(() => syncs.length === 2);
    // b's rows are committed but its sync is still running: a read that can see them must wait for it.
    const read = track(db.selectFrom('item').select('note').execute());
    await settle();
    expect([a.ok, b.settled, read.settled]).toEqual([true, false, false]);
    syncs[1]!.done();
    await settle();
    expect([b.ok, read.ok]).toEqual([true, true]);
  });

  it('closing waits for the sync in flight before it closes the database', async () => {
    const a = track(insert(1));
    await until(() => syncs.length === 1);
    let closed = false;
    const closing = db.destroy().then(() => (closed = true));
    await settle();
    expect([closed, raw.open, a.settled]).toEqual([false, true, false]);
    syncs[0]!.done();
    await closing;
    expect([a.ok, raw.open]).toEqual([true, false]);
    syncs = [];
  });

  it('a batch still open when a sync fails is rolled back and refused, and no sync starts after', async () => {
    const a = track(insert(1));
    await until(() => syncs.length === 1);
    // b holds the connection mid-transaction while the sync fails.
    const { unit: b, release } = heldOpen(3);
    await settle();
    diskFails();
    await settle();
    release();
    await settle();
    expect([a.settled, a.ok, b.settled, b.ok]).toEqual([true, false, true, false]);
    expect(syncs).toHaveLength(1);
    expect(notesIn(path.join(dir, 'db.sqlite'))).toEqual(['n1']);
  });

  it('a failed sync refuses a batch still open even when another unit is queued behind it', async () => {
    const a = track(insert(1));
    await until(() => syncs.length === 1);
    const { unit: b, release } = heldOpen();
    await settle();
    // c waits for the connection b holds, so b's release schedules no commit of its own.
    const c = track(insert(3));
    diskFails();
    await settle();
    release();
    await settle();
    expect([a.ok, b.settled, b.ok, c.settled, c.ok]).toEqual([false, true, false, true, false]);
    expect(syncs).toHaveLength(1);
  });

  it('a failed sync fails what it covered and everything after it, until the service restarts', async () => {
    const a = track(insert(1));
    await until(() => syncs.length === 1);
    const b = track(insert(2));
    await settle();
    diskFails();
    await settle();
    expect([a.settled, a.ok, b.settled, b.ok]).toEqual([true, false, true, false]);
    expect(String(a.error)).toMatch(/could not make its log durable; restart the service/);
    await expect(insert(3)).rejects.toThrow(/could not make its log durable/);
    await expect(db.selectFrom('item').select('note').execute()).rejects.toThrow(/could not make its log durable/);
  });
});
