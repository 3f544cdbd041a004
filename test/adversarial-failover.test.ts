import { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import type { ApprovalChannel } from '../src/modules/approvals/channels/channel.port.js';
import { effectiveKey } from '../src/modules/idempotency/idempotency.service.js';
import type { WebhookSender } from '../src/modules/webhooks/sender.port.js';
import { bearer, createOnboardedUser, createTestStore, EXTERNAL_CBU, startTestApp, withdraw, type OnboardedUser, type TestStore } from './helpers.js';
import { startPgProxy } from './pg-proxy.js';

/**
 * Adversarial checks of D42 on PostgreSQL, beyond src/db/failover.test.ts: lost connections of the jobs' pool,
 * waves of them during a burst, outside sessions holding the other rows and tables a payout touches, and what
 * an operator sees (/metrics, logs) meanwhile. Same convention as failover.test.ts: runs only with
 * TEST_DATABASE_URL.
 */
const base = process.env.TEST_DATABASE_URL;

function via(store: TestStore, url: (u: URL) => string): TestStore {
  return { ...store, config: { ...store.config, databaseUrl: url(new URL(store.config.databaseUrl)) } };
}
const named = (name: string) => (u: URL) => {
  u.searchParams.set('application_name', name);
  return u.toString();
};

async function admin<T>(fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: base });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

/** Terminates every connection of the app named `name` (only this test's; never another database's). */
const killAll = (name: string) =>
  admin(async (c) => (await c.query('select pg_terminate_backend(pid) from pg_stat_activity where application_name = $1 and datname = current_database()', [name])).rowCount ?? 0);

/** Log lines captured from the app's logger. */
function logSink() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _enc, cb) {
      lines.push(...String(chunk).split('\n').filter(Boolean));
      cb();
    },
  });
  return { stream, lines };
}

async function eventCount(t: { app: FastifyInstance }, type: string, payoutId: string): Promise<number> {
  const rows = await t.app.ctx.store.db.selectFrom('events').select(['data']).where('type', '=', type).execute();
  return rows.filter((r) => JSON.parse(r.data).id === payoutId).length;
}

