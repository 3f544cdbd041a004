import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createOnboardedUser, startTestApp, type OnboardedUser, type TestApp } from '../../../test/helpers.js';
import { startReceiver } from '../../../test/receiver.js';
import { rawReceiver, SECRET } from '../../../test/webhook-kit.js';

const TIMEOUT_MS = 500;

/**
 * How delivery treats what a receiver does (contract: a 2xx answer is delivered; anything else, or no answer
 * within the timeout, is retried on the schedule). Each case sends one `webhook.test` event and looks at the
 * one delivery it made.
 */
describe('receiver behaviour', () => {
  let t: TestApp;
  let u: OnboardedUser;
  beforeAll(async () => {
    t = await startTestApp({ env: { WEBHOOK_TIMEOUT_MS: String(TIMEOUT_MS) } });
    u = await createOnboardedUser(t.app);
  });
  afterAll(() => t.close());

  async function oneDelivery(url: string) {
    expect((await t.app.inject({ method: 'PUT', url: '/v1/webhook', headers: bearer(u.ownerToken), payload: { url, secret: SECRET } })).statusCode).toBe(200);
    const started = Date.now();
    const res = await t.app.inject({ method: 'POST', url: '/v1/webhook/test', headers: bearer(u.ownerToken) });
    expect(res.statusCode).toBe(200);
    return { d: res.json(), tookMs: Date.now() - started };
  }

  it('a 2xx whose body never ends is delivered: the status line is the answer', async () => {
    const rx = await rawReceiver((res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('accepted, and then some'); // and never ends
    });
    try {
      const { d, tookMs } = await oneDelivery(rx.url);
      expect(d).toMatchObject({ status: 'delivered', attempt_count: 1, last_response_status: 200, last_error: null });
      expect(tookMs).toBeLessThan(TIMEOUT_MS * 4);
    } finally {
      await rx.close();
    }
  });

  it('a 2xx streaming a huge body is delivered without reading it all', async () => {
    const rx = await rawReceiver((res) => {
      res.writeHead(202);
      const chunk = Buffer.alloc(64 * 1024, 0x61);
      const pump = () => {
        while (!res.destroyed && res.write(chunk));
        if (!res.destroyed) res.once('drain', pump);
      };
      pump();
    });
    try {
      const { d } = await oneDelivery(rx.url);
      expect(d).toMatchObject({ status: 'delivered', attempt_count: 1, last_response_status: 202 });
    } finally {
      await rx.close();
    }
  });

  it('a receiver that never answers is cut off at the timeout and retried', async () => {
    const rx = await rawReceiver(() => undefined);
    try {
      const { d, tookMs } = await oneDelivery(rx.url);
      expect(d).toMatchObject({ status: 'pending', attempt_count: 1, last_response_status: null, last_error: expect.stringMatching(/timed out/) });
      expect(tookMs).toBeLessThan(TIMEOUT_MS * 4);
    } finally {
      await rx.close();
    }
  });

  it('a redirect is not followed, even to a receiver that would accept; it counts as a failure', async () => {
    const target = await startReceiver(() => 200);
    const rx = await rawReceiver((res) => res.writeHead(307, { location: target.url }).end());
    try {
      const { d } = await oneDelivery(rx.url);
      expect(d).toMatchObject({ status: 'pending', attempt_count: 1, last_response_status: 307 });
      expect(target.received).toHaveLength(0);
    } finally {
      await rx.close();
      await target.close();
    }
  });

  it.each([400, 404, 410, 500, 503])('%i is retried on the schedule', async (status) => {
    const rx = await startReceiver(() => status);
    try {
      const { d } = await oneDelivery(rx.url);
      expect(d).toMatchObject({ status: 'pending', attempt_count: 1, last_response_status: status, last_error: `receiver answered ${status}` });
      expect(Date.parse(d.next_attempt_at) - Date.parse(d.last_attempt_at)).toBeGreaterThanOrEqual(60_000);
    } finally {
      await rx.close();
    }
  });
});

/**
 * The docs' promise: an event is delivered, or its delivery shows as failed in GET /v1/webhook/deliveries and can
 * be sent again. A receiver down through the whole schedule for more events than one page (50) must still find
 * every failed delivery there.
 */
describe('a long outage', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('every failed delivery can be found by paging the listing, and redelivered', async () => {
    const down = await startReceiver();
    await down.close(); // connection refused throughout
    const u = await createOnboardedUser(t.app);
    const owner = bearer(u.ownerToken);
    expect((await t.app.inject({ method: 'PUT', url: '/v1/webhook', headers: owner, payload: { url: down.url, secret: SECRET } })).statusCode).toBe(200);
    for (let i = 0; i < 33; i++) {
      const res = await t.app.inject({ method: 'POST', url: '/v1/sandbox/crypto', headers: owner, payload: { asset: 'USDT', amount: 1, fail: true } });
      expect(res.statusCode).toBeLessThan(300);
    }
    for (const gap of [0, 60_000, 300_000, 1_800_000, 7_200_000]) {
      t.clock.advance(gap);
      await t.app.jobs.webhookDelivery!.runOnce();
    }
    const fresh = await t.app.inject({ method: 'POST', url: '/v1/login', payload: { email: u.email, password: 'correct horse battery' } });
    const session = bearer(fresh.json().token);

    const seen: { id: string; event_id: string; status: string }[] = [];
    let cursor: string | null = null;
    do {
      const page: Awaited<ReturnType<typeof t.app.inject>> = await t.app.inject({ method: 'GET', url: `/v1/webhook/deliveries${cursor ? `?cursor=${cursor}` : ''}`, headers: session });
      expect(page.statusCode).toBe(200);
      expect(page.json().deliveries.length).toBeLessThanOrEqual(50);
      seen.push(...page.json().deliveries);
      cursor = page.json().next_cursor ?? null;
    } while (cursor);
    expect(seen).toHaveLength(66);
    expect(new Set(seen.map((d) => d.id)).size).toBe(66);
    expect(seen.every((d) => d.status === 'failed')).toBe(true);

    const back = await startReceiver();
    try {
      expect((await t.app.inject({ method: 'PUT', url: '/v1/webhook', headers: session, payload: { url: back.url, secret: SECRET } })).statusCode).toBe(200);
      for (const d of seen) {
        expect((await t.app.inject({ method: 'POST', url: `/v1/webhook/deliveries/${d.id}/redeliver`, headers: session })).statusCode).toBe(202);
      }
      await t.app.jobs.webhookDelivery!.runOnce();
      const got = new Set(back.received.map((r) => JSON.parse(r.body).id as string));
      expect(got).toEqual(new Set(seen.map((d) => d.event_id)));
    } finally {
      await back.close();
    }
  });

  it('a cursor that is not a delivery id is refused', async () => {
    const u = await createOnboardedUser(t.app);
    const res = await t.app.inject({ method: 'GET', url: '/v1/webhook/deliveries?cursor=wd_nope', headers: bearer(u.ownerToken) });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('INVALID_REQUEST');
  });
});
