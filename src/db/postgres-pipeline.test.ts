import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestStore, type TestStore } from '../../test/helpers.js';
import { wrapPool } from './postgres-client.js';
import { isSharedRead } from './postgres-pipeline.js';

describe('which statements may share a round trip', () => {
  it('plain reads only', () => {
    expect(isSharedRead('select "id" from "payouts" where "id" = $1')).toBe(true);
    expect(isSharedRead('SELECT 1')).toBe(true);
    expect(isSharedRead('select "cvu" from "wallets" where "user_id" = $1 for update')).toBe(false);
    expect(isSharedRead('select * from t where id = $1 for no key update')).toBe(false);
    expect(isSharedRead('select * from t where id = $1 FOR SHARE')).toBe(false);
    expect(isSharedRead('update "payouts" set "status" = $1')).toBe(false);
    expect(isSharedRead('insert into t select $1')).toBe(false);
    expect(isSharedRead('with w as (update t set n = 1 returning 1) select count(*) from w')).toBe(false);
    expect(isSharedRead('select 1; delete from t')).toBe(false);
    expect(isSharedRead('select * from "rail_accounts" where ("cvu" in ($1, $2) or "alias" = $3)')).toBe(true);
  });

  it('not a read that calls a function, has a subquery, or may touch many rows', () => {
    for (const text of [
      'select nextval($1)',
      'select pg_advisory_lock($1)',
      'select set_config($1, $2, false)',
      'select "id" from t where "name" = lower($1)',
      'select coalesce(sum("amount"), 0) as "total" from "rail_legs" where "account_id" = $1',
      'select count(*) from t where a = $1',
      'select * from t where exists (select 1 from u where u.id = $1)',
      'select * from t where id in (select id from u where x = $1)',
      'select * from t where user_id = $1 order by created_at desc',
      'select * from t where user_id = $1 limit $2',
      'select * from t inner join u on u.id = t.u where t.id = $1',
    ]) {
      expect(isSharedRead(text), text).toBe(false);
    }
  });
});

/**
 * Lone reads of concurrent callers share one round trip on a real PostgreSQL (issue 13), and each caller still
 * gets exactly its own answer or its own error.
 */
