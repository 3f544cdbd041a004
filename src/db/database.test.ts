import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createTestStore } from '../../test/helpers.js';
import { openStore, waitLongerForLocks } from './database.js';
import { migrateToLatest } from './migrate.js';

/** What every open of the embedded store sets, whatever the file's age. */
describe('SQLite store settings at open', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'store-open-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const pragma = async (file: string, name: string, sqliteCacheMb?: number): Promise<unknown> => {
    const store = openStore({ databaseUrl: '', sqliteFile: file, sqliteCacheMb });
    try {
      const { rows } = await sql<Record<string, unknown>>`${sql.raw(`pragma ${name}`)}`.execute(store.db);
      return Object.values(rows[0]!)[0];
    } finally {
      await store.close();
    }
  };

  it('WAL, FULL sync and foreign keys, on a new file and on a reopened one', async () => {
    const file = path.join(dir, 'wallet.sqlite');
    for (const round of ['new', 'reopened']) {
      expect([round, await pragma(file, 'journal_mode')]).toEqual([round, 'wal']);
      expect([round, await pragma(file, 'synchronous')]).toEqual([round, 2]);
      expect([round, await pragma(file, 'foreign_keys')]).toEqual([round, 1]);
    }
  });

  it('a page cache of SQLITE_CACHE_MB, 64 MiB unless told (SQLite\'s own is 2 MiB)', async () => {
    const file = path.join(dir, 'wallet.sqlite');
    expect(await pragma(file, 'cache_size')).toBe(-64 * 1024);
    expect(await pragma(file, 'cache_size', 8)).toBe(-8 * 1024);
  });

});

describe.runIf(process.env.TEST_DATABASE_URL)('PostgreSQL pool size', () => {
  it('never opens more connections than DATABASE_POOL_MAX, however many statements wait', async () => {
    const store = openStore({ databaseUrl: process.env.TEST_DATABASE_URL!, sqliteFile: '', postgres: { poolMax: 2 } });
    try {
      const backends = await Promise.all(
        Array.from({ length: 8 }, async () => {
          const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid, pg_sleep(0.05)`.execute(store.db);
          return rows[0]!.pid;
        }),
      );
      expect(new Set(backends).size).toBe(2);
    } finally {
      await store.close();
    }
  });

  it("the owner's safety actions wait at least as long for a lock as the settings let an agent's request wait", async () => {
    const bounds = async (postgres: { lockTimeoutMs?: number; statementTimeoutMs?: number }) => {
      const store = openStore({ databaseUrl: process.env.TEST_DATABASE_URL!, sqliteFile: '', postgres });
      try {
        return await store.transaction(async (tx) => {
          await waitLongerForLocks(store, tx);
          const lock = (await sql<{ v: string }>`select current_setting('lock_timeout') as v`.execute(tx)).rows[0]!.v;
          const statement = (await sql<{ v: string }>`select current_setting('statement_timeout') as v`.execute(tx)).rows[0]!.v;
          return [lock, statement];
        });
      } finally {
        await store.close();
      }
    };
    expect(await bounds({})).toEqual(['15s', '15s']);
    expect(await bounds({ lockTimeoutMs: 30_000, statementTimeoutMs: 40_000 })).toEqual(['30s', '30s']);
    expect(await bounds({ lockTimeoutMs: 2_000, statementTimeoutMs: 40_000 })).toEqual(['15s', '15s']);
  });

  it('migrations run with bounds of their own: a long migration is not cut by the requests\' statement timeout, and the bounds do not outlive it', async () => {
    const testStore = await createTestStore();
    const store = openStore({ databaseUrl: testStore.config.databaseUrl, sqliteFile: '', postgres: { poolMax: 1, statementTimeoutMs: 200, lockTimeoutMs: 200 } });
    try {
      // A backfill over a large table, say; it runs with the migrations' bounds (the client's wait for an answer is
      // set from the same figure, past the requests' 20 s).
      let during = '';
      await migrateToLatest(store, {
        '0001_slow': {
          up: async (db) => {
            await sql`select pg_sleep(0.5)`.execute(db);
            during = (await sql<{ v: string }>`select current_setting('statement_timeout') as v`.execute(db)).rows[0]!.v;
          },
        },
      });
      expect(during).toBe('30min');
      const after = (await sql<{ v: string }>`select current_setting('statement_timeout') as v`.execute(store.db)).rows[0]!.v;
      expect(after).toBe('200ms');
      // A migration that fails takes the ones run with it back: the next start runs them again, whole.
      await expect(
        migrateToLatest(store, {
          '0001_slow': { up: async () => undefined },
          '0002_table': { up: async (db) => void (await db.schema.createTable('kept_or_not').addColumn('id', 'integer').execute()) },
          '0003_fails': { up: async (db) => void (await sql`select 1 / 0`.execute(db)) },
        }),
      ).rejects.toThrow(/migration 0003_fails failed/);
      const kept = (await sql<{ n: number }>`select count(*)::int as n from information_schema.tables where table_name = 'kept_or_not'`.execute(store.db)).rows[0]!.n;
      expect(kept).toBe(0);
    } finally {
      await store.close();
      await testStore.drop();
    }
  });

  it('survives losing an idle connection: the loss is reported, and the next statement gets a new connection', async () => {
    const lost: unknown[] = [];
    const store = openStore({ databaseUrl: process.env.TEST_DATABASE_URL!, sqliteFile: '', postgres: { poolMax: 1 }, onPostgresEvent: (_m, e) => lost.push(e) });
    const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL! });
    await admin.connect();
    try {
      const pidOf = async () => (await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(store.db)).rows[0]!.pid;
      const first = await pidOf();
      await admin.query('select pg_terminate_backend($1)', [first]);
      await vi.waitFor(() => expect(lost).toHaveLength(1));
      expect(await pidOf()).not.toBe(first);
    } finally {
      await admin.end();
      await store.close();
    }
  });
});

/** The group commit through the store as the service opens it. */
describe('SQLite group commit, opened as the service does', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'store-open-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('a unit rolled back inside a shared batch undoes only its own writes, also when the units before it wrote many pages', async () => {
    const store = openStore({ databaseUrl: '', sqliteFile: path.join(dir, 'wallet.sqlite') });
    try {
      await sql`create table t (id integer primary key, pad text not null)`.execute(store.db);
      // Enough pages per unit that a SAVEPOINT's statement journal spilled to a file (past 64 KiB); since the
      // group commit replays the earlier units instead, it is a replay of hundreds of pages.
      const pad = 'x'.repeat(3000);
      const results = await Promise.allSettled(
        Array.from({ length: 12 }, (_, u) =>
          store.transaction(async (tx) => {
            for (let i = 0; i < 40; i++) await sql`insert into t (id, pad) values (${u * 1000 + i}, ${pad})`.execute(tx);
            await sql`update t set pad = ${pad + u} where id < ${u * 1000}`.execute(tx);
            if (u % 3 === 1) throw new Error(`unit ${u} gives up`);
          }),
        ),
      );
      expect(results.filter((r) => r.status === 'rejected')).toHaveLength(4);
      const { rows } = await sql<{ unit: number; n: number }>`select id / 1000 as unit, count(*) as n from t group by unit order by unit`.execute(store.db);
      expect(rows).toEqual([0, 2, 3, 5, 6, 8, 9, 11].map((unit) => ({ unit, n: 40 })));
    } finally {
      await store.close();
    }
  });
});
