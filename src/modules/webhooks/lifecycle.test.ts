import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createOnboardedUser, EXTERNAL_CBU, PASSWORD, setThresholds, settle, startTestApp, withdraw, type OnboardedUser, type TestApp } from '../../../test/helpers.js';
import { startReceiver } from '../../../test/receiver.js';
import { rawReceiver, twoEvents } from '../../../test/webhook-kit.js';
import { PARALLEL_SENDS } from './delivery.worker.js';
import { verifySvcSignature } from './signature.js';

const SECRET = 'whsec-test-0123456789abcdef';
const NEW_SECRET = 'whsec-rotated-9876543210fedcba';

/** The webhook's life around deliveries still pending: deleted, paused, replaced; and keys deleted meanwhile. */
describe('webhook lifecycle with deliveries pending', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  const put = (u: OnboardedUser, payload: object) => t.app.inject({ method: 'PUT', url: '/v1/webhook', headers: bearer(u.ownerToken), payload });
  const deliver = () => t.app.jobs.webhookDelivery!.runOnce();
  const relogin = async (u: OnboardedUser): Promise<OnboardedUser> => ({
    ...u,
    ownerToken: (await t.app.inject({ method: 'POST', url: '/v1/login', payload: { email: u.email, password: PASSWORD } })).json().token,
  });

  it('deleted: nothing more goes to the old url; set again within the schedule, the pending ones go to the new one, signed with the new secret', async () => {
    const old = await startReceiver(() => 500);
    const next = await startReceiver(() => 200);
    try {
      let u = await createOnboardedUser(t.app);
      expect((await put(u, { url: old.url, secret: SECRET })).statusCode).toBe(200);
      expect((await t.app.inject({ method: 'POST', url: '/v1/payouts/pause', headers: bearer(u.ownerToken) })).statusCode).toBe(200);
      await deliver();
      expect(old.received).toHaveLength(1);
      const eventId = JSON.parse(old.received[0]!.body).id;

      expect((await t.app.inject({ method: 'DELETE', url: '/v1/webhook', headers: bearer(u.ownerToken) })).statusCode).toBe(204);
      t.clock.advance(60_000);
      await deliver();
      expect(old.received).toHaveLength(1);
      u = await relogin(u);
      const [d] = (await t.app.inject({ method: 'GET', url: '/v1/webhook/deliveries', headers: bearer(u.ownerToken) })).json().deliveries;
      expect(d).toMatchObject({ status: 'pending', attempt_count: 2, last_error: 'no active webhook' });

      expect((await put(u, { url: next.url, secret: NEW_SECRET })).statusCode).toBe(200);
      t.clock.advance(300_000);
      await deliver();
      expect(old.received).toHaveLength(1);
      expect(next.received).toHaveLength(1);
      const r = next.received[0]!;
      expect(JSON.parse(r.body).id).toBe(eventId);
      expect(verifySvcSignature(NEW_SECRET, r.body, r.headers['x-svc-signature'] as string)).toBe(true);
      expect(verifySvcSignature(SECRET, r.body, r.headers['x-svc-signature'] as string)).toBe(false);
    } finally {
      await old.close();
      await next.close();
    }
  });

  it('paused: events meanwhile get no delivery, pending ones wait; active again, the pending ones are sent', async () => {
    const rx = await startReceiver((_r, n) => (n === 1 ? 503 : 200));
    try {
      let u = await createOnboardedUser(t.app);
      expect((await put(u, { url: rx.url, secret: SECRET })).statusCode).toBe(200);
      await t.app.inject({ method: 'POST', url: '/v1/payouts/pause', headers: bearer(u.ownerToken) });
      await deliver();
      expect(rx.received).toHaveLength(1);
      expect((await put(u, { url: rx.url, secret: SECRET, active: false })).statusCode).toBe(200);
      await t.app.inject({ method: 'POST', url: '/v1/payouts/resume', headers: bearer(u.ownerToken) });
      t.clock.advance(60_000);
      await deliver();
      expect(rx.received).toHaveLength(1);
      u = await relogin(u);
      expect((await put(u, { url: rx.url, secret: SECRET })).statusCode).toBe(200);
      t.clock.advance(300_000);
      await deliver();
      expect(rx.received.map((r) => JSON.parse(r.body).type)).toEqual(['payouts.paused', 'payouts.paused']);
    } finally {
      await rx.close();
    }
  });

  it("each user's events go only to that user's webhook", async () => {
    const a = await startReceiver();
    const b = await startReceiver();
    try {
      const ua = await createOnboardedUser(t.app);
      const ub = await createOnboardedUser(t.app);
      await put(ua, { url: a.url, secret: SECRET });
      await put(ub, { url: b.url, secret: NEW_SECRET });
      await t.app.inject({ method: 'POST', url: '/v1/payouts/pause', headers: bearer(ua.ownerToken) });
      await t.app.inject({ method: 'POST', url: '/v1/payouts/pause', headers: bearer(ub.ownerToken) });
      await t.app.inject({ method: 'POST', url: '/v1/payouts/resume', headers: bearer(ub.ownerToken) });
      await deliver();
      expect(a.received).toHaveLength(1);
      expect(b.received).toHaveLength(2);
      expect(a.received.every((r) => verifySvcSignature(SECRET, r.body, r.headers['x-svc-signature'] as string))).toBe(true);
      expect(b.received.every((r) => verifySvcSignature(NEW_SECRET, r.body, r.headers['x-svc-signature'] as string))).toBe(true);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('a payout whose key is deleted before it is decided still names that key in every later event', async () => {
    const rx = await startReceiver();
    try {
      const u = await createOnboardedUser(t.app, { fundArs: 5000 });
      await put(u, { url: rx.url, secret: SECRET });
      await setThresholds(t.app, u.ownerToken, { require_approval_above_ars: 100 });
      const key = (await t.app.inject({ method: 'POST', url: '/v1/api-keys', headers: bearer(u.ownerToken), payload: { name: 'agent-x' } })).json();
      const token = (await t.app.inject({ method: 'POST', url: '/v1/auth/token', payload: { api_key: key.key } })).json().token;
      const p = (await withdraw(t.app, token, { amount_ars: 200, destination: EXTERNAL_CBU })).json();
      expect(p.status).toBe('pending_approval');
      expect((await t.app.inject({ method: 'DELETE', url: `/v1/api-keys/${key.id}`, headers: bearer(u.ownerToken) })).statusCode).toBe(204);
      expect((await t.app.inject({ method: 'POST', url: `/v1/approvals/${p.approval_id}/approve`, headers: bearer(u.ownerToken) })).statusCode).toBe(200);
      await settle(t, 5000);
      await deliver();
      const payoutEvents = rx.received.map((r) => JSON.parse(r.body)).filter((e) => e.data?.id === p.id);
      expect(payoutEvents.map((e) => e.type).sort()).toEqual(['payout.approved', 'payout.confirmed', 'payout.requested', 'payout.submitted']);
      for (const e of payoutEvents) expect(e.data).toMatchObject({ api_key_id: key.id, api_key_name: 'agent-x' });
    } finally {
      await rx.close();
    }
  });
});

/**
 * A claim reads each delivery's url and secret when it is taken. A claim left working in the background behind a
 * silent receiver starts its last deliveries only once earlier sends time out; by then the owner may have replaced
 * or deleted the webhook, and those deliveries went to the url the owner had just removed, with the old secret.
 */
describe('the webhook replaced while a claim still holds deliveries for it', () => {
  const TIMEOUT_MS = 3_000;
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ env: { WEBHOOK_TIMEOUT_MS: String(TIMEOUT_MS) } });
  });
  afterAll(() => t.close());

  it('the deliveries it had not started go to the new url, signed with the new secret', async () => {
    // The old receiver holds the first sends (every slot) until the timeout, and would accept any later one.
    let n = 0;
    const old = await rawReceiver((res) => {
      if (++n > PARALLEL_SENDS) res.writeHead(200).end();
    });
    const next = await startReceiver(() => 200);
    try {
      const u = await createOnboardedUser(t.app);
      expect((await t.app.inject({ method: 'PUT', url: '/v1/webhook', headers: bearer(u.ownerToken), payload: { url: old.url, secret: SECRET } })).statusCode).toBe(200);
      for (let i = 0; i < PARALLEL_SENDS / 2 + 1; i++) await twoEvents(t, u);
      // Returns once the claim is left behind: every slot held by the old receiver, two deliveries waiting.
      await t.app.jobs.webhookDelivery!.runOnce();
      expect(old.requests()).toBe(PARALLEL_SENDS);
      expect((await t.app.inject({ method: 'PUT', url: '/v1/webhook', headers: bearer(u.ownerToken), payload: { url: next.url, secret: NEW_SECRET } })).statusCode).toBe(200);

      const until = Date.now() + TIMEOUT_MS + 5_000;
      while (next.received.length + old.requests() < PARALLEL_SENDS + 2 && Date.now() < until) await sleep(20);
      expect(old.requests()).toBe(PARALLEL_SENDS);
      expect(next.received).toHaveLength(2);
      for (const r of next.received) expect(verifySvcSignature(NEW_SECRET, r.body, r.headers['x-svc-signature'] as string)).toBe(true);
    } finally {
      await old.close();
      await next.close();
    }
  });
});
