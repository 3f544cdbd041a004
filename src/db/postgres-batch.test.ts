import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestStore, type TestStore } from '../../test/helpers.js';
import { deferMark, READS_MARK, wrapPool } from './postgres-client.js';

/**
 * The wrapped pool (issue 13) on a real PostgreSQL: held BEGIN and held writes travel with the next statement as
 * one batch, and what a caller sees (rows, counts, errors, the connection's state afterwards) is what it would
 * see with one statement per round trip. Kysely drives a client with exactly these calls.
 */
describe.runIf(process.env.TEST_DATABASE_URL)('PostgreSQL batches', () => {
  let store: TestStore;
  let pool: pg.Pool;
  /** Every write to the server: a lone statement or a batch. */
  const sent = vi.spyOn(pg.Client.prototype, 'query');
  const held = (table: string, sql: string) => deferMark(table, []).mark + sql;

  beforeAll(async () => {
    store = await createTestStore();
    // One connection, so every test sees what the previous one left on it.
    // int8 as numbers, as the store sets it: a batch must parse with its client's parsers, not pg's defaults.
    const types = { getTypeParser: (oid: number, format?: 'text' | 'binary') => (oid === 20 ? Number : pg.types.getTypeParser(oid, format)) };
    pool = wrapPool(new pg.Pool({ connectionString: store.config.databaseUrl, max: 1, types }));
    await pool.query('create table items (id text primary key, n int8 not null); create table notes (id text primary key)');
  });
  afterAll(async () => {
    await pool.end();
    await store.drop();
    sent.mockRestore();
  });
  afterEach(async () => {
    await pool.query('delete from items; delete from notes');
  });

  const withClient = async <T>(fn: (c: pg.PoolClient) => Promise<T>): Promise<T> => {
    const c = await pool.connect();
    try {
      return await fn(c);
    } finally {
      c.release();
    }
  };
  const sentDuring = (fn: (c: pg.PoolClient) => Promise<void>): Promise<number> =>
    withClient(async (c) => {
      sent.mockClear();
      await fn(c);
      return sent.mock.calls.length;
    });
  /** A value node-postgres cannot encode (JSON of a cycle). */
  const circular = () => {
    const o: Record<string, unknown> = {};
    o.self = o;
    return o;
  };

  it('send BEGIN with the first statement and held writes with COMMIT: two round trips, the same answers', async () => {
    const trips = await sentDuring(async (c) => {
      expect((await c.query('begin')).command).toBe('BEGIN');
      const read = await c.query('select count(*)::int8 as n from items where id like $1', ['%']);
      expect(read.rows).toEqual([{ n: 0 }]);
      await c.query(held('items', 'insert into items (id, n) values ($1, $2)'), ['a', 1]);
      await c.query(held('notes', 'insert into notes (id) values ($1)'), ['a']);
      // Same table as a held write: runs after it, as its own statement in the same batch.
      await c.query(held('items', 'update items set n = n + $1 where id = $2'), [41, 'a']);
      expect((await c.query('commit')).command).toBe('COMMIT');
    });
    expect(trips).toBe(2);
    expect((await pool.query('select id, n from items')).rows).toEqual([{ id: 'a', n: 42 }]);
    expect((await pool.query('select count(*)::int as n from notes')).rows).toEqual([{ n: 1 }]);
  });

  it('send a transaction\'s `set local` with its BEGIN, and drop it with a transaction that sent nothing', async () => {
    const trips = await sentDuring(async (c) => {
      await c.query('begin');
      expect((await c.query('set local lock_timeout = 1234')).command).toBe('SET');
      expect((await c.query('select current_setting($1) as v', ['lock_timeout'])).rows).toEqual([{ v: '1234ms' }]);
      await c.query('commit');
    });
    expect(trips).toBe(2);
    expect(await sentDuring(async (c) => void (await c.query('begin'), await c.query('set local lock_timeout = 5'), await c.query('commit')))).toBe(0);
    // Only for the transaction: the connection's next one has the session's value again.
    expect((await pool.query('select current_setting($1) as v', ['lock_timeout'])).rows).toEqual([{ v: '0' }]);
  });

  it('describe a prepared statement once per connection: later runs skip the Describe and answer the same', async () => {
    await pool.query('insert into items (id, n) values ($1, $2)', ['d', 5]);
    const read = 'select id, n from items where id = $1';
    const write = 'update items set n = n + $1 where id = $2 and n >= 0';
    // Texts of this test only: the connection is shared, and a statement prepared before would be known already.
    const note = 'insert into notes (id) select $1::text';
    await withClient(async (c) => {
      const describe = vi.spyOn((c as unknown as { connection: { describe(): void } }).connection, 'describe');
      try {
        // Alone, and then inside a transaction's batch: the columns learnt once serve both.
        for (let i = 0; i < 2; i++) {
          const r = await c.query(read, ['d']);
          expect([r.rows, r.fields.map((f) => f.name)]).toEqual([[{ id: 'd', n: 5 + i }], ['id', 'n']]);
          expect((await c.query(write, [1, 'd'])).rowCount).toBe(1);
        }
        await c.query('begin');
        await c.query(held('notes', note), ['d']);
        expect((await c.query(read, ['d'])).rows).toEqual([{ id: 'd', n: 7 }]);
        await c.query('commit');
        // The read and the update the first time, the held insert (no rows: NoData) once, and the batch's BEGIN,
        // which is no prepared statement and is described each time it is sent.
        expect(describe).toHaveBeenCalledTimes(4);
        await c.query('begin');
        await c.query(held('notes', note), ['e']);
        expect((await c.query(write, [0, 'd'])).rowCount).toBe(1);
        await c.query('commit');
        expect(describe).toHaveBeenCalledTimes(5);
      } finally {
        describe.mockRestore();
      }
    });
  });

  it('answer a transaction that sent nothing without a round trip, and drop held writes on ROLLBACK', async () => {
    expect(await sentDuring(async (c) => void (await c.query('begin'), await c.query('rollback')))).toBe(0);
    expect(await sentDuring(async (c) => void (await c.query('begin'), await c.query('commit')))).toBe(0);
    const trips = await sentDuring(async (c) => {
      await c.query('begin');
      await c.query('select 1 as one where $1::int = 1', [1]);
      await c.query(held('items', 'insert into items (id, n) values ($1, $2)'), ['gone', 1]);
      await c.query('rollback');
    });
    expect(trips).toBe(2);
    expect((await pool.query('select count(*)::int as n from items')).rows).toEqual([{ n: 0 }]);
  });

  it('fail the statement that fails and every one after it with the server’s error, and leave the connection usable', async () => {
    await pool.query('insert into items (id, n) values ($1, $2)', ['taken', 1]);
    const insert = 'insert into items (n, id) values ($2, $1)';
    await withClient(async (c) => {
      await c.query('begin');
      await c.query('insert into notes (id) values ($1)', ['n1']);
      // A text this connection has not prepared yet: the batch parses it, then its insert fails.
      await c.query(held('items', insert), ['taken', 2]);
      const err = await c.query('select n from items where id = $1', ['taken']).catch((e: unknown) => e);
      expect((err as { code?: string }).code).toBe('23505');
      await c.query('rollback');
      expect((await c.query('select count(*)::int as n from notes')).rows).toEqual([{ n: 0 }]);
      // The failing write's statement was prepared by the batch; run alone and in a batch it must still work.
      await c.query(insert, ['fresh', 3]);
      await c.query('begin');
      await c.query(held('items', insert), ['fresh2', 4]);
      await c.query('commit');
    });
    expect((await pool.query('select id from items order by id')).rows.map((r) => r.id)).toEqual(['fresh', 'fresh2', 'taken']);
  });

  it('reuse a statement whose Parse failed in a batch once what it reads exists', async () => {
    const text = 'select id from later where id = $1';
    await withClient(async (c) => {
      await c.query('begin');
      await expect(c.query(text, ['x'])).rejects.toThrow(/later/);
      await c.query('rollback');
      await c.query('create table later (id text)');
      expect((await c.query(text, ['x'])).rows).toEqual([]);
      await c.query('begin');
      expect((await c.query(text, ['x'])).rows).toEqual([]);
      await c.query('commit');
      await c.query('drop table later');
    });
  });

  it('refuse a value it cannot encode before writing anything, and send a script of several commands on its own', async () => {
    await withClient(async (c) => {
      await c.query('begin');
      await expect(c.query('select $1::jsonb as v', [circular()])).rejects.toThrow(/circular/i);
      await c.query('rollback');
      await c.query('begin');
      await c.query(held('notes', 'insert into notes (id) values ($1)'), ['s']);
      await c.query("insert into items (id, n) values ('s1', 1); insert into items (id, n) values ('s2', 2)");
      await c.query('commit');
    });
    expect((await pool.query('select count(*)::int as n from items')).rows).toEqual([{ n: 2 }]);
    expect((await pool.query('select count(*)::int as n from notes')).rows).toEqual([{ n: 1 }]);
  });

  it('keep a statement in doubt until the server answers past it, even when an earlier statement fails first', async () => {
    const insert = 'insert into items (id, n) values ($2, $1)';
    await pool.query('insert into items (id, n) values ($1, $2)', ['dup', 1]);
    await withClient(async (c) => {
      // First use parses it in a batch and fails: in doubt.
      await c.query('begin');
      await c.query(held('items', insert), [1, 'dup']);
      await expect(c.query('select 1 as one where $1::int = 1', [1])).rejects.toMatchObject({ code: '23505' });
      await c.query('rollback');
      // Next batch: a write before it fails, so its Close and Parse are skipped; it is still in doubt.
      await c.query('begin');
      await c.query(held('items', 'insert into items (id, n) values ($1, $2)'), ['dup', 2]);
      await c.query(held('notes', 'insert into notes (id) values ($1)'), ['x']);
      await c.query(held('items', insert), [3, 'later']);
      await expect(c.query('select 1 as one where $1::int = 1', [1])).rejects.toMatchObject({ code: '23505' });
      await c.query('rollback');
      await c.query(insert, [4, 'works']);
      await c.query(insert, [5, 'again']);
    });
    expect((await pool.query('select id from items order by id')).rows.map((r) => r.id)).toEqual(['again', 'dup', 'works']);
  });

  it('keep BEGIN and held writes for the next statement when a batch is refused before it is sent', async () => {
    await withClient(async (c) => {
      await c.query('begin');
      await c.query(held('notes', 'insert into notes (id) values ($1)'), ['kept-held']);
      await expect(c.query('select $1::jsonb as v', [circular()])).rejects.toThrow(/circular/i);
      // A caller that goes on is still inside its transaction: its rollback takes back everything.
      await c.query('insert into items (id, n) values ($1, $2)', ['in-tx', 1]);
      expect((await c.query('select count(*)::int as n from notes')).rows).toEqual([{ n: 1 }]);
      await c.query('rollback');
    });
    expect((await pool.query('select count(*)::int as n from items')).rows).toEqual([{ n: 0 }]);
    expect((await pool.query('select count(*)::int as n from notes')).rows).toEqual([{ n: 0 }]);
  });

  it('keep a prepared statement usable after a value it cannot encode, run alone', async () => {
    const text = 'select $1::jsonb as v';
    await withClient(async (c) => {
      expect((await c.query(text, [{ a: 1 }])).rows).toEqual([{ v: { a: 1 } }]);
      await expect(c.query(text, [circular()])).rejects.toThrow(/circular/i);
      expect((await c.query(text, [{ a: 2 }])).rows).toEqual([{ v: { a: 2 } }]);
      await c.query('begin');
      expect((await c.query(text, [{ a: 3 }])).rows).toEqual([{ v: { a: 3 } }]);
      await c.query('commit');
    });
  });

  it('keep a write held while a refused batch was on its way, with the ones it carried', async () => {
    await withClient(async (c) => {
      await c.query('begin');
      await c.query(held('notes', 'insert into notes (id) values ($1)'), ['before']);
      // Not awaited: a write is held while the refusal is still on its way (Kysely never does this; a caller may).
      const refused = c.query('select $1::jsonb as v', [circular()]);
      await c.query(held('items', 'insert into items (id, n) values ($1, $2)'), ['during', 1]);
      await expect(refused).rejects.toThrow(/circular/i);
      await c.query('commit');
    });
    expect((await pool.query('select count(*)::int as n from notes')).rows).toEqual([{ n: 1 }]);
    expect((await pool.query('select count(*)::int as n from items')).rows).toEqual([{ n: 1 }]);
  });

  it('send what is held before a query object, inside the transaction', async () => {
    await withClient(async (c) => {
      await c.query('begin');
      await c.query(held('items', 'insert into items (id, n) values ($1, $2)'), ['seen', 1]);
      const q = c.query(new pg.Query('select count(*)::int as n from items')) as unknown as pg.Query;
      const rows = await new Promise<unknown[]>((resolve, reject) => {
        q.on('end', (r: { rows: unknown[] }) => resolve(r.rows));
        q.on('error', reject);
      });
      expect(rows).toEqual([{ n: 1 }]);
      await c.query('rollback');
    });
    expect((await pool.query('select count(*)::int as n from items')).rows).toEqual([{ n: 0 }]);
  });

  it('keep what a query object could not carry, so the COMMIT fails rather than go through without it', async () => {
    await withClient(async (c) => {
      await c.query('begin');
      await c.query(held('items', 'insert into items (id, n) values ($1, $2)'), ['lost', 1]);
      await c.query(held('notes', 'insert into notes (id) values ($1::jsonb::text)'), [circular()]);
      const q = c.query(new pg.Query('select 1 as one')) as unknown as pg.Query;
      await new Promise<void>((resolve, reject) => {
        q.on('end', () => resolve());
        q.on('error', reject);
      });
      await expect(c.query('commit')).rejects.toThrow(/circular/i);
      await c.query('rollback');
    });
    expect((await pool.query('select count(*)::int as n from items')).rows).toEqual([{ n: 0 }]);
  });

  it('tell each held write what it changed, combined or alone, once the statement carrying them answered', async () => {
    const told: string[] = [];
    const tell = (what: string) => (n: number) => told.push(`${what}:${n}`);
    const warned = new Promise<string>((resolve) => process.once('warning', (w) => resolve(w.message)));
    await pool.query('insert into items (id, n) values ($1, $2)', ['t', 1]);
    await withClient(async (c) => {
      await c.query('begin');
      await c.query(deferMark('notes', [], tell('note')).mark + 'insert into notes (id) values ($1)', ['t']);
      await c.query(deferMark('items', [], tell('update')).mark + 'update items set n = n + 1 where id like $1', ['%']);
      await c.query(deferMark('items', [], tell('none')).mark + 'update items set n = 0 where id = $1', ['nobody']);
      const throws = () => {
        throw new Error('a callback that throws');
      };
      await c.query(deferMark('notes', [], throws).mark + 'insert into notes (id) values ($1)', ['t2']);
      expect(told).toEqual([]);
      // The COMMIT happened: a throwing callback becomes a warning, not a failed COMMIT.
      await c.query('commit');
    });
    expect(told).toEqual(['note:1', 'update:1', 'none:0']);
    expect(await warned).toMatch(/a callback that throws/);
    expect((await pool.query('select count(*)::int as n from notes')).rows).toEqual([{ n: 2 }]);
  });

  it('fail, not crash, when a row cannot be parsed, and answer the next statement', async () => {
    const bad = wrapPool(
      new pg.Pool({
        connectionString: store.config.databaseUrl,
        max: 1,
        types: {
          getTypeParser: (oid: number, format?: 'text' | 'binary') =>
            oid === 1700 ? () => { throw new Error('no numerics here'); } : pg.types.getTypeParser(oid, format),
        },
      }),
    );
    try {
      const c = await bad.connect();
      try {
        await c.query('begin');
        await expect(c.query('select $1::numeric as v', ['1.5'])).rejects.toThrow('no numerics here');
        await c.query('rollback');
        expect((await c.query('select $1::int as v', [7])).rows).toEqual([{ v: 7 }]);
      } finally {
        c.release();
      }
    } finally {
      await bad.end();
    }
  });

  it('keep its prepared statements straight when node-postgres times it out while the server goes on', async () => {
    const timed = wrapPool(new pg.Pool({ connectionString: store.config.databaseUrl, max: 1, query_timeout: 200 }));
    const insert = 'insert into items (n, id) values ($2, $1)';
    try {
      await timed.query('insert into items (id, n) values ($1, $2)', ['qt', 1]);
      const c = await timed.connect();
      try {
        await c.query('begin');
        await c.query(held('notes', 'insert into notes (id) select $1::text from pg_sleep(0.5)'), ['slow']);
        // Rejected at 200 ms; the server parses the insert at 500 ms and fails it on the duplicate.
        await expect(c.query(insert, ['qt', 2])).rejects.toThrow(/timeout/i);
        // Every statement's timer starts when it is queued: let the server finish before the next one.
        await new Promise((r) => setTimeout(r, 600));
        await c.query('rollback');
        await c.query(insert, ['qt2', 3]);
      } finally {
        c.release();
      }
      expect((await timed.query('select id from items order by id')).rows.map((r) => r.id)).toEqual(['qt', 'qt2']);
    } finally {
      await timed.end();
    }
  });

  const transactionStatus = (c: pg.PoolClient) => (c as unknown as { getTransactionStatus(): string }).getTransactionStatus();
  /** Releases `c` as it stands; the next checkout must be outside any transaction, and nothing `c` wrote kept. */
  const expectNextUserClean = async (c: pg.PoolClient) => {
    c.release();
    const next = await pool.connect();
    try {
      await next.query('select 1 as one where $1::int = 1', [1]);
      expect(transactionStatus(next)).toBe('I');
    } finally {
      next.release();
    }
    expect((await pool.query('select count(*)::int as n from items')).rows).toEqual([{ n: 0 }]);
  };

  it('never hand a client with a held BEGIN or write to the next user', async () => {
    const c = await pool.connect();
    await c.query('begin');
    await c.query(held('items', 'insert into items (id, n) values ($1, $2)'), ['leak', 1]);
    await expectNextUserClean(c);
  });

  it('never hand a client still inside a transaction it already sent to the next user', async () => {
    const c = await pool.connect();
    await c.query('begin');
    await c.query('insert into items (id, n) values ($1, $2)', ['open', 1]);
    expect(transactionStatus(c)).toBe('T');
    await expectNextUserClean(c);
  });

  const together = (c: pg.PoolClient, ...reads: Array<[string, unknown[]]>) =>
    c.query(READS_MARK, reads.map(([text, values]) => ({ text, values }))) as unknown as Promise<{ rows: unknown[][] }>;

  it('send reads together after the held BEGIN and writes, in one round trip, each answered with its own rows', async () => {
    const trips = await sentDuring(async (c) => {
      await c.query('begin');
      await c.query(held('items', 'insert into items (id, n) values ($1, $2)'), ['r', 7]);
      const { rows } = await together(
        c,
        ['select n from items where id = $1', ['r']],
        ['select count(*)::int as n from notes where id like $1', ['%']],
        ['select id from items where n > $1', [100]],
      );
      expect(rows).toEqual([[{ n: 7 }], [{ n: 0 }], []]);
      await c.query('commit');
    });
    expect(trips).toBe(2);
    expect((await pool.query('select n from items')).rows).toEqual([{ n: 7 }]);
    // Outside a transaction each read commits on its own: one round trip each.
    expect(await sentDuring(async (c) => void expect((await together(c, ['select $1::int as a', [1]], ['select $1::int as b', [2]])).rows).toEqual([[{ a: 1 }], [{ b: 2 }]]))).toBe(2);
  });

  it('run reads sent together in order: a row lock first holds for the reads after it', async () => {
    await pool.query('insert into items (id, n) values ($1, $2)', ['locked', 1]);
    const other = new pg.Client({ connectionString: store.config.databaseUrl });
    await other.connect();
    try {
      await other.query('begin');
      await other.query('update items set n = 2 where id = $1', ['locked']);
      const read = withClient(async (c) => {
        await c.query('begin');
        const { rows } = await together(c, ['select id from items where id = $1 for update', ['locked']], ['select n from items where id = $1', ['locked']]);
        await c.query('commit');
        return rows;
      });
      await new Promise((r) => setTimeout(r, 100));
      await other.query('commit');
      // Read after the lock was granted, so after the other transaction committed: its value, not the old one.
      expect(await read).toEqual([[{ id: 'locked' }], [{ n: 2 }]]);
    } finally {
      await other.end();
    }
  });

  it('send reads one by one again once COMMIT or ROLLBACK ended the transaction, on the same checkout', async () => {
    await withClient(async (c) => {
      for (const end of ['commit', 'rollback']) {
        await c.query('begin');
        await c.query('select $1::int as a', [1]);
        await c.query(end);
        sent.mockClear();
        expect((await together(c, ['select $1::int as a', [1]], ['select 1 / $1::int as b', [0]]).catch((e: { code?: string }) => e.code))).toBe('22012');
        // One by one: the first read went alone and succeeded, the second failed on its own.
        expect(sent.mock.calls.length).toBe(2);
      }
    });
  });

  it('fail every read from the first failing one on, and keep a held BEGIN and writes when the reads were refused unsent', async () => {
    await withClient(async (c) => {
      await c.query('begin');
      await expect(together(c, ['select $1::int as a', [1]], ['select 1 / $1::int as b', [0]])).rejects.toMatchObject({ code: '22012' });
      await c.query('rollback');
      await c.query('begin');
      await c.query(held('notes', 'insert into notes (id) values ($1)'), ['kept']);
      await expect(together(c, ['select $1::jsonb as v', [circular()]])).rejects.toThrow(/circular/i);
      // Still inside the transaction, with the held write: a caller that goes on sees it, and its rollback undoes it.
      expect((await c.query('select count(*)::int as n from notes')).rows).toEqual([{ n: 1 }]);
      await c.query('rollback');
      await expect(together(c, ['select 1 as a; select 2 as b', []])).rejects.toThrow(/one statement/);
    });
    expect((await pool.query('select count(*)::int as n from notes')).rows).toEqual([{ n: 0 }]);
  });
});
