import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bearer,
  createOnboardedUser,
  createUser,
  expectError,
  EXTERNAL_CBU,
  settle,
  startTestApp,
  withdraw,
  type OnboardedUser,
  type TestApp,
} from '../../../test/helpers.js';
import { startReceiver, type Received } from '../../../test/receiver.js';
import { httpSender } from './http-sender.js';
import { verifySvcSignature } from './signature.js';

const SECRET = 'whsec-test-0123456789abcdef';

function checkSigned(r: Received, secret = SECRET) {
  expect(verifySvcSignature(secret, r.body, r.headers['x-svc-signature'] as string)).toBe(true);
  const id = r.headers['webhook-id'] as string;
  const ts = r.headers['webhook-timestamp'] as string;
  const expected = `v1,${createHmac('sha256', secret).update(`${id}.${ts}.${r.body}`).digest('base64')}`;
  expect(r.headers['webhook-signature']).toBe(expected);
  const body = JSON.parse(r.body);
  expect(r.headers['x-svc-event-id']).toBe(body.id);
  expect(r.headers['x-svc-event-type']).toBe(body.type);
  expect(r.headers['x-svc-delivery-id']).toMatch(/^whd_/);
  expect(r.headers['x-svc-timestamp']).toBe(ts);
  expect(Object.keys(body).sort()).toEqual(['created_at', 'data', 'id', 'type']);
  return body;
}

describe('webhook management', () => {
  let t: TestApp;
  let u: OnboardedUser;
  beforeAll(async () => {
    t = await startTestApp();
    u = await createOnboardedUser(t.app);
  });
  afterAll(() => t.close());
  const put = (payload: object, token = u.ownerToken) => t.app.inject({ method: 'PUT', url: '/v1/webhook', headers: bearer(token), payload });
  const get = (token = u.ownerToken) => t.app.inject({ method: 'GET', url: '/v1/webhook', headers: bearer(token) });

  it('creates, replaces, reads and deletes the one webhook; the secret is write-only and encrypted at rest', async () => {
    expect((await get()).json()).toEqual({ webhook: null });
    const res = await put({ url: 'http://127.0.0.1:9/a', secret: SECRET });
    expect(res.statusCode).toBe(200);
    const hook = res.json().webhook;
    expect(hook).toEqual({ id: expect.stringMatching(/^whk_/), url: 'http://127.0.0.1:9/a', active: true, created_at: expect.any(String), updated_at: expect.any(String) });
    const replaced = (await put({ url: 'http://127.0.0.1:9/b', secret: SECRET + 'x' })).json().webhook;
    expect(replaced.id).toBe(hook.id);
    expect(replaced.url).toBe('http://127.0.0.1:9/b');
    expectError(await get(u.agentToken), 403, 'OWNER_SESSION_REQUIRED');
    expect((await get()).json().webhook.url).toBe('http://127.0.0.1:9/b');
    expect((await get()).body).not.toContain(SECRET);
    const row = await t.app.ctx.store.db.selectFrom('webhooks').selectAll().where('user_id', '=', u.id).executeTakeFirstOrThrow();
    expect(row.secret_enc).not.toContain(SECRET);
    expect(t.app.ctx.secretBox.open(row.secret_enc)).toBe(SECRET + 'x');
    expect((await t.app.inject({ method: 'DELETE', url: '/v1/webhook', headers: bearer(u.ownerToken) })).statusCode).toBe(204);
    expect((await get()).json()).toEqual({ webhook: null });
  });

  it.each([
    [{ secret: SECRET }, 'MISSING_URL'],
    [{ url: '', secret: SECRET }, 'MISSING_URL'],
    [{ url: 'not a url', secret: SECRET }, 'INVALID_URL'],
    [{ url: 'ftp://x', secret: SECRET }, 'INVALID_URL'],
    [{ url: 'http://user:pw@example.com', secret: SECRET }, 'INVALID_URL'],
    [{ url: 'http://127.0.0.1:9/a', secret: 'short' }, 'SECRET_TOO_SHORT'],
    [{ url: 'http://127.0.0.1:9/a' }, 'SECRET_TOO_SHORT'],
  ])('refuses %j with 400 %s', async (payload, code) => {
    expectError(await put(payload), 400, code);
    expect((await get()).json()).toEqual({ webhook: null });
  });

  it('only the owner session changes it (D13); every route needs a token', async () => {
    expectError(await put({ url: 'http://127.0.0.1:9/a', secret: SECRET }, u.agentToken), 403, 'OWNER_SESSION_REQUIRED');
    expectError(await t.app.inject({ method: 'DELETE', url: '/v1/webhook', headers: bearer(u.agentToken) }), 403, 'OWNER_SESSION_REQUIRED');
    for (const [method, url] of [
      ['GET', '/v1/webhook'],
      ['PUT', '/v1/webhook'],
      ['DELETE', '/v1/webhook'],
      ['GET', '/v1/webhook/deliveries'],
      ['POST', '/v1/webhook/test'],
      ['POST', '/v1/webhook/deliveries/whd_x/redeliver'],
    ] as const) {
      expectError(await t.app.inject({ method, url }), 401, 'UNAUTHENTICATED');
    }
  });
});

