import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createOnboardedUser, createTestStore, startTestApp, type TestStore } from '../../test/helpers.js';
import { backgroundFace, wrapPool } from './postgres-client.js';

const tick = () => new Promise((r) => setTimeout(r, 20));

/** A checkout that has not been served yet shows as this; once served, as the client. */
const pending = Symbol('pending');
function track(p: Promise<pg.PoolClient>) {
  let state: pg.PoolClient | typeof pending | Error = pending;
  p.then(
    (c) => (state = c),
    (e: Error) => (state = e),
  );
  return () => state;
}

describe('pool checkouts when the database cannot be reached', () => {
  it('a failed connect gives its place back: the next caller fails too rather than waiting for ever', async () => {
    // Port 1 on loopback refuses at once; with one place, a place lost to the first failure would hang the second.
    const pool = wrapPool(new pg.Pool({ connectionString: 'postgres://postgres@127.0.0.1:1/none', max: 1 }));
    await expect(pool.connect()).rejects.toThrow();
    await expect(backgroundFace(pool).connect()).rejects.toThrow();
    await expect(pool.connect()).rejects.toThrow();
    await pool.end();
  });
});

/** Issue 13: background work that finishes accepted payouts does not queue behind new requests for a connection. */
describe.runIf(process.env.TEST_DATABASE_URL)('PostgreSQL checkouts, background first', () => {
  let store: TestStore;
  let pool: pg.Pool;

  beforeAll(async () => {
    store = await createTestStore();
    pool = wrapPool(new pg.Pool({ connectionString: store.config.databaseUrl, max: 2 }));
  });
  afterAll(async () => {
    await pool.end();
    await store.drop();
  });

  it('when every connection is out, a background checkout is served before the requests that asked earlier', async () => {
    const a = await pool.connect();
    const b = await pool.connect();
    const first = track(pool.connect());
    const second = track(pool.connect());
    const job = track(backgroundFace(pool).connect());
    await tick();
    expect([first(), second(), job()]).toEqual([pending, pending, pending]);

    a.release();
    await tick();
    expect(job()).not.toBe(pending);
    expect([first(), second()]).toEqual([pending, pending]);

    b.release();
    await tick();
    expect(first()).not.toBe(pending);
    expect(second()).toBe(pending);

    (job() as pg.PoolClient).release();
    await tick();
    expect(second()).not.toBe(pending);
    // Served clients work, and the pool never held more than its size.
    expect((await (first() as pg.PoolClient).query('select 1 as one')).rows).toEqual([{ one: 1 }]);
    expect(pool.totalCount).toBe(2);
    (first() as pg.PoolClient).release();
    (second() as pg.PoolClient).release();
  });

  it('a client released twice frees its place once', async () => {
    const a = await pool.connect();
    const b = await pool.connect();
    a.release();
    expect(() => a.release()).toThrow();
    const c = await pool.connect();
    const d = track(pool.connect());
    await tick();
    expect(d()).toBe(pending);
    b.release();
    await tick();
    expect(d()).not.toBe(pending);
    c.release();
    (d() as pg.PoolClient).release();
  });

  it('a client released with an error is replaced, and its place goes to the next in line', async () => {
    const a = await pool.connect();
    const b = await pool.connect();
    const next = track(pool.connect());
    a.release(new Error('broken'));
    await tick();
    const c = next();
    expect(c).not.toBe(pending);
    expect((await (c as pg.PoolClient).query('select 2 as two')).rows).toEqual([{ two: 2 }]);
    b.release();
    (c as pg.PoolClient).release();
  });
});

describe.runIf(process.env.TEST_DATABASE_URL)('the app on PostgreSQL', () => {
  it('runs its jobs and the sandbox bank they ask on the background face: jobs asking after a request still get the next connections first', async () => {
    const order: string[] = [];
    let watching = false;
    const t = await startTestApp({
      env: { DATABASE_POOL_MAX: '1' },
      deps: {
        onQuery: (text) =>
          void (watching && order.push(/"payouts"/.test(text) && /next_check_at/.test(text) ? 'follow-up' : /"rail_transfers"/.test(text) ? 'bank' : 'request')),
      },
    });
    try {
      const u = await createOnboardedUser(t.app, { fundArs: 10 });
      let release!: () => void;
      const gate = new Promise<void>((r) => (release = r));
      // The only connection is held, so both the request and the job must wait for it.
      const holder = t.app.ctx.store.db.connection().execute(() => gate);
      await tick();
      watching = true;
      const request = t.app.inject({ method: 'GET', url: '/v1/balance', headers: bearer(u.ownerToken) });
      await tick();
      const followUp = t.app.jobs.payoutFollowUp!.runOnce();
      // The sandbox bank's settlement reads through the jobs' bank, not the one requests use.
      const settlement = t.app.jobs.railSettlement!.runOnce();
      await tick();
      expect(order).toEqual([]);
      release();
      await holder;
      await Promise.all([followUp, settlement]);
      expect((await request).statusCode).toBe(200);
      expect(order.slice(0, 2)).toEqual(['follow-up', 'bank']);
      expect(order).toContain('request');
    } finally {
      await t.close();
    }
  });
});