describe.runIf(process.env.TEST_DATABASE_URL)('PostgreSQL shared reads', () => {
  let store: TestStore;
  let pool: pg.Pool;
  /** Every write to the server: a lone statement or a batch. */
  const sent = vi.spyOn(pg.Client.prototype, 'query');

  beforeAll(async () => {
    store = await createTestStore();
    pool = wrapPool(new pg.Pool({ connectionString: store.config.databaseUrl, max: 4 }));
    // A connection ended on purpose below is reported here once idle, as the store reports it.
    pool.on('error', () => undefined);
    await pool.query('create table shared_items (id text primary key, n int not null)');
    await pool.query("insert into shared_items (id, n) values ('a', 1), ('b', 2), ('c', 3), ('d', 0)");
  });
  afterAll(async () => {
    await pool.end();
    await store.drop();
    sent.mockRestore();
  });

  /** Each caller on its own pooled connection, as Kysely runs a lone statement. */
  const lone = async (text: string, values: unknown[]) => {
    const c = await pool.connect();
    try {
      return await c.query(text, values);
    } finally {
      c.release();
    }
  };
  /** Opens all four connections first, so that what is counted is the reads alone. */
  const warm = async () => {
    const clients = await Promise.all([0, 1, 2, 3].map(() => pool.connect()));
    clients.forEach((c) => c.release());
  };

  it('reads asked for at once go out in one round trip, and each caller gets its own rows', async () => {
    await warm();
    sent.mockClear();
    const rows = await Promise.all(['a', 'b', 'c', 'd'].map((id) => lone('select id, n from shared_items where id = $1', [id])));
    expect(rows.map((r) => r.rows)).toEqual([[{ id: 'a', n: 1 }], [{ id: 'b', n: 2 }], [{ id: 'c', n: 3 }], [{ id: 'd', n: 0 }]]);
    expect(sent.mock.calls.length).toBe(1);
  });

  it('more reads than one batch holds go out as several batches, each on its own connection', async () => {
    const wide = wrapPool(new pg.Pool({ connectionString: store.config.databaseUrl, max: 20 }));
    try {
      const clients = await Promise.all(Array.from({ length: 20 }, () => wide.connect()));
      clients.forEach((c) => c.release());
      sent.mockClear();
      const ids = Array.from({ length: 20 }, (_, i) => ['a', 'b', 'c', 'd'][i % 4]!);
      const rows = await Promise.all(
        ids.map(async (id) => {
          const c = await wide.connect();
          try {
            return (await c.query('select n from shared_items where id = $1', [id])).rows[0].n as number;
          } finally {
            c.release();
          }
        }),
      );
      expect(rows).toEqual(ids.map((id) => ({ a: 1, b: 2, c: 3, d: 0 })[id]));
      // 16 in the first batch, the other 4 in a second, side by side.
      expect(sent.mock.calls.length).toBe(2);
    } finally {
      await wide.end();
    }
  });

  it('a read that fails answers its own caller with its error; the others get their rows, and none runs twice', async () => {
    await warm();
    const text = 'select id, 10 / n as q from shared_items where id = $1';
    sent.mockClear();
    const results = await Promise.allSettled(['a', 'd', 'b'].map((id) => lone(text, [id])));
    // The batch, then only the read the server skipped after the error, alone.
    expect(sent.mock.calls.length).toBe(2);
    expect(results[0]).toMatchObject({ status: 'fulfilled', value: { rows: [{ id: 'a', q: 10 }] } });
    expect(results[1]).toMatchObject({ status: 'rejected', reason: { code: '22012' } });
    expect(results[2]).toMatchObject({ status: 'fulfilled', value: { rows: [{ id: 'b', q: 5 }] } });
    // Every connection is usable afterwards.
    const again = await Promise.all(['a', 'b', 'c', 'd'].map((id) => lone('select n from shared_items where id = $1', [id])));
    expect(again.map((r) => r.rows[0].n)).toEqual([1, 2, 3, 0]);
  });

  it('a connection lost in the middle of a batch fails only the read it was running; the skipped ones go again', async () => {
    // A read slow enough (a scan of an unindexed table) to end its backend while it runs.
    await pool.query('create table shared_big as select g as n from generate_series(1, 3000000) g');
    const admin = new pg.Client({ connectionString: store.config.databaseUrl });
    await admin.connect();
    try {
      await warm();
      const slow = 'select n from shared_big where n = $1';
      sent.mockClear();
      const pending = Promise.allSettled([
        lone('select n from shared_items where id = $1', ['a']),
        lone(slow, [-1]),
        lone('select n from shared_items where id = $1', ['b']),
      ]);
      let pid: number | undefined;
      while (pid === undefined) {
        const { rows } = await admin.query("select pid from pg_stat_activity where query = $1 and state = 'active'", [slow]);
        pid = rows[0]?.pid;
      }
      await admin.query('select pg_terminate_backend($1)', [pid]);
      const [first, lost, skipped] = await pending;
      expect(first).toMatchObject({ status: 'fulfilled', value: { rows: [{ n: 1 }] } });
      expect(lost).toMatchObject({ status: 'rejected' });
      expect(skipped).toMatchObject({ status: 'fulfilled', value: { rows: [{ n: 2 }] } });
      // The batch, then the skipped read alone (the admin connection's statements aside); the first read did not
      // run again.
      expect(sent.mock.contexts.filter((c) => c !== admin)).toHaveLength(2);
    } finally {
      await admin.end();
      await pool.query('drop table shared_big');
    }
  });

  it('reads inside a transaction and locking reads keep their own connection and order', async () => {
    await warm();
    const c = await pool.connect();
    try {
      await c.query('begin');
      await c.query('update shared_items set n = n + 100 where id = $1', ['a']);
      sent.mockClear();
      // Inside the transaction, the read sees the transaction's own write; a lone read elsewhere does not.
      const [inside, outside, locked] = await Promise.all([
        c.query('select n from shared_items where id = $1', ['a']),
        lone('select n from shared_items where id = $1', ['a']),
        lone('select n from shared_items where id = $1 for update skip locked', ['b']),
      ]);
      expect(inside.rows).toEqual([{ n: 101 }]);
      expect(outside.rows).toEqual([{ n: 1 }]);
      expect(locked.rows).toEqual([{ n: 2 }]);
      expect(sent.mock.calls.length).toBe(3);
      await c.query('rollback');
    } finally {
      c.release();
    }
  });
});
