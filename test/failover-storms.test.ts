import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import type { WebhookSender } from '../src/modules/webhooks/sender.port.js';
import { bearer, createOnboardedUser, createTestStore, EXTERNAL_CBU, startTestApp, withdraw, type OnboardedUser } from './helpers.js';
import { base, eventCount, killAll, logSink, named, via } from './failover-kit.js';

/**
 * Storms of terminated connections (D42): the jobs resume, a payout burst answers 201 or 503 + Retry-After with
 * money adding up, retried keys pay once, and the owner's stop holds.
 * PostgreSQL only (TEST_DATABASE_URL), as src/db/failover.test.ts.
 */
describe.runIf(base)('terminated connections, again and again (D42)', () => {
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
          // Kills at uneven gaps: a fixed 5 ms left no payout time to finish on a fast machine, and the stop must
          // come while some of the agent's payouts go through and some are cut.
          await sleep(5 + Math.floor(Math.random() * 40));
        }
      })();
      let agentRunning = true;
      const answers: number[] = [];
      const agent = (async () => {
        while (agentRunning) {
          answers.push((await withdraw(t.app, u.agentToken, { amount_ars: 1, destination: EXTERNAL_CBU })).statusCode);
        }
        return answers;
      })();
      for (let waited = 0; !(answers.includes(201) && answers.includes(503)) && waited < 20_000; waited += 20) await sleep(20);
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
});
