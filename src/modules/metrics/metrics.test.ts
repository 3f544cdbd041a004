import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { holdWrites } from '../../../test/hold-writes.js';
import { bearer, createOnboardedUser, EXTERNAL_CBU, startTestApp, withdraw } from '../../../test/helpers.js';
import type { BankRail } from '../rail/rail.port.js';

/** `GET /metrics`: what an operator watches, in Prometheus' text format. */
describe('metrics', () => {
  it('counts requests by route pattern, payouts by decision and final status, and reads job lag, backlog and pools', async () => {
    const t = await startTestApp({ env: { SANDBOX_CONFIRM_DELAY_MS: '0' } });
    try {
      const u = await createOnboardedUser(t.app, { fundArs: 100_000 });
      expect((await withdraw(t.app, u.agentToken, { amount_ars: 10, destination: EXTERNAL_CBU })).statusCode).toBe(201);
      expect((await withdraw(t.app, u.agentToken, { amount_ars: 60_000, destination: EXTERNAL_CBU })).statusCode).toBe(202);
      expect((await withdraw(t.app, u.agentToken, { amount_ars: -1, destination: EXTERNAL_CBU })).statusCode).toBe(422);
      await t.app.inject({ method: 'GET', url: '/v1/withdraws/wd_nope', headers: bearer(u.agentToken) });
      const res = await t.app.inject({ method: 'GET', url: '/metrics' });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/plain/);
      const text = res.body;
      // Route patterns, never ids.
      expect(text).toMatch(/http_requests_total\{route="\/v1\/withdraws",method="POST",status="201"\} 1/);
      expect(text).toMatch(/http_requests_total\{route="\/v1\/withdraws\/:id",method="GET",status="404"\} 1/);
      expect(text).not.toContain('wd_nope');
      expect(text).toMatch(/http_request_duration_seconds_bucket\{le="0.005",route="\/v1\/withdraws"/);
      expect(text).toMatch(/payouts_decided_total\{decision="allow"\} 1/);
      expect(text).toMatch(/payouts_decided_total\{decision="require_approval"\} 1/);
      expect(text).toMatch(/payouts_decided_total\{decision="deny"\} 1/);
      expect(text).toMatch(/payouts_finished_total\{status="confirmed"\} 1/);
      expect(text).toMatch(/job_lag_seconds\{job="payout-follow-up"\} 0/);
      expect(text).toMatch(/job_lag_seconds\{job="approval-expiry"\} 0/);
      expect(text).toMatch(/webhook_delivery_backlog 0/);
      if (t.app.ctx.store.dialect === 'postgres') expect(text).toMatch(/db_pool_connections_total\{pool="requests"\} \d+/);
      // An approval left undecided past its expiry shows as lag of the expiry job.
      t.clock.advance(400_000);
      expect((await t.app.inject({ method: 'GET', url: '/metrics' })).body).toMatch(/job_lag_seconds\{job="approval-expiry"\} (9\d|1\d\d)/);
    } finally {
      await t.close();
    }
  });

  it('reads the lag of the bank-side jobs too: settlement and deposit detection', async () => {
    const t = await startTestApp();
    try {
      const scrape = async () => (await t.app.inject({ method: 'GET', url: '/metrics' })).body;
      const payer = await createOnboardedUser(t.app, { fundArs: 1_000 });
      const payee = await createOnboardedUser(t.app);
      expect(await scrape()).toMatch(/job_lag_seconds\{job="deposit-detection"\} 0\n/);
      expect(await scrape()).toMatch(/job_lag_seconds\{job="rail-settlement"\} 0\n/);
      // A payout to another wallet of the bank: submitted now, due to settle after SANDBOX_CONFIRM_DELAY_MS (2 s).
      expect((await withdraw(t.app, payer.agentToken, { amount_ars: 10, destination: payee.cvu })).statusCode).toBe(201);
      t.clock.advance(62_000);
      expect(await scrape()).toMatch(/job_lag_seconds\{job="rail-settlement"\} 60\n/);
      // Settled, the payee's credit waits for deposit detection, which has not run: its lag counts from the credit.
      await t.app.jobs.railSettlement!.runOnce();
      expect(await scrape()).toMatch(/job_lag_seconds\{job="rail-settlement"\} 0\n/);
      t.clock.advance(45_000);
      const lag = Number(/job_lag_seconds\{job="deposit-detection"\} (\S+)\n/.exec(await scrape())?.[1]);
      expect(lag).toBeGreaterThanOrEqual(45);
      await t.app.jobs.depositDetection!.runOnce();
      expect(await scrape()).toMatch(/job_lag_seconds\{job="deposit-detection"\} 0\n/);
    } finally {
      await t.close();
    }
  });

  it("counts a background job's failed passes by job and by what failed: the database (its kind) or anything else", async () => {
    let bankDown = false;
    const t = await startTestApp({
      env: { DATABASE_LOCK_TIMEOUT_MS: '200' },
      deps: {
        rail: (rail: BankRail) =>
          Object.assign(Object.create(rail) as BankRail, {
            takeIncoming: async (limit: number) => {
              if (bankDown) throw new Error('the bank is down');
              return rail.takeIncoming(limit);
            },
          }),
      },
    });
    try {
      const scrape = async () => (await t.app.inject({ method: 'GET', url: '/metrics' })).body;
      bankDown = true;
      await t.app.jobs.depositDetection!.runOnce();
      expect(await scrape()).toMatch(/job_failures_total\{job="deposit-detection",kind="error"\} 1/);
      bankDown = false;
      await createOnboardedUser(t.app, { fundArs: 100 }); // a deposit notice to take
      // Another session holds the notices' table: the take waits out its bound (SQLite: the busy timeout).
      const release = await holdWrites(t, 'rail_incoming_notices');
      try {
        await t.app.jobs.depositDetection!.runOnce();
      } finally {
        await release();
      }
      expect(await scrape()).toMatch(/job_failures_total\{job="deposit-detection",kind="(busy|lock_timeout)"\} 1/);
    } finally {
      await t.close();
    }
  });

  // PostgreSQL: a scrape held by a lock (its probes wait out lock_timeout) stays in flight long enough to count.
  it.runIf(process.env.TEST_DATABASE_URL)('scrapes have a door of their own: a fifth at once answers 503 with Retry-After', async () => {
    const t = await startTestApp({ env: { DATABASE_LOCK_TIMEOUT_MS: '1000' } });
    const outside = new pg.Client({ connectionString: t.config.databaseUrl });
    await outside.connect();
    try {
      await outside.query('begin');
      await outside.query('lock table payouts in access exclusive mode');
      const scrapes = await Promise.all(Array.from({ length: 5 }, () => t.app.inject({ method: 'GET', url: '/metrics' })));
      const statuses = scrapes.map((r) => r.statusCode).sort();
      expect(statuses).toEqual([200, 200, 200, 200, 503]);
      const refused = scrapes.find((r) => r.statusCode === 503)!;
      expect(refused.headers['retry-after']).toBe('1');
      expect(refused.json().error).toBe('SERVICE_UNAVAILABLE');
    } finally {
      await outside.query('rollback').catch(() => undefined);
      await outside.end();
      await t.close();
    }
  });

  it('with METRICS_TOKEN set, a scrape must send it', async () => {
    const t = await startTestApp({ env: { METRICS_TOKEN: 'scrape-token-0123456789' } });
    try {
      expect((await t.app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(401);
      expect((await t.app.inject({ method: 'GET', url: '/metrics', headers: bearer('wrong') })).statusCode).toBe(401);
      expect((await t.app.inject({ method: 'GET', url: '/metrics', headers: bearer('scrape-token-0123456789') })).statusCode).toBe(200);
    } finally {
      await t.close();
    }
  });
});