describe('SSRF protection (D24)', () => {
  let t: TestApp;
  let u: OnboardedUser;
  beforeAll(async () => {
    t = await startTestApp({ env: { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'false' } });
    u = await createOnboardedUser(t.app);
  });
  afterAll(() => t.close());

  it.each([
    'ftp://x',
    'http://127.0.0.1',
    'http://[::1]',
    'http://169.254.169.254/latest/meta-data',
    'http://[::ffff:10.0.0.1]',
    'http://10.1.2.3',
    'http://192.168.1.1',
    'http://172.16.0.1',
    'http://0.0.0.0',
    'http://[fe80::1]',
    'http://[fd00::1]',
    'http://224.0.0.1',
    'http://localhost:8080', // a hostname that resolves to a loopback address
  ])('refuses %s when saving', async (url) => {
    const res = await t.app.inject({ method: 'PUT', url: '/v1/webhook', headers: bearer(u.ownerToken), payload: { url, secret: SECRET } });
    expectError(res, 400, 'INVALID_URL');
  });

  it('tells a developer pointing it at their own machine which setting allows that', async () => {
    const res = await t.app.inject({ method: 'PUT', url: '/v1/webhook', headers: bearer(u.ownerToken), payload: { url: 'http://127.0.0.1:4000/hooks', secret: SECRET } });
    expectError(res, 400, 'INVALID_URL');
    expect(res.json().message).toMatch(/WEBHOOK_ALLOW_PRIVATE_NETWORKS=true/);
  });

  it('accepts a public address', async () => {
    const res = await t.app.inject({ method: 'PUT', url: '/v1/webhook', headers: bearer(u.ownerToken), payload: { url: 'https://93.184.216.34/hook', secret: SECRET } });
    expect(res.statusCode).toBe(200);
  });

  it('refuses private targets again at connect time, after DNS, and does not follow redirects', async () => {
    const rx = await startReceiver(() => 200);
    try {
      const guarded = httpSender({ allowPrivateNetworks: false });
      const viaName = await guarded.send({ url: `http://localhost:${rx.port}/x`, headers: {}, body: '{}', timeoutMs: 2000 });
      expect(viaName).toMatchObject({ kind: 'error' });
      const viaIp = await guarded.send({ url: `http://127.0.0.1:${rx.port}/x`, headers: {}, body: '{}', timeoutMs: 2000 });
      expect(viaIp).toMatchObject({ kind: 'error' });
      expect(rx.received).toHaveLength(0);
      rx.setResponder(() => 302);
      const open = httpSender({ allowPrivateNetworks: true });
      expect(await open.send({ url: rx.url, headers: {}, body: '{}', timeoutMs: 2000 })).toEqual({ kind: 'response', status: 302 });
      expect(rx.received).toHaveLength(1);
    } finally {
      await rx.close();
    }
  });
});

