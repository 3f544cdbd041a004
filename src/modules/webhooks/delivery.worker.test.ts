import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createOnboardedUser, EXTERNAL_CBU, PASSWORD, startTestApp, withdraw, type OnboardedUser, type TestApp } from '../../../test/helpers.js';
import { startReceiver } from '../../../test/receiver.js';
import { systemClock } from '../../shared/clock.js';
import { PARALLEL_SENDS } from './delivery.worker.js';
import { pruneDeliveryBatch } from './webhooks.service.js';
import { setHook, twoEvents } from '../../../test/webhook-kit.js';


/** A real receiver that answers 200 after `delayMs`, counting requests per delivery id and the most in flight. */
async function startSlowReceiver(delayMs: number) {
  const byDelivery = new Map<string, number>();
  let inFlight = 0;
  let maxInFlight = 0;
  const server = http.createServer((req, res) => {
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    const id = String(req.headers['x-svc-delivery-id']);
    byDelivery.set(id, (byDelivery.get(id) ?? 0) + 1);
    req.resume();
    req.on('end', () =>
      setTimeout(() => {
        inFlight--;
        res.statusCode = 200;
        res.end('ok');
      }, delayMs),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    byDelivery,
    maxInFlight: () => maxInFlight,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A fresh owner session, for after the test clock moved past the token's lifetime. */
async function relogin(t: TestApp, u: OnboardedUser): Promise<OnboardedUser> {
  const res = await t.app.inject({ method: 'POST', url: '/v1/login', payload: { email: u.email, password: PASSWORD } });
  return { ...u, ownerToken: res.json().token };
}

const deliveryRows = (t: TestApp, userId: string) =>
  t.app.ctx.store.db.selectFrom('webhook_deliveries').selectAll().where('user_id', '=', userId).execute();

async function waitFor(cond: () => boolean | Promise<boolean>, ms: number): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (await cond()) return true;
    await sleep(20);
  }
  return cond();
}

describe('many nodes (D29)', () => {
  it('two nodes with receivers slower than the lease send every delivery exactly once', async () => {
    // Real time, so leases really run out; the receiver answers after three leases, well within the timeout.
    const deps = { clock: systemClock, webhookLeaseMs: 300 };
    const env = { WEBHOOK_TIMEOUT_MS: '5000' };
    const one = await startTestApp({ env, deps });
    const two = await startTestApp({ env, deps, store: one.store });
    const rx = await startSlowReceiver(900);
    try {
      const u = await createOnboardedUser(one.app);
      await setHook(one, u, rx.url);
      for (let i = 0; i < 20; i++) await twoEvents(i % 2 ? one : two, u);
      const pending = async () => (await deliveryRows(one, u.id)).some((r) => r.status === 'pending');
      const deadline = Date.now() + 20_000;
      const node = async (t: TestApp) => {
        while (Date.now() < deadline && (await pending())) {
          await t.app.jobs.webhookDelivery!.runOnce();
          await sleep(10);
        }
      };
      await Promise.all([node(one), node(two)]);

      expect(rx.byDelivery.size).toBe(40);
      expect([...rx.byDelivery.values()].every((n) => n === 1)).toBe(true);
      const rows = await deliveryRows(one, u.id);
      expect(rows).toHaveLength(40);
      expect(rows.every((r) => r.status === 'delivered' && r.attempt_count === 1 && r.lock_token === null)).toBe(true);
    } finally {
      await rx.close();
      await two.app.close();
      await one.close();
    }
  });
});

describe('delivery worker', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ env: { WEBHOOK_TIMEOUT_MS: '2000' } });
  });
  afterAll(() => t.close());
  const deliver = () => t.app.jobs.webhookDelivery!.runOnce();

  it('fails poison items at once with their reason, and still delivers the rest of the batch', async () => {
    const rx = await startReceiver();
    try {
      const [badSecret, badJson, gone, good] = await Promise.all([1, 2, 3, 4].map(() => createOnboardedUser(t.app)));
      for (const u of [badSecret!, badJson!, gone!, good!]) {
        await setHook(t, u, rx.url);
        await twoEvents(t, u);
      }
      const db = t.app.ctx.store.db;
      await db.updateTable('webhooks').set({ secret_enc: 'v1.AAAAAAAAAAAAAAAA.BBBBBBBBBBBBBBBBBBBBBB.CCCC' }).where('user_id', '=', badSecret!.id).execute();
      await db.updateTable('events').set({ data: '{not json' }).where('user_id', '=', badJson!.id).execute();
      await db.deleteFrom('events').where('user_id', '=', gone!.id).execute();

      await deliver();
      const listed = async (u: OnboardedUser) =>
        (await t.app.inject({ method: 'GET', url: '/v1/webhook/deliveries', headers: bearer(u.ownerToken) })).json().deliveries;
      const expectFailed = async (u: OnboardedUser, reason: RegExp) => {
        const ds = await listed(u);
        expect(ds).toHaveLength(2);
        for (const d of ds) expect(d).toMatchObject({ status: 'failed', attempt_count: 1, next_attempt_at: null, last_error: expect.stringMatching(reason) });
      };
      await expectFailed(badSecret!, /secret cannot be decrypted/);
      await expectFailed(badJson!, /not valid JSON/);
      await expectFailed(gone!, /event no longer exists/);
      expect((await listed(good!)).every((d: { status: string }) => d.status === 'delivered')).toBe(true);
      expect(rx.received).toHaveLength(2);

      // Not retried: a day later nothing more is sent and nothing is attempted again.
      t.clock.advance(24 * 3600 * 1000);
      await deliver();
      expect(rx.received).toHaveLength(2);
      await expectFailed(await relogin(t, badSecret!), /secret cannot be decrypted/);
    } finally {
      await rx.close();
    }
  });

  it('one run delivers a backlog of 300 in full batches, with bounded parallelism', async () => {
    const rx = await startSlowReceiver(5);
    try {
      const u = await createOnboardedUser(t.app);
      await setHook(t, u, rx.url);
      for (let i = 0; i < 150; i++) await twoEvents(t, u);
      await deliver();
      const rows = await deliveryRows(t, u.id);
      expect(rows).toHaveLength(300);
      expect(rows.filter((r) => r.status !== 'delivered')).toEqual([]);
      expect(rx.byDelivery.size).toBe(300);
      expect(rx.maxInFlight()).toBeGreaterThan(1);
      expect(rx.maxInFlight()).toBeLessThanOrEqual(PARALLEL_SENDS);
    } finally {
      await rx.close();
    }
  });
});

