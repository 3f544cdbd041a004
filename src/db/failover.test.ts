import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { bearer, createOnboardedUser, createTestStore, EXTERNAL_CBU, startTestApp, withdraw, type TestStore } from '../../test/helpers.js';
import { admin } from '../../test/failover-kit.js';
import { startPgProxy, type PgProxy } from '../../test/pg-proxy.js';
import { DEFAULT_POSTGRES_LIMITS, openStore } from './database.js';
import { commitOutcome, openPostgresPool } from './postgres.js';
import { migrateToLatest } from './migrate.js';
import { isStoreUnavailable, StoreUnavailable } from './store-errors.js';

const base = process.env.TEST_DATABASE_URL;

/** The test store reached at another URL: with a name on every connection (to find and kill just them), or a proxy. */
function via(store: TestStore, url: (u: URL) => string): TestStore {
  return { ...store, config: { ...store.config, databaseUrl: url(new URL(store.config.databaseUrl)) } };
}
const named = (name: string) => (u: URL) => {
  u.searchParams.set('application_name', name);
  return u.toString();
};


/** D42 on PostgreSQL: a lost connection or a bound reached fails only its own requests, and the process lives. */
describe.runIf(base)('PostgreSQL failures (D42)', () => {
  it('pg_terminate_backend on every service connection during a payout burst: every request answered 201 or 503, money adds up', { timeout: 90_000 }, async () => {
    const testStore = await createTestStore();
    const name = `burst-${randomBytes(4).toString('hex')}`;
    const t = await startTestApp({ store: via(testStore, named(name)), env: { DATABASE_POOL_MAX: '6' } });
    try {
      const users = await Promise.all(Array.from({ length: 4 }, () => createOnboardedUser(t.app, { fundArs: 10_000 })));
      const requests = users.flatMap((u) =>
        Array.from({ length: 15 }, (_, i) => ({ u, key: `burst-${u.id}-${i}`, res: withdraw(t.app, u.agentToken, { amount_ars: 10, destination: EXTERNAL_CBU }, `burst-${u.id}-${i}`) })),
      );
      // While they run, kill every connection of this service, twice.
      const kill = () => admin((c) => c.query('select pg_terminate_backend(pid) from pg_stat_activity where application_name = $1', [name]));
      await new Promise((r) => setTimeout(r, 20));
      await kill();
      await new Promise((r) => setTimeout(r, 30));
      await kill();
      const answers = await Promise.all(requests.map(async (r) => ({ ...r, res: await r.res })));

      const statuses = answers.map((a) => a.res.statusCode);
      expect(statuses.every((s) => s === 201 || s === 503)).toBe(true);
      for (const a of answers.filter((x) => x.res.statusCode === 503)) {
        expect(a.res.headers['retry-after']).toBe('1');
        expect(a.res.json().error).toBe('SERVICE_UNAVAILABLE');
      }
      // After recovery the follow-up job settles whatever a lost answer left behind.
      t.clock.advance(60_000);
      await t.app.jobs.railSettlement!.runOnce();
      await t.app.jobs.payoutFollowUp!.runOnce();
      const db = t.app.ctx.store.db;
      for (const u of users) {
        const mine = answers.filter((a) => a.u === u);
        const rows = await db.selectFrom('payouts').select(['idempotency_key', 'status', 'amount']).where('user_id', '=', u.id).execute();
        // A 503 kept nothing; a 201 always has its payout.
        const keys = new Set(rows.map((r) => r.idempotency_key));
        for (const a of mine) expect([a.key, a.res.statusCode, keys.has(a.key)]).toEqual([a.key, a.res.statusCode, a.res.statusCode === 201]);
        expect(rows.every((r) => r.status === 'submitted' || r.status === 'confirmed')).toBe(true);
        const paid = rows.reduce((n, r) => n + Number(r.amount), 0);
        const balance = (await t.app.inject({ method: 'GET', url: '/v1/balance', headers: bearer(u.ownerToken) })).json().available;
        expect(Math.round(Number(balance) * 100)).toBe(1_000_000 - paid);
      }
    } finally {
      await t.close();
      await testStore.drop();
    }
  });

  it('an outside session holding a user’s wallet row: that user gets 503 within the lock timeout, others are served', async () => {
    const t = await startTestApp({ env: { DATABASE_LOCK_TIMEOUT_MS: '300' } });
    const outside = new pg.Client({ connectionString: t.config.databaseUrl });
    await outside.connect();
    try {
      const [held, free] = [await createOnboardedUser(t.app, { fundArs: 100 }), await createOnboardedUser(t.app, { fundArs: 100 })];
      await outside.query('begin');
      await outside.query('select * from wallets where user_id = $1 for update', [held.id]);
      const started = Date.now();
      const [blocked, served] = await Promise.all([
        withdraw(t.app, held.agentToken, { amount_ars: 1, destination: EXTERNAL_CBU }, 'held-1'),
        withdraw(t.app, free.agentToken, { amount_ars: 1, destination: EXTERNAL_CBU }, 'free-1'),
      ]);
      expect(served.statusCode).toBe(201);
      expect(blocked.statusCode).toBe(503);
      expect(blocked.headers['retry-after']).toBe('1');
      expect(Date.now() - started).toBeLessThan(3_000);
      // An operator sees it: the 503 and the bound that was reached.
      const metrics = (await t.app.inject({ method: 'GET', url: '/metrics' })).body;
      expect(metrics).toMatch(/store_unavailable_total\{kind="lock_timeout"\} 1/);
      expect(metrics).toMatch(/http_requests_total\{route="\/v1\/withdraws",method="POST",status="503"\} 1/);
      await outside.query('rollback');
      // Nothing of it was kept: the same key is free and pays once now.
      const retry = await withdraw(t.app, held.agentToken, { amount_ars: 1, destination: EXTERNAL_CBU }, 'held-1');
      expect(retry.statusCode).toBe(201);
      expect(await t.app.ctx.store.db.selectFrom('payouts').select('id').where('user_id', '=', held.id).execute()).toHaveLength(1);
    } finally {
      await outside.end();
      await t.close();
    }
  });

  describe('a COMMIT whose answer is lost', () => {
    let proxy: PgProxy;
    let testStore: TestStore;
    beforeAll(async () => {
      const u = new URL(base!);
      proxy = await startPgProxy({ host: u.hostname, port: Number(u.port || 5432) });
      testStore = await createTestStore();
    });
    afterAll(async () => {
      await proxy.close();
      await testStore.drop();
    });

    const open = (events: string[]) =>
      openStore({ databaseUrl: proxy.url(testStore.config.databaseUrl), sqliteFile: '', onPostgresEvent: (msg) => void events.push(msg) });

    it('after it reached the server: the server is asked, and the transaction is answered as committed', async () => {
      const events: string[] = [];
      const store = open(events);
      try {
        await migrateToLatest(store);
        const cut = proxy.cutNextCommit('after');
        const result = await store.transaction(async (tx) => {
          await tx.insertInto('payout_pauses').values({ user_id: 'usr_commit_after', paused_at: '2026-01-01T00:00:00.000Z' }).execute();
          return 'mine';
        });
        await cut;
        expect(result).toBe('mine');
        expect(events.some((e) => /server says: committed/.test(e))).toBe(true);
        expect(await store.db.selectFrom('payout_pauses').select('user_id').where('user_id', '=', 'usr_commit_after').execute()).toHaveLength(1);
      } finally {
        await store.close();
      }
    });

    it('before it reached the server: the server says aborted, the caller gets StoreUnavailable, nothing is kept', async () => {
      const events: string[] = [];
      const store = open(events);
      try {
        await migrateToLatest(store);
        const cut = proxy.cutNextCommit('before');
        const tx = store.transaction(async (trx) => {
          await trx.insertInto('payout_pauses').values({ user_id: 'usr_commit_before', paused_at: '2026-01-01T00:00:00.000Z' }).execute();
        });
        await expect(tx).rejects.toBeInstanceOf(StoreUnavailable);
        await cut;
        expect(events.some((e) => /server says: aborted/.test(e))).toBe(true);
        expect(await store.db.selectFrom('payout_pauses').select('user_id').where('user_id', '=', 'usr_commit_before').execute()).toEqual([]);
      } finally {
        await store.close();
      }
    });

    it('a payout whose decision COMMIT answer is lost is still answered 201, once', async () => {
      const t = await startTestApp({ store: via(testStore, (u) => proxy.url(u.toString())) });
      try {
        const u = await createOnboardedUser(t.app, { fundArs: 100 });
        const cut = proxy.cutNextCommit('after');
        const res = await withdraw(t.app, u.agentToken, { amount_ars: 5, destination: EXTERNAL_CBU }, 'lost-commit');
        await cut;
        expect(res.statusCode).toBe(201);
        expect(await t.app.ctx.store.db.selectFrom('payouts').select('id').where('user_id', '=', u.id).execute()).toHaveLength(1);
      } finally {
        await t.close();
      }
    });
  });

  it('a connection to a server that became read-only (a demoted primary) is not used again: the write is 503, the next one goes through', async () => {
    const testStore = await createTestStore();
    const store = openStore({ databaseUrl: testStore.config.databaseUrl, sqliteFile: '', postgres: { poolMax: 1 } });
    try {
      await migrateToLatest(store);
      // What a primary demoted in a switchover answers to writes, on the one connection of the pool.
      await sql`set default_transaction_read_only = on`.execute(store.db);
      const write = (user: string) => store.db.insertInto('payout_pauses').values({ user_id: user, paused_at: '2026-01-01T00:00:00.000Z' }).execute();
      await expect(write('usr_read_only_1')).rejects.toSatisfy(isStoreUnavailable);
      await write('usr_read_only_2');
      expect(await store.db.selectFrom('payout_pauses').select('user_id').execute()).toEqual([{ user_id: 'usr_read_only_2' }]);
    } finally {
      await store.close();
      await testStore.drop();
    }
  });

  describe('bounded waits', () => {
    it('a statement past statement_timeout, a checkout past its timeout and a full queue all fail as StoreUnavailable', async () => {
      const store = openStore({
        databaseUrl: base!,
        sqliteFile: '',
        postgres: { poolMax: 1, statementTimeoutMs: 200, checkoutTimeoutMs: 150, maxWaiting: 2 },
      });
      try {
        const slow = sql`select pg_sleep(2)`.execute(store.db);
        await expect(slow).rejects.toSatisfy(isStoreUnavailable);
        // The one connection busy for 1 s (within the statement timeout): a checkout waits 150 ms at most.
        const store2 = openStore({ databaseUrl: base!, sqliteFile: '', postgres: { poolMax: 1, statementTimeoutMs: 5_000, checkoutTimeoutMs: 150, maxWaiting: 2 } });
        try {
          const busy = sql`select pg_sleep(1)`.execute(store2.db);
          await new Promise((r) => setTimeout(r, 50));
          const started = Date.now();
          const waits = [sql`select 1`.execute(store2.db), sql`select 1`.execute(store2.db)];
          // Two wait already: the next is refused at once, not queued.
          const refused = sql`select 1`.execute(store2.db);
          await expect(refused).rejects.toBeInstanceOf(StoreUnavailable);
          expect(Date.now() - started).toBeLessThan(100);
          for (const w of waits) await expect(w).rejects.toBeInstanceOf(StoreUnavailable);
          expect(Date.now() - started).toBeLessThan(900);
          await busy;
        } finally {
          await store2.close();
        }
      } finally {
        await store.close();
      }
    });

    it('a transaction left idle past idle_in_transaction_session_timeout fails alone; the pool serves the next caller', async () => {
      const events: string[] = [];
      const store = openStore({ databaseUrl: base!, sqliteFile: '', postgres: { poolMax: 1, idleInTransactionTimeoutMs: 100 }, onPostgresEvent: (m) => void events.push(m) });
      try {
        const stuck = store.transaction(async (tx) => {
          await sql`select 1`.execute(tx);
          await new Promise((r) => setTimeout(r, 500));
          await sql`select 1`.execute(tx);
        });
        await expect(stuck).rejects.toSatisfy(isStoreUnavailable);
        await vi.waitFor(() => expect(events.some((e) => /connection was lost/.test(e))).toBe(true));
        expect((await sql<{ one: number }>`select 1 as one`.execute(store.db)).rows[0]!.one).toBe(1);
      } finally {
        await store.close();
      }
    });
  });

  it('a connection that refuses its session bounds is closed, never used without them', async () => {
    // An impossible statement_timeout makes the server refuse the SETs, as a pooler in front might refuse them.
    const refused: unknown[] = [];
    const { pool } = openPostgresPool(base!, { ...DEFAULT_POSTGRES_LIMITS, statementTimeoutMs: -1, poolMax: 1 }, { onSettingsFailed: (err) => refused.push(err) });
    try {
      const err = await pool.query('show statement_timeout').then(
        (r) => new Error(`answered with the server default ${JSON.stringify(r.rows[0])}`),
        (e: unknown) => e,
      );
      expect(isStoreUnavailable(err), String(err)).toBe(true);
      expect(refused).toHaveLength(1);
    } finally {
      await pool.end();
    }
  });

  it('a lost COMMIT is resolved only by the server that gave its id: asked of one restarted or replaced since, its outcome is not known', async () => {
    const pool = new pg.Pool({ connectionString: base, max: 1 });
    pool.on('error', () => undefined);
    try {
      const client = await pool.connect();
      await client.query('begin');
      const { rows } = await client.query<{ xid: string; server: string }>('select pg_current_xact_id()::text as xid, pg_postmaster_start_time()::text as server');
      await client.query('commit');
      client.release();
      const { xid, server } = rows[0]!;
      expect(await commitOutcome(pool, { xid, server })).toBe('committed');
      // Another server may have given the same id to another transaction since (a crash before its log reached the
      // disk, a replica promoted without it): its answer would be that transaction's.
      expect(await commitOutcome(pool, { xid, server: '2000-01-01 00:00:00+00' }, 200)).toBeNull();
    } finally {
      await pool.end();
    }
  });
});
