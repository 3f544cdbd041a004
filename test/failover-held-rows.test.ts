import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { effectiveKey } from '../src/modules/idempotency/idempotency.service.js';
import { bearer, createOnboardedUser, EXTERNAL_CBU, startTestApp, withdraw, type OnboardedUser } from './helpers.js';
import { base } from './failover-kit.js';

/**
 * An outside session holding what a payout touches (D42): the held user is answered within the lock or statement
 * timeout and nothing is kept; other users are served.
 * PostgreSQL only (TEST_DATABASE_URL), as src/db/failover.test.ts.
 */
describe.runIf(base)('rows and tables held by another session (D42)', () => {
  describe('an outside session holding what a payout touches', () => {
    const LOCK_MS = 300;

    /** Runs `hold` in an outside transaction, then a payout of `held` and one of `free` at once. */
    async function underLock(env: Record<string, string>, hold: (c: pg.Client, held: OnboardedUser, key: string) => Promise<void>) {
      const t = await startTestApp({ env: { DATABASE_LOCK_TIMEOUT_MS: String(LOCK_MS), ...env } });
      const outside = new pg.Client({ connectionString: t.config.databaseUrl });
      await outside.connect();
      const [held, free] = [await createOnboardedUser(t.app, { fundArs: 100 }), await createOnboardedUser(t.app, { fundArs: 100 })];
      // One payout each first, so that every row the next touches exists (usage counters, the webhook's user).
      for (const u of [held, free]) expect((await withdraw(t.app, u.agentToken, { amount_ars: 1, destination: EXTERNAL_CBU })).statusCode).toBe(201);
      const key = `held-${randomBytes(3).toString('hex')}`;
      await outside.query('begin');
      await hold(outside, held, key);
      const started = Date.now();
      const [blocked, served] = await Promise.all([
        withdraw(t.app, held.agentToken, { amount_ars: 2, destination: EXTERNAL_CBU }, key),
        withdraw(t.app, free.agentToken, { amount_ars: 2, destination: EXTERNAL_CBU }),
      ]);
      const elapsed = Date.now() - started;
      return {
        t,
        held,
        free,
        key,
        blocked,
        served,
        elapsed,
        release: async () => {
          await outside.query('rollback');
          await outside.end();
        },
        payoutsOf: (u: OnboardedUser) => t.app.ctx.store.db.selectFrom('payouts').select(['id', 'idempotency_key', 'status']).where('user_id', '=', u.id).execute(),
      };
    }

    async function expectRefusedAndNothingKept(r: Awaited<ReturnType<typeof underLock>>, kind: string) {
      try {
        expect(r.served.statusCode).toBe(201);
        expect(r.blocked.statusCode).toBe(503);
        expect(r.blocked.headers['retry-after']).toBe('1');
        expect(r.elapsed).toBeLessThan(3_000);
        const metrics = (await r.t.app.inject({ method: 'GET', url: '/metrics' })).body;
        expect(metrics).toMatch(new RegExp(`store_unavailable_total\\{kind="${kind}"\\} 1`));
        // Nothing kept: no payout, no event, no audit row of the refused request.
        expect((await r.payoutsOf(r.held)).map((p) => p.idempotency_key)).not.toContain(r.key);
        const db = r.t.app.ctx.store.db;
        const audits = await db.selectFrom('audit_log').select('data').where('user_id', '=', r.held.id).where('action', '=', 'payout.requested').execute();
        expect(audits).toHaveLength(1);
        const events = await db.selectFrom('events').select('id').where('user_id', '=', r.held.id).where('type', '=', 'payout.requested').execute();
        expect(events).toHaveLength(1);
        await r.release();
        // The key is free: the same request pays once now.
        const retry = await withdraw(r.t.app, r.held.agentToken, { amount_ars: 2, destination: EXTERNAL_CBU }, r.key);
        expect(retry.statusCode).toBe(201);
        expect((await r.payoutsOf(r.held)).filter((p) => p.idempotency_key === r.key)).toHaveLength(1);
      } finally {
        await r.release().catch(() => undefined);
        await r.t.close();
      }
    }

    it('the user’s usage counters (payout_usage)', async () => {
      const r = await underLock({}, async (c, held) => {
        await c.query(`select * from payout_usage where subject = $1 for update`, [`u:${held.id}`]);
      });
      await expectRefusedAndNothingKept(r, 'lock_timeout');
    });

    it('the same idempotency key, inserted by an uncommitted transaction', async () => {
      const r = await underLock({}, async (c, held, key) => {
        await c.query(
          `insert into idempotency_keys (key_hash, user_id, state, payout_id, claim_token, fingerprint, response_status, response_body, created_at, expires_at)
           values ($1, $2, 'in_flight', 'wd_outside', 'tok', 'fp', null, null, '2026-01-01T00:00:00.000Z', '2999-01-01T00:00:00.000Z')`,
          [effectiveKey(held.id, key), held.id],
        );
      });
      await expectRefusedAndNothingKept(r, 'lock_timeout');
    });

    it('the events table (EXCLUSIVE): every payout waits, each answers 503 within the lock timeout', async () => {
      const r = await underLock({}, async (c) => {
        await c.query('lock table events in exclusive mode');
      });
      try {
        expect(r.blocked.statusCode).toBe(503);
        expect(r.served.statusCode).toBe(503);
        expect(r.blocked.headers['retry-after']).toBe('1');
        expect(r.elapsed).toBeLessThan(3_000);
        expect((await r.payoutsOf(r.held)).map((p) => p.idempotency_key)).not.toContain(r.key);
      } finally {
        await r.release();
        await r.t.close();
      }
    });

    it('the events table with a lock timeout longer than the statement timeout: statement_timeout answers 503', async () => {
      const r = await underLock({ DATABASE_LOCK_TIMEOUT_MS: '20000', DATABASE_STATEMENT_TIMEOUT_MS: '400' }, async (c) => {
        await c.query('lock table events in exclusive mode');
      });
      try {
        expect(r.blocked.statusCode).toBe(503);
        expect(r.blocked.headers['retry-after']).toBe('1');
        expect(r.elapsed).toBeLessThan(3_000);
        const metrics = (await r.t.app.inject({ method: 'GET', url: '/metrics' })).body;
        expect(metrics).toMatch(/store_unavailable_total\{kind="statement_timeout"\} 2/);
        expect((await r.payoutsOf(r.held)).map((p) => p.idempotency_key)).not.toContain(r.key);
      } finally {
        await r.release();
        await r.t.close();
      }
    });

    it('the user’s webhook row (FOR UPDATE): payouts are not held up by it', async () => {
      const r = await underLock({}, async (c, held) => {
        await c.query('select * from webhooks where user_id = $1 for update', [held.id]);
      });
      try {
        expect(r.blocked.statusCode).toBe(201);
        expect(r.served.statusCode).toBe(201);
      } finally {
        await r.release();
        await r.t.close();
      }
    });

    it('the user’s sandbox bank account row: the payout is decided (201 approved), and the follow-up pays it once after', async () => {
      const r = await underLock({}, async (c, held) => {
        const w = await c.query('select cvu from wallets where user_id = $1', [held.id]);
        await c.query('select * from rail_accounts where cvu = $1 for update', [w.rows[0].cvu]);
      });
      try {
        expect(r.served.statusCode).toBe(201);
        // D42 README: a payout decided before the failure answers 201 as it stands.
        expect(r.blocked.statusCode).toBe(201);
        expect(r.blocked.json().status).toBe('approved');
        expect(r.elapsed).toBeLessThan(3_000);
        await r.release();
        for (let i = 0; i < 3; i++) {
          r.t.clock.advance(61_000);
          await r.t.app.jobs.payoutFollowUp!.runOnce();
          await r.t.app.jobs.railSettlement!.runOnce();
          await r.t.app.jobs.payoutFollowUp!.runOnce();
        }
        const mine = (await r.payoutsOf(r.held)).filter((p) => p.idempotency_key === r.key);
        expect(mine.map((p) => p.status)).toEqual(['confirmed']);
        const balance = (await r.t.app.inject({ method: 'GET', url: '/v1/balance', headers: bearer(r.held.ownerToken) })).json().available;
        expect(Number(balance)).toBe(100 - 1 - 2);
      } finally {
        await r.release().catch(() => undefined);
        await r.t.close();
      }
    });
  });
});