describe('retention', () => {
  // Its own app: the other tests' deliveries would be pruned too and blur the batch counts.
  it('prunes deliveries older than 7 days in bounded batches, through an index on created_at', async () => {
    const t = await startTestApp();
    const rx = await startReceiver();
    try {
      const u = await createOnboardedUser(t.app);
      await setHook(t, u, rx.url);
      for (let i = 0; i < 13; i++) await twoEvents(t, u);
      await t.app.jobs.webhookDelivery!.runOnce();
      t.clock.advance(7 * 24 * 3600 * 1000 + 1000);
      await twoEvents(t, await relogin(t, u));
      const before = (await deliveryRows(t, u.id)).length;
      expect(before).toBe(28);

      expect(await pruneDeliveryBatch(t.app.ctx, 10)).toBe(10);
      expect((await deliveryRows(t, u.id)).length).toBe(18);
      await t.app.jobs.webhookPrune!.runOnce();
      const left = await deliveryRows(t, u.id);
      expect(left).toHaveLength(2);
      expect(left.every((r) => Date.parse(r.created_at) > t.clock.now().getTime() - 1000)).toBe(true);

      const indexes =
        t.app.ctx.store.dialect === 'postgres'
          ? await sql<{ name: string }>`select indexname as name from pg_indexes where schemaname = current_schema() and tablename = 'webhook_deliveries'`.execute(t.app.ctx.store.db)
          : await sql<{ name: string }>`select name from sqlite_master where type = 'index' and tbl_name = 'webhook_deliveries'`.execute(t.app.ctx.store.db);
      expect(indexes.rows.map((r) => r.name)).toEqual(expect.arrayContaining(['webhook_deliveries_created_idx', 'webhook_deliveries_due_idx']));
    } finally {
      await rx.close();
      await t.close();
    }
  });
});

describe('prompt delivery', () => {
  it('a committed delivery wakes the worker: delivered well before the 10-second poll, redeliveries too', async () => {
    const t = await startTestApp({ env: { WEBHOOK_POLL_INTERVAL_MS: '10000' }, deps: { startJobs: true } });
    const rx = await startReceiver();
    try {
      const u = await createOnboardedUser(t.app);
      await setHook(t, u, rx.url);
      const started = Date.now();
      // The deposit is announced by the deposit-detection job (every JOBS_INTERVAL_MS, 1 s), outside a transaction.
      await t.app.inject({ method: 'POST', url: '/v1/sandbox/deposits', headers: bearer(u.ownerToken), payload: { amount_ars: 100 } });
      expect(await waitFor(() => rx.received.length === 1, 5000)).toBe(true);
      expect(Date.now() - started).toBeLessThan(5000);
      expect(JSON.parse(rx.received[0]!.body).type).toBe('deposit.detected');

      const [d] = (await t.app.inject({ method: 'GET', url: '/v1/webhook/deliveries', headers: bearer(u.ownerToken) })).json().deliveries;
      const again = Date.now();
      const res = await t.app.inject({ method: 'POST', url: `/v1/webhook/deliveries/${d.id}/redeliver`, headers: bearer(u.ownerToken) });
      expect(res.statusCode).toBe(202);
      expect(await waitFor(() => rx.received.length === 2, 3000)).toBe(true);
      expect(Date.now() - again).toBeLessThan(3000);
    } finally {
      await rx.close();
      await t.close();
    }
  });

  it('a payout’s delivery, written inside its transaction, wakes the worker too', async () => {
    const t = await startTestApp({ env: { WEBHOOK_POLL_INTERVAL_MS: '10000' }, deps: { startJobs: true } });
    const rx = await startReceiver();
    try {
      const u = await createOnboardedUser(t.app, { fundArs: 1000 });
      await setHook(t, u, rx.url);
      const started = Date.now();
      expect((await withdraw(t.app, u.agentToken, { amount_ars: 10, destination: EXTERNAL_CBU })).statusCode).toBe(201);
      const requested = () => rx.received.some((r) => JSON.parse(r.body).type === 'payout.requested');
      expect(await waitFor(requested, 3000)).toBe(true);
      expect(Date.now() - started).toBeLessThan(3000);
    } finally {
      await rx.close();
      await t.close();
    }
  });
});
