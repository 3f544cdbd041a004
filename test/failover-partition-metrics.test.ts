import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { createOnboardedUser, createTestStore, EXTERNAL_CBU, startTestApp, withdraw } from './helpers.js';
import { startPgProxy } from './pg-proxy.js';
import { base, via } from './failover-kit.js';

/**
 * A database away for a while (D42): deposit notices come back rather than being set aside, a network partition is
 * bounded on the client too, and /metrics still answers.
 * PostgreSQL only (TEST_DATABASE_URL), as src/db/failover.test.ts.
 */
describe.runIf(base)('a database away for a while (D42)', () => {
  // Six passes over about six minutes: each takes the notice, and fails to record its event or to find whose wallet
  // it is for, because an outside session holds that table.
  it.each([
    ['record its event', 'events', 'exclusive'],
    ['find its wallet', 'wallets', 'access exclusive'],
  ])(
    'deposit detection that cannot %s for a while: the deposit is detected once the store is back, not set aside as poison',
    { timeout: 60_000 },
    async (_what, table, mode) => {
      const t = await startTestApp({ env: { DATABASE_LOCK_TIMEOUT_MS: '200' } });
      const outside = new pg.Client({ connectionString: t.config.databaseUrl });
      await outside.connect();
      try {
        const u = await createOnboardedUser(t.app, { fundArs: 100 });
        await outside.query('begin');
        await outside.query(`lock table ${table} in ${mode} mode`);
        for (let i = 0; i < 6; i++) {
          await t.app.jobs.depositDetection!.runOnce().catch(() => undefined);
          t.clock.advance(61_000);
        }
        await outside.query('rollback');
        await t.app.jobs.depositDetection!.runOnce();
        const detected = await t.app.ctx.store.db.selectFrom('events').select('id').where('user_id', '=', u.id).where('type', '=', 'deposit.detected').execute();
        expect(detected).toHaveLength(1);
      } finally {
        await outside.query('rollback').catch(() => undefined);
        await outside.end();
        await t.close();
      }
    },
  );

  it('a transfer held for the owner while the store fails for a while: answered with the outcome, not a 503 that says nothing was kept', { timeout: 60_000 }, async () => {
    const t = await startTestApp({ env: { DATABASE_LOCK_TIMEOUT_MS: '200', SANDBOX_CONFIRM_DELAY_MS: '0' } });
    const outside = new pg.Client({ connectionString: t.config.databaseUrl });
    await outside.connect();
    try {
      const u = await createOnboardedUser(t.app, { fundArs: 100_000 });
      const owner = { authorization: `Bearer ${u.ownerToken}` };
      const held = t.app.inject({
        method: 'POST',
        url: '/v1/transfers',
        headers: { authorization: `Bearer ${u.agentToken}`, 'idempotency-key': 'held-through-a-failure' },
        payload: { amount: 50_000, destination: EXTERNAL_CBU },
      });
      let approval: string | undefined;
      while (!approval) {
        approval = (await t.app.inject({ url: '/v1/approvals?status=pending', headers: owner })).json().approvals[0]?.id;
        await sleep(50);
      }
      // The hold's reads of the transfer meet the lock timeout for a second: the store is unavailable to them.
      await outside.query('begin');
      await outside.query('lock table payouts in access exclusive mode');
      await sleep(1_000);
      await outside.query('rollback');
      expect((await t.app.inject({ method: 'POST', url: `/v1/approvals/${approval}/approve`, headers: owner })).statusCode).toBe(200);
      const res = await held;
      expect(res.statusCode).toBe(201);
      expect(res.json()).toMatchObject({ status: 'approved', amount: 50_000 });
    } finally {
      await outside.query('rollback').catch(() => undefined);
      await outside.end();
      await t.close();
    }
  });

  it('a transfer held while the store stays away past the hold: answered with the attempt as last seen when the hold ends, not held for the outage', { timeout: 60_000 }, async () => {
    const t = await startTestApp({ env: { DATABASE_LOCK_TIMEOUT_MS: '200' } });
    const outside = new pg.Client({ connectionString: t.config.databaseUrl });
    await outside.connect();
    try {
      const u = await createOnboardedUser(t.app, { fundArs: 100_000 });
      const held = t.app.inject({
        method: 'POST',
        url: '/v1/transfers',
        headers: { authorization: `Bearer ${u.agentToken}`, 'idempotency-key': 'held-past-the-hold' },
        payload: { amount: 50_000, destination: EXTERNAL_CBU },
      });
      while (!(await t.app.inject({ url: '/v1/approvals?status=pending', headers: { authorization: `Bearer ${u.ownerToken}` } })).json().approvals[0]) await sleep(50);
      await outside.query('begin');
      await outside.query('lock table payouts in access exclusive mode');
      await sleep(500);
      t.clock.advance(7 * 60_000);
      const res = await Promise.race([held, sleep(10_000).then(() => null)]);
      expect(res?.statusCode).toBe(201);
      expect(res?.json()).toMatchObject({ status: 'pending_approval', amount: 50_000 });
    } finally {
      await outside.query('rollback').catch(() => undefined);
      await outside.end();
      await t.close();
    }
  });

  it('a network partition (the server vanishes without closing anything): a payout answers 503 within the bounds, not never', { timeout: 90_000 }, async () => {
    const u0 = new URL(base!);
    const proxy = await startPgProxy({ host: u0.hostname, port: Number(u0.port || 5432) });
    const testStore = await createTestStore();
    const t = await startTestApp({
      store: via(testStore, (u) => proxy.url(u.toString())),
      env: { DATABASE_STATEMENT_TIMEOUT_MS: '1000', DATABASE_LOCK_TIMEOUT_MS: '500', DATABASE_CHECKOUT_TIMEOUT_MS: '1000' },
    });
    try {
      const u = await createOnboardedUser(t.app, { fundArs: 100 });
      expect((await withdraw(t.app, u.agentToken, { amount_ars: 1, destination: EXTERNAL_CBU })).statusCode).toBe(201);
      proxy.partition();
      const started = Date.now();
      const res = await Promise.race([
        withdraw(t.app, u.agentToken, { amount_ars: 1, destination: EXTERNAL_CBU }),
        sleep(40_000).then(() => null),
      ]);
      // Every wait is bounded (D42): the statement timeout cannot be the server's alone, which no longer answers.
      // The client's own bound is the longest statement the server allows (the owner's 15 s) plus a margin.
      expect(res?.statusCode).toBe(503);
      expect(res?.headers['retry-after']).toBe('1');
      expect(Date.now() - started).toBeLessThan(25_000);
      // The process lives, and the scrape says what happened.
      expect((await t.app.inject({ method: 'GET', url: '/metrics' })).body).toMatch(/store_unavailable_total\{kind="connection"\} \d+/);
    } finally {
      await proxy.close();
      await t.close();
      await testStore.drop();
    }
  });

  describe('/metrics during a database failure', () => {
    it('answers while an outside session holds the payouts table (ACCESS EXCLUSIVE), within a scrape’s time', async () => {
      const t = await startTestApp({ env: { DATABASE_LOCK_TIMEOUT_MS: '300' } });
      const outside = new pg.Client({ connectionString: t.config.databaseUrl });
      await outside.connect();
      try {
        const u = await createOnboardedUser(t.app, { fundArs: 100 });
        await outside.query('begin');
        await outside.query('lock table payouts in access exclusive mode');
        const refused = await withdraw(t.app, u.agentToken, { amount_ars: 1, destination: EXTERNAL_CBU });
        expect(refused.statusCode).toBe(503);
        const started = Date.now();
        const metrics = await t.app.inject({ method: 'GET', url: '/metrics' });
        expect(Date.now() - started).toBeLessThan(3_000);
        expect(metrics.statusCode).toBe(200);
        expect(metrics.body).toMatch(/http_requests_total\{route="\/v1\/withdraws",method="POST",status="503"\} 1/);
        expect(metrics.body).toMatch(/store_unavailable_total\{kind="lock_timeout"\} 1/);
        // What the database could not say is unknown, not zero; what it could is there.
        expect(metrics.body).toMatch(/job_lag_seconds\{job="payout-follow-up"\} nan$/im);
        expect(metrics.body).toMatch(/job_lag_seconds\{job="approval-expiry"\} 0/);
      } finally {
        await outside.query('rollback').catch(() => undefined);
        await outside.end();
        await t.close();
      }
    });

    it('answers while the database cannot be reached at all (a failover in progress)', async () => {
      const u0 = new URL(base!);
      const proxy = await startPgProxy({ host: u0.hostname, port: Number(u0.port || 5432) });
      const testStore = await createTestStore();
      const t = await startTestApp({ store: via(testStore, (u) => proxy.url(u.toString())), env: { DATABASE_CHECKOUT_TIMEOUT_MS: '500' } });
      let closed = false;
      try {
        const u = await createOnboardedUser(t.app, { fundArs: 100 });
        await proxy.close();
        closed = true;
        const refused = await withdraw(t.app, u.agentToken, { amount_ars: 1, destination: EXTERNAL_CBU });
        expect(refused.statusCode).toBe(503);
        const metrics = await t.app.inject({ method: 'GET', url: '/metrics' });
        expect(metrics.statusCode).toBe(200);
        expect(metrics.body).toMatch(/store_unavailable_total\{kind="connection"\} \d+/);
        expect(metrics.body).toMatch(/db_pool_connections_total\{pool="requests"\} \d+/);
      } finally {
        if (!closed) await proxy.close();
        await t.close();
        await testStore.drop();
      }
    });
  });
});