describe.runIf(base)('adversarial PostgreSQL failover (D42)', () => {
  it('the jobs lose their connections again and again while they deliver, confirm and expire: they resume, every payout ends once, every event is delivered', { timeout: 120_000 }, async () => {
    const testStore = await createTestStore();
    const name = `jobs-${randomBytes(4).toString('hex')}`;
    const sink = logSink();
    const received = new Map<string, number>();
    const sender: WebhookSender = {
      send: async (req) => {
        const id = JSON.parse(req.body).id as string;
        received.set(id, (received.get(id) ?? 0) + 1);
        return { kind: 'response', status: 200 };
      },
    };
    const t = await startTestApp({
      store: via(testStore, named(name)),
      env: { LOG_LEVEL: 'warn', SANDBOX_CONFIRM_DELAY_MS: '1000' },
      deps: { webhookSender: sender, logStream: sink.stream },
    });
    try {
      const users: OnboardedUser[] = [];
      for (let i = 0; i < 4; i++) {
        const u = await createOnboardedUser(t.app, { fundArs: 1_000 });
        const hook = await t.app.inject({ method: 'PUT', url: '/v1/webhook', headers: bearer(u.ownerToken), payload: { url: 'http://127.0.0.1:9/hook', secret: 'whsec-test-0123456789abcdef' } });
        expect(hook.statusCode).toBe(200);
        users.push(u);
      }
      // The last user's payouts wait for an approval that will expire.
      const [approver] = users.slice(-1);
      const thr = await t.app.inject({ method: 'PUT', url: '/v1/thresholds', headers: bearer(approver!.ownerToken), payload: { require_approval_above_ars: 5 } });
      expect(thr.statusCode).toBe(204);
      const paid: string[] = [];
      const pending: string[] = [];
      for (const u of users) {
        for (let i = 0; i < 6; i++) {
          const res = await withdraw(t.app, u.agentToken, { amount_ars: 10, destination: EXTERNAL_CBU });
          expect([201, 202]).toContain(res.statusCode);
          (res.statusCode === 201 ? paid : pending).push(res.json().id);
        }
      }
      expect(pending).toHaveLength(6);

      // A storm: every connection of this app is terminated every few milliseconds while the jobs run.
      let storming = true;
      let killed = 0;
      const storm = (async () => {
        while (storming) {
          killed += await killAll(name);
          await sleep(2);
        }
      })();
      t.clock.advance(400_000);
      const until = Date.now() + 1_500;
      while (Date.now() < until) {
        await Promise.all([
          t.app.jobs.webhookDelivery!.runOnce(),
          t.app.jobs.railSettlement!.runOnce(),
          t.app.jobs.payoutFollowUp!.runOnce(),
          t.app.jobs.approvalExpiry!.runOnce(),
        ]);
      }
      storming = false;
      await storm;
      expect(killed).toBeGreaterThan(0);
      // The storm did hit the jobs' work.
      expect(sink.lines.some((l) => /background job failed|could not be recorded|follow-up failed|connection was lost/.test(l))).toBe(true);

      // The process lives; the jobs resume once the leases they held run out.
      for (let round = 0; round < 6; round++) {
        t.clock.advance(61_000);
        await t.app.jobs.approvalExpiry!.runOnce();
        await t.app.jobs.railSettlement!.runOnce();
        await t.app.jobs.payoutFollowUp!.runOnce();
        await t.app.jobs.webhookDelivery!.runOnce();
      }
      const db = t.app.ctx.store.db;
      const rows = await db.selectFrom('payouts').select(['id', 'status']).execute();
      const status = new Map(rows.map((r) => [r.id, r.status]));
      for (const id of paid) {
        expect([id, status.get(id)]).toEqual([id, 'confirmed']);
        expect(await eventCount(t, 'payout.requested', id)).toBe(1);
        expect(await eventCount(t, 'payout.confirmed', id)).toBe(1);
      }
      for (const id of pending) {
        expect([id, status.get(id)]).toEqual([id, 'expired']);
        expect(await eventCount(t, 'payout.expired', id)).toBe(1);
      }
      const approvals = await db.selectFrom('approvals').select('status').where('user_id', '=', approver!.id).execute();
      expect(approvals.map((a) => a.status)).toEqual(pending.map(() => 'expired'));
      // Each user's money: funded less what was paid, once.
      for (const u of users) {
        const w = await db.selectFrom('wallets').select('cvu').where('user_id', '=', u.id).executeTakeFirstOrThrow();
        const acc = await db.selectFrom('rail_accounts').select('balance').where('cvu', '=', w.cvu).executeTakeFirstOrThrow();
        const n = u === approver ? 0 : 6;
        expect(Number(acc.balance)).toBe(100_000 - n * 1_000);
      }
      // Every payout event reached the receiver at least once, and every delivery is finished.
      const events = await db.selectFrom('events').select(['id', 'user_id', 'type']).execute();
      const mine = events.filter((e) => users.some((u) => u.id === e.user_id) && e.type.startsWith('payout.'));
      expect(mine).toHaveLength(paid.length * 3 + pending.length * 2);
      for (const e of mine) expect([e.id, (received.get(e.id) ?? 0) >= 1]).toEqual([e.id, true]);
      const deliveries = await db.selectFrom('webhook_deliveries').select(['status']).execute();
      expect(deliveries.every((d) => d.status === 'delivered')).toBe(true);
      // Logs stay small: no client, pool or row objects.
      expect(Math.max(...sink.lines.map((l) => l.length))).toBeLessThan(8_000);
    } finally {
      await t.close();
      await testStore.drop();
    }
  });

  it('several waves of pg_terminate_backend during a payout burst: 201 or 503 + Retry-After, one event and one audit row per payout, money adds up, /metrics shows it', { timeout: 120_000 }, async () => {
    const testStore = await createTestStore();
    const name = `waves-${randomBytes(4).toString('hex')}`;
    const sink = logSink();
    const t = await startTestApp({ store: via(testStore, named(name)), env: { DATABASE_POOL_MAX: '6', LOG_LEVEL: 'warn' }, deps: { logStream: sink.stream } });
    try {
      const users = await Promise.all(Array.from({ length: 4 }, () => createOnboardedUser(t.app, { fundArs: 10_000 })));
      const requests = users.flatMap((u) =>
        Array.from({ length: 25 }, (_, i) => {
          const key = `w-${u.id}-${i}`;
          return { u, key, res: sleep(i * 4).then(() => withdraw(t.app, u.agentToken, { amount_ars: 7, destination: EXTERNAL_CBU }, key)) };
        }),
      );
      let killed = 0;
      for (let wave = 0; wave < 6; wave++) {
        await sleep(15);
        killed += await killAll(name);
      }
      const answers = await Promise.all(requests.map(async (r) => ({ ...r, res: await r.res })));
      expect(killed).toBeGreaterThan(0);
      for (const a of answers) {
        expect([201, 503]).toContain(a.res.statusCode);
        if (a.res.statusCode === 503) {
          expect(a.res.headers['retry-after']).toBe('1');
          expect(a.res.json().error).toBe('SERVICE_UNAVAILABLE');
        }
      }
      // /metrics answers right after, with the 503s and their kind.
      const metrics = await t.app.inject({ method: 'GET', url: '/metrics' });
      expect(metrics.statusCode).toBe(200);
      const n503 = answers.filter((a) => a.res.statusCode === 503).length;
      if (n503 > 0) {
        expect(metrics.body).toMatch(new RegExp(`http_requests_total\\{route="/v1/withdraws",method="POST",status="503"\\} ${n503}\\b`));
        expect(metrics.body).toMatch(/store_unavailable_total\{kind="(connection|commit_unknown)"\} \d+/);
      }

      t.clock.advance(61_000);
      for (let i = 0; i < 3; i++) {
        await t.app.jobs.railSettlement!.runOnce();
        await t.app.jobs.payoutFollowUp!.runOnce();
        t.clock.advance(61_000);
      }
      const db = t.app.ctx.store.db;
      for (const u of users) {
        const mine = answers.filter((a) => a.u === u);
        const rows = await db.selectFrom('payouts').select(['id', 'idempotency_key', 'status', 'amount']).where('user_id', '=', u.id).execute();
        const byKey = new Map(rows.map((r) => [r.idempotency_key, r]));
        for (const a of mine) {
          const row = byKey.get(a.key);
          expect([a.key, a.res.statusCode, row !== undefined]).toEqual([a.key, a.res.statusCode, a.res.statusCode === 201]);
          if (row) expect(a.res.json().id).toBe(row.id);
        }
        for (const r of rows) {
          expect([r.id, r.status]).toEqual([r.id, 'confirmed']);
          expect(await eventCount(t, 'payout.requested', r.id)).toBe(1);
          expect(await eventCount(t, 'payout.confirmed', r.id)).toBe(1);
          const audit = await db.selectFrom('audit_log').select('id').where('action', '=', 'payout.requested').where('subject_id', '=', r.id).execute();
          expect(audit).toHaveLength(1);
        }
        const paid = rows.reduce((n, r) => n + Number(r.amount), 0);
        const balance = (await t.app.inject({ method: 'GET', url: '/v1/balance', headers: bearer(u.ownerToken) })).json().available;
        expect(Math.round(Number(balance) * 100)).toBe(1_000_000 - paid);
        // A 503's key is free: retrying it pays once.
        const refused = mine.find((a) => a.res.statusCode === 503);
        if (refused) {
          const retry = await withdraw(t.app, u.agentToken, { amount_ars: 7, destination: EXTERNAL_CBU }, refused.key);
          expect(retry.statusCode).toBe(201);
          expect(await db.selectFrom('payouts').select('id').where('user_id', '=', u.id).where('idempotency_key', '=', refused.key).execute()).toHaveLength(1);
        }
      }
      expect(Math.max(0, ...sink.lines.map((l) => l.length))).toBeLessThan(8_000);
    } finally {
      await t.close();
      await testStore.drop();
    }
  });

  it('clients that retry every 503 with the same key through a storm of terminated connections: one payout per key, paid once', { timeout: 120_000 }, async () => {
    const testStore = await createTestStore();
    const name = `retry-${randomBytes(4).toString('hex')}`;
    const t = await startTestApp({ store: via(testStore, named(name)), env: { DATABASE_POOL_MAX: '6' } });
    try {
      const users = await Promise.all(Array.from({ length: 3 }, () => createOnboardedUser(t.app, { fundArs: 10_000 })));
      let storming = true;
      const storm = (async () => {
        while (storming) {
          await killAll(name);
          await sleep(5);
        }
      })();
      const seen: number[] = [];
      const outcomes = await Promise.all(
        users.flatMap((u) =>
          Array.from({ length: 12 }, async (_, i) => {
            const key = `r-${u.id}-${i}`;
            for (let attempt = 0; attempt < 200; attempt++) {
              const res = await withdraw(t.app, u.agentToken, { amount_ars: 3, destination: EXTERNAL_CBU }, key);
              seen.push(res.statusCode);
              if (res.statusCode === 201) return { u, key, id: res.json().id as string };
              // 503: nothing kept, retry; 409: the key's first request is still being resolved, retry.
              expect([503, 409]).toContain(res.statusCode);
              if (attempt > 20) storming = false;
              await sleep(10);
            }
            throw new Error(`${key} never succeeded`);
          }),
        ),
      );
      storming = false;
      await storm;
      expect(seen.filter((s) => s === 503).length).toBeGreaterThan(0);
      for (let i = 0; i < 3; i++) {
        t.clock.advance(61_000);
        await t.app.jobs.railSettlement!.runOnce();
        await t.app.jobs.payoutFollowUp!.runOnce();
      }
      const db = t.app.ctx.store.db;
      for (const u of users) {
        const mine = outcomes.filter((o) => o.u === u);
        const rows = await db.selectFrom('payouts').select(['id', 'idempotency_key', 'status']).where('user_id', '=', u.id).execute();
        expect(rows.map((r) => r.idempotency_key).sort()).toEqual(mine.map((o) => o.key).sort());
        for (const o of mine) expect(rows.find((r) => r.idempotency_key === o.key)!.id).toBe(o.id);
        expect(rows.every((r) => r.status === 'confirmed')).toBe(true);
        const w = await db.selectFrom('wallets').select('cvu').where('user_id', '=', u.id).executeTakeFirstOrThrow();
        expect(await t.app.ctx.sandboxRail.getBalance(w.cvu)).toBe(1_000_000 - mine.length * 300);
        // One bank transfer per payout: none moved twice.
        const acc = await db.selectFrom('rail_accounts').select('id').where('cvu', '=', w.cvu).executeTakeFirstOrThrow();
        expect(await db.selectFrom('rail_transfers').select('id').where('from_account_id', '=', acc.id).execute()).toHaveLength(mine.length);
      }
    } finally {
      await t.close();
      await testStore.drop();
    }
  });

  it('the owner’s stop during a storm of terminated connections: once it answers 200, no payout of that user is sent until resume', { timeout: 120_000 }, async () => {
    const testStore = await createTestStore();
    const name = `stop-${randomBytes(4).toString('hex')}`;
    const t = await startTestApp({ store: via(testStore, named(name)), env: { DATABASE_POOL_MAX: '6' } });
    try {
      const u = await createOnboardedUser(t.app, { fundArs: 10_000 });
      let storming = true;
      const storm = (async () => {
        while (storming) {
          await killAll(name);
          await sleep(5);
        }
      })();
      let agentRunning = true;
      const agent = (async () => {
        const answers: number[] = [];
        while (agentRunning) {
          answers.push((await withdraw(t.app, u.agentToken, { amount_ars: 1, destination: EXTERNAL_CBU })).statusCode);
        }
        return answers;
      })();
      await sleep(100);
      let stop;
      for (let i = 0; i < 100; i++) {
        stop = await t.app.inject({ method: 'POST', url: '/v1/payouts/pause', headers: bearer(u.ownerToken) });
        if (stop.statusCode === 200) break;
        expect(stop.statusCode).toBe(503);
        expect(stop.headers['retry-after']).toBe('1');
      }
      expect(stop!.statusCode).toBe(200);
      const inFlight = new Set((stop!.json().in_flight as { id: string }[]).map((p) => p.id));
      const db = t.app.ctx.store.db;
      // Read on a connection of the test's own, which the storm spares.
      const own = new pg.Client({ connectionString: testStore.config.databaseUrl });
      await own.connect();
      const sent = await own.query(`select id from payouts where user_id = $1 and status in ('submitted', 'confirmed', 'failed')`, [u.id]);
      await own.end();
      const sentBefore = new Set(sent.rows.map((r: { id: string }) => r.id));
      // After the stop answered, the agent keeps asking: nothing is paid.
      const after: number[] = [];
      for (let i = 0; i < 20; i++) after.push((await withdraw(t.app, u.agentToken, { amount_ars: 1, destination: EXTERNAL_CBU })).statusCode);
      agentRunning = false;
      const before = await agent;
      storming = false;
      await storm;
      // The storm hit the agent's requests, and some were paid before the stop.
      expect(before).toContain(503);
      expect(before).toContain(201);
      expect(after.every((s) => s === 422 || s === 503)).toBe(true);
      for (let i = 0; i < 3; i++) {
        t.clock.advance(61_000);
        await t.app.jobs.payoutFollowUp!.runOnce();
        await t.app.jobs.railSettlement!.runOnce();
      }
      // Sent since the stop: only what it listed as already on its way.
      const sentNow = await db.selectFrom('payouts').select(['id', 'status']).where('user_id', '=', u.id).where('status', 'in', ['submitted', 'confirmed']).execute();
      for (const p of sentNow) if (!sentBefore.has(p.id)) expect([p.id, inFlight.has(p.id)]).toEqual([p.id, true]);
      const waiting = await db.selectFrom('payouts').select(['id', 'submission_started_at']).where('user_id', '=', u.id).where('status', '=', 'approved').execute();
      for (const p of waiting) if (!inFlight.has(p.id)) expect(p.submission_started_at).toBeNull();
    } finally {
      await t.close();
      await testStore.drop();
    }
  });

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

  describe('the store failing after a decision has committed', () => {
    /** An outside session that takes `table` ACCESS EXCLUSIVE when `arm()`ed code calls `take()`, until released. */
    function holder(url: () => string) {
      let c: pg.Client | null = null;
      return {
        take: async (table: string) => {
          c = new pg.Client({ connectionString: url() });
          await c.connect();
          await c.query('begin');
          await c.query(`lock table ${table} in access exclusive mode`);
        },
        release: async () => {
          if (!c) return;
          const held = c;
          c = null;
          await held.query('rollback').catch(() => undefined);
          await held.end();
        },
      };
    }

    it('an approval decided, then the store fails while its payout is submitted: the owner is answered the decision, not 503', async () => {
      let url = '';
      const lock = holder(() => url);
      let armed = false;
      const rail = (sandbox: import('../src/modules/rail/sandbox/sandbox-rail.js').SandboxRail) =>
        Object.assign(Object.create(sandbox) as typeof sandbox, {
          submitTransfer: async (req: Parameters<typeof sandbox.submitTransfer>[0]) => {
            const outcome = await sandbox.submitTransfer(req);
            if (armed) {
              armed = false;
              // From here on the payouts table cannot be read or written: as if the connection were lost.
              await lock.take('payouts');
            }
            return outcome;
          },
        });
      const t = await startTestApp({ env: { DATABASE_LOCK_TIMEOUT_MS: '300' }, deps: { rail } });
      url = t.config.databaseUrl;
      try {
        const u = await createOnboardedUser(t.app, { fundArs: 100 });
        const thr = await t.app.inject({ method: 'PUT', url: '/v1/thresholds', headers: bearer(u.ownerToken), payload: { require_approval_above_ars: 5 } });
        expect(thr.statusCode).toBe(204);
        const p = await withdraw(t.app, u.agentToken, { amount_ars: 10, destination: EXTERNAL_CBU });
        expect(p.statusCode).toBe(202);
        armed = true;
        const approve = await t.app.inject({ method: 'POST', url: `/v1/approvals/${p.json().approval_id}/approve`, headers: bearer(u.ownerToken) });
        await lock.release();
        // The decision committed: the approval is approved and its payout will be paid.
        const a = await t.app.ctx.store.db.selectFrom('approvals').select('status').where('id', '=', p.json().approval_id).executeTakeFirstOrThrow();
        expect(a.status).toBe('approved');
        // README, Operations: a 503 says nothing was kept; a decision that stands is answered as it stands.
        expect(approve.statusCode).toBe(200);
        expect(approve.json().status).toBe('approved');
        // The follow-up job carries it out once its grace ends: paid once.
        for (let i = 0; i < 2; i++) {
          t.clock.advance(61_000);
          await t.app.jobs.payoutFollowUp!.runOnce();
          await t.app.jobs.railSettlement!.runOnce();
          await t.app.jobs.payoutFollowUp!.runOnce();
        }
        const paid = await t.app.ctx.store.db.selectFrom('payouts').select('status').where('id', '=', approve.json().payout.id).executeTakeFirstOrThrow();
        expect(paid.status).toBe('confirmed');
        const w = await t.app.ctx.store.db.selectFrom('wallets').select('cvu').where('user_id', '=', u.id).executeTakeFirstOrThrow();
        expect(await t.app.ctx.sandboxRail.getBalance(w.cvu)).toBe(100_00 - 10_00);
      } finally {
        await lock.release();
        await t.close();
      }
    });

    it('a payout held for approval, then the store fails while the owner is notified: the agent is answered 202, not 503', async () => {
      let url = '';
      const lock = holder(() => url);
      const channel: ApprovalChannel = {
        name: 'telegram',
        isAvailable: async () => true,
        notifyPending: async () => {
          // The approval is committed; from here on its table cannot be written: as if the connection were lost.
          await lock.take('approvals');
        },
        notifyResolved: async () => undefined,
      };
      const t = await startTestApp({
        env: { DATABASE_LOCK_TIMEOUT_MS: '300', APPROVAL_CHANNELS: 'dashboard,telegram', TELEGRAM_BOT_TOKEN: '123:abc', TELEGRAM_WEBHOOK_SECRET: 'tg-secret-0123456789' },
        deps: { channels: { telegram: channel } },
      });
      url = t.config.databaseUrl;
      try {
        const u = await createOnboardedUser(t.app, { fundArs: 100 });
        const thr = await t.app.inject({ method: 'PUT', url: '/v1/thresholds', headers: bearer(u.ownerToken), payload: { require_approval_above_ars: 5 } });
        expect(thr.statusCode).toBe(204);
        const key = 'held-for-approval';
        const p = await withdraw(t.app, u.agentToken, { amount_ars: 10, destination: EXTERNAL_CBU }, key);
        await lock.release();
        const rows = await t.app.ctx.store.db.selectFrom('payouts').select(['status']).where('user_id', '=', u.id).execute();
        expect(rows.map((r) => r.status)).toEqual(['pending_approval']);
        // Its key already replays the 202: the first answer must be that 202 too, not a 503 that says nothing was kept.
        const replay = await withdraw(t.app, u.agentToken, { amount_ars: 10, destination: EXTERNAL_CBU }, key);
        expect(replay.statusCode).toBe(202);
        expect(p.statusCode).toBe(202);
        expect(p.json().id).toBe(replay.json().id);
      } finally {
        await lock.release();
        await t.close();
      }
    });
  });

  it('an agent’s limits proposal (MCP) committed, then the store fails while the owner is notified: the agent gets its approval, not an error that invites a second proposal', async () => {
    let url = '';
    let c: pg.Client | null = null;
    const channel: ApprovalChannel = {
      name: 'telegram',
      isAvailable: async () => true,
      notifyPending: async () => {
        c = new pg.Client({ connectionString: url });
        await c.connect();
        await c.query('begin');
        await c.query('lock table approvals in access exclusive mode');
      },
      notifyResolved: async () => undefined,
    };
    const t = await startTestApp({
      env: { DATABASE_LOCK_TIMEOUT_MS: '300', APPROVAL_CHANNELS: 'dashboard,telegram', TELEGRAM_BOT_TOKEN: '123:abc', TELEGRAM_WEBHOOK_SECRET: 'tg-secret-0123456789' },
      deps: { channels: { telegram: channel } },
    });
    url = t.config.databaseUrl;
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const addr = t.app.server.address() as AddressInfo;
    const u = await createOnboardedUser(t.app);
    const mcp = new McpClient({ name: 'adversarial-agent', version: '1.0.0' });
    await mcp.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${addr.port}/mcp`), { requestInit: { headers: { authorization: `Bearer ${u.apiKey}` } } }));
    try {
      const res = (await mcp.callTool({ name: 'propose_threshold_change', arguments: { daily_limit_ars: 750_000 } })) as { isError?: boolean; structuredContent?: Record<string, unknown> };
      const held = c as pg.Client | null;
      if (held) {
        await held.query('rollback');
        await held.end();
        c = null;
      }
      const approvals = await t.app.ctx.store.db.selectFrom('approvals').select(['id', 'status']).where('user_id', '=', u.id).execute();
      expect(approvals.map((a) => a.status)).toEqual(['pending']);
      expect(res.isError).toBeFalsy();
      expect(res.structuredContent?.approval_id).toBe(approvals[0]!.id);
    } finally {
      await mcp.close();
      const held = c as pg.Client | null;
      if (held) await held.end().catch(() => undefined);
      await t.close();
    }
  });

  it('the owner replaces the limits while the audit log cannot be written: the change is refused, or kept with its audit row', async () => {
    const t = await startTestApp({ env: { DATABASE_LOCK_TIMEOUT_MS: '300' } });
    const outside = new pg.Client({ connectionString: t.config.databaseUrl });
    await outside.connect();
    try {
      const u = await createOnboardedUser(t.app, { fundArs: 100 });
      await outside.query('begin');
      await outside.query('lock table audit_log in access exclusive mode');
      const res = await t.app.inject({ method: 'PUT', url: '/v1/thresholds', headers: bearer(u.ownerToken), payload: { per_tx_limit_ars: 999_999, daily_limit_ars: 999_999 } });
      // The audit entry's own wait (after the answer) runs out meanwhile.
      await sleep(1_000);
      await outside.query('rollback');
      const limits = (await t.app.inject({ method: 'GET', url: '/v1/thresholds', headers: bearer(u.ownerToken) })).json();
      const audits = await t.app.ctx.store.db.selectFrom('audit_log').select('action').where('user_id', '=', u.id).where('action', '=', 'thresholds.replaced').execute();
      if (res.statusCode === 204) {
        expect(limits.per_tx_limit_ars).toBe(999_999);
        // Who raised the limits is in the activity log.
        expect(audits).toHaveLength(1);
      } else {
        expect(res.statusCode).toBe(503);
        expect(limits.per_tx_limit_ars).not.toBe(999_999);
        expect(audits).toHaveLength(0);
      }
    } finally {
      await outside.query('rollback').catch(() => undefined);
      await outside.end();
      await t.close();
    }
  });

  it('deposit detection that cannot record for a while (events unavailable): the deposit is detected once the store is back, not set aside as poison', { timeout: 60_000 }, async () => {
    const t = await startTestApp({ env: { DATABASE_LOCK_TIMEOUT_MS: '200' } });
    const outside = new pg.Client({ connectionString: t.config.databaseUrl });
    await outside.connect();
    try {
      const u = await createOnboardedUser(t.app, { fundArs: 100 });
      await outside.query('begin');
      await outside.query('lock table events in exclusive mode');
      // Six passes over about six minutes: each takes the notice and fails to record its event.
      for (let i = 0; i < 6; i++) {
        await t.app.jobs.depositDetection!.runOnce();
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
