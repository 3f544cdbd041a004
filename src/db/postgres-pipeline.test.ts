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

  it('a read that fails answers its own caller with its error; the others get their rows', async () => {
    await warm();
    const text = 'select id, 10 / n as q from shared_items where id = $1';
    const results = await Promise.allSettled(['a', 'd', 'b'].map((id) => lone(text, [id])));
    expect(results[0]).toMatchObject({ status: 'fulfilled', value: { rows: [{ id: 'a', q: 10 }] } });
    expect(results[1]).toMatchObject({ status: 'rejected', reason: { code: '22012' } });
    expect(results[2]).toMatchObject({ status: 'fulfilled', value: { rows: [{ id: 'b', q: 5 }] } });
    // Every connection is usable afterwards.
    const again = await Promise.all(['a', 'b', 'c', 'd'].map((id) => lone('select n from shared_items where id = $1', [id])));
    expect(again.map((r) => r.rows[0].n)).toEqual([1, 2, 3, 0]);
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