describe('delivery', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ env: { WEBHOOK_TIMEOUT_MS: '500' } });
  });
  afterAll(() => t.close());

  const setHook = async (u: { ownerToken: string }, url: string) => {
    const res = await t.app.inject({ method: 'PUT', url: '/v1/webhook', headers: bearer(u.ownerToken), payload: { url, secret: SECRET } });
    expect(res.statusCode).toBe(200);
  };
  const deliveries = async (u: { ownerToken: string }) =>
    (await t.app.inject({ method: 'GET', url: '/v1/webhook/deliveries', headers: bearer(u.ownerToken) })).json().deliveries;
  const deliver = () => t.app.jobs.webhookDelivery!.runOnce();

  it('signs every request; payout and deposit payloads match the docs and carry the key', async () => {
    const rx = await startReceiver();
    try {
      const u = await createOnboardedUser(t.app, { name: 'Ana' });
      await setHook(u, rx.url);
      await t.app.inject({ method: 'POST', url: '/v1/sandbox/deposits', headers: bearer(u.ownerToken), payload: { amount_ars: 1000 } });
      await t.app.jobs.depositDetection!.runOnce();
      const p = (await withdraw(t.app, u.agentToken, { amount_ars: 100, destination: EXTERNAL_CBU })).json();
      await settle(t);
      await t.app.inject({ method: 'PUT', url: '/v1/thresholds', headers: bearer(u.ownerToken), payload: { require_approval_above_ars: 500 } });
      const big = (await withdraw(t.app, u.agentToken, { amount_ars: 600, destination: EXTERNAL_CBU })).json();
      await t.app.inject({ method: 'POST', url: `/v1/approvals/${big.approval_id}/reject`, headers: bearer(u.ownerToken) });
      await deliver();

      const bodies = rx.received.map((r) => checkSigned(r));
      const types = bodies.map((b) => b.type);
      expect(types).toEqual(
        expect.arrayContaining(['deposit.detected', 'payout.requested', 'payout.submitted', 'payout.confirmed', 'payout.rejected']),
      );
      for (const b of bodies) {
        expect(b.id).toMatch(/^evt_/);
        if (b.type.startsWith('payout.')) {
          expect(b.data).toMatchObject({ api_key_id: u.apiKeyId, api_key_name: 'default', destination: EXTERNAL_CBU, destination_kind: 'CBU' });
          expect(Object.keys(b.data)).toEqual(expect.arrayContaining(['id', 'amount_ars', 'status', 'decision', 'decision_reasons', 'idempotency_key', 'created_at', 'resolved_at', 'provider_transfer_id']));
        }
      }
      const confirmed = bodies.find((b) => b.type === 'payout.confirmed' && b.data.id === p.id);
      expect(confirmed.data).toMatchObject({ status: 'confirmed', amount_ars: 100 });
      const dep = bodies.find((b) => b.type === 'deposit.detected');
      expect(dep.data).toMatchObject({ direction: 'credit', amount: '1000.00', to: u.cvu, currency: 'ARS', cvu: u.cvu });
      expect(Object.keys(dep.data)).toEqual(expect.arrayContaining(['id', 'from', 'to', 'fromLegalId', 'toLegalId', 'fromName', 'toName', 'amount', 'currency', 'status', 'creationTime', 'direction']));
      expect((await deliveries(u)).every((d: { status: string }) => d.status === 'delivered')).toBe(true);
    } finally {
      await rx.close();
    }
  });

  it('500 then 200: retried on the schedule; attempt counts and statuses right', async () => {
    const rx = await startReceiver((_r, n) => (n === 1 ? 500 : 200));
    try {
      const u = await createOnboardedUser(t.app);
      await setHook(u, rx.url);
      await t.app.inject({ method: 'POST', url: '/v1/webhook/deliveries/none/redeliver', headers: bearer(u.ownerToken) });
      await t.app.inject({ method: 'POST', url: '/v1/sandbox/crypto', headers: bearer(u.ownerToken), payload: { asset: 'USDT', amount: 1, fail: true } });
      await deliver();
      // Two events (crypto deposit + failed off-ramp): the first request failed.
      let ds = await deliveries(u);
      const failedOnce = ds.find((d: { attempt_count: number; status: string }) => d.status === 'pending');
      expect(failedOnce).toMatchObject({ attempt_count: 1, last_response_status: 500 });
      expect(Date.parse(failedOnce.next_attempt_at) - Date.parse(failedOnce.last_attempt_at)).toBe(60_000);
      await deliver();
      expect(rx.received).toHaveLength(2); // not due yet
      t.clock.advance(60_000);
      await deliver();
      ds = await deliveries(u);
      expect(ds.find((d: { id: string }) => d.id === failedOnce.id)).toMatchObject({ status: 'delivered', attempt_count: 2, last_response_status: 200, next_attempt_at: null });
      expect(rx.received).toHaveLength(3);
    } finally {
      await rx.close();
    }
  });

  it('five failures → failed and no sixth attempt; a hang past the timeout counts as a failure', async () => {
    const rx = await startReceiver((_r, n) => (n === 1 ? 'hang' : 503));
    try {
      const u = await createOnboardedUser(t.app);
      await setHook(u, rx.url);
      await t.app.inject({ method: 'POST', url: '/v1/sandbox/crypto', headers: bearer(u.ownerToken), payload: { asset: 'USDC', amount: 2, fail: true } });
      // Keep only the first event's delivery in play.
      const [first] = await deliveries(u);
      await t.app.ctx.store.db.deleteFrom('webhook_deliveries').where('user_id', '=', u.id).where('id', '!=', first.id).execute();
      const gaps = [0, 60_000, 300_000, 1_800_000, 7_200_000];
      for (const gap of gaps) {
        t.clock.advance(gap);
        await deliver();
      }
      const [d] = await deliveries(u);
      expect(d).toMatchObject({ status: 'failed', attempt_count: 5, next_attempt_at: null, last_response_status: 503 });
      expect(rx.received).toHaveLength(5);
      t.clock.advance(24 * 3600 * 1000);
      await deliver();
      expect(rx.received).toHaveLength(5);
      const attempts = await t.app.ctx.store.db.selectFrom('webhook_deliveries').selectAll().where('id', '=', d.id).executeTakeFirstOrThrow();
      expect(attempts.attempt_count).toBe(5);
    } finally {
      await rx.close();
    }
  });

  it('a receiver down for the whole schedule loses nothing that redeliver cannot bring back', async () => {
    const rx = await startReceiver();
    const url = rx.url;
    await rx.close(); // down: connection refused
    const u = await createOnboardedUser(t.app, { fundArs: 500 });
    await setHook(u, url);
    const p = (await withdraw(t.app, u.agentToken, { amount_ars: 10, destination: EXTERNAL_CBU })).json();
    for (const gap of [0, 60_000, 300_000, 1_800_000, 7_200_000]) {
      t.clock.advance(gap);
      await deliver();
    }
    const failed = await deliveries(u);
    expect(failed.length).toBeGreaterThan(0);
    expect(failed.every((d: { status: string; attempt_count: number }) => d.status === 'failed' && d.attempt_count === 5)).toBe(true);

    const back = await startReceiver();
    try {
      await setHook(u, back.url);
      for (const d of failed) {
        const res = await t.app.inject({ method: 'POST', url: `/v1/webhook/deliveries/${d.id}/redeliver`, headers: bearer(u.ownerToken) });
        expect(res.statusCode).toBe(202);
        expect(res.json()).toMatchObject({ event_id: d.event_id, status: 'pending', attempt_count: 0 });
      }
      await deliver();
      const got = back.received.map((r) => checkSigned(r));
      expect(got.map((b) => b.id).sort()).toEqual(failed.map((d: { event_id: string }) => d.event_id).sort());
      expect(got.some((b) => b.type === 'payout.requested' && b.data.id === p.id)).toBe(true);
    } finally {
      await back.close();
    }
  });

  it('POST /v1/webhook/test sends a signed webhook.test now; another user cannot redeliver my deliveries', async () => {
    const rx = await startReceiver();
    try {
      const u = await createOnboardedUser(t.app);
      expectError(await t.app.inject({ method: 'POST', url: '/v1/webhook/test', headers: bearer(u.ownerToken) }), 404, 'NOT_FOUND');
      await setHook(u, rx.url);
      // D38: test deliveries, like the webhook itself, are the owner's.
      expectError(await t.app.inject({ method: 'POST', url: '/v1/webhook/test', headers: bearer(u.agentToken) }), 403, 'OWNER_SESSION_REQUIRED');
      const res = await t.app.inject({ method: 'POST', url: '/v1/webhook/test', headers: bearer(u.ownerToken) });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ event_type: 'webhook.test', status: 'delivered', attempt_count: 1, last_response_status: 200 });
      expect(checkSigned(rx.received[0]!).type).toBe('webhook.test');
      await t.app.inject({ method: 'PUT', url: '/v1/webhook', headers: bearer(u.ownerToken), payload: { url: rx.url, secret: SECRET, active: false } });
      expectError(await t.app.inject({ method: 'POST', url: '/v1/webhook/test', headers: bearer(u.ownerToken) }), 404, 'NOT_FOUND');
      expect(rx.received).toHaveLength(1);
      const other = await createUser(t.app);
      expectError(
        await t.app.inject({ method: 'POST', url: `/v1/webhook/deliveries/${res.json().id}/redeliver`, headers: bearer(other.ownerToken) }),
        404,
        'NOT_FOUND',
      );
      expect((await deliveries(other))).toEqual([]);
    } finally {
      await rx.close();
    }
  });

  it('prunes delivery records after 7 days', async () => {
    const rx = await startReceiver();
    try {
      const u = await createOnboardedUser(t.app);
      await setHook(u, rx.url);
      await t.app.inject({ method: 'POST', url: '/v1/webhook/test', headers: bearer(u.ownerToken) });
      t.clock.advance(7 * 24 * 3600 * 1000 + 1000);
      await t.app.jobs.webhookPrune!.runOnce();
      const login = await t.app.inject({ method: 'POST', url: '/v1/login', payload: { email: u.email, password: 'correct horse battery' } });
      expect(await deliveries({ ownerToken: login.json().token })).toEqual([]);
    } finally {
      await rx.close();
    }
  });
});

describe('several worker instances', () => {
  it('two instances on one database deliver each attempt exactly once', async () => {
    const one = await startTestApp();
    const two = await startTestApp({ store: one.store });
    const rx = await startReceiver();
    try {
      const u = await createOnboardedUser(one.app);
      await one.app.inject({ method: 'PUT', url: '/v1/webhook', headers: bearer(u.ownerToken), payload: { url: rx.url, secret: SECRET } });
      for (let i = 0; i < 15; i++) {
        await one.app.inject({ method: 'POST', url: '/v1/sandbox/crypto', headers: bearer(u.ownerToken), payload: { asset: 'USDT', amount: 1, fail: true } });
      }
      two.clock.set(one.clock.now());
      await Promise.all([
        one.app.jobs.webhookDelivery!.runOnce(),
        two.app.jobs.webhookDelivery!.runOnce(),
        one.app.jobs.webhookDelivery!.runOnce(),
        two.app.jobs.webhookDelivery!.runOnce(),
      ]);
      const ids = rx.received.map((r) => r.headers['x-svc-delivery-id']);
      expect(ids).toHaveLength(30);
      expect(new Set(ids).size).toBe(30);
      const rows = await one.app.ctx.store.db.selectFrom('webhook_deliveries').selectAll().where('user_id', '=', u.id).execute();
      expect(rows.every((r) => r.status === 'delivered' && r.attempt_count === 1)).toBe(true);
    } finally {
      await rx.close();
      await two.app.close();
      await one.close();
    }
  });
});
