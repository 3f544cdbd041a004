import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createOnboardedUser, startTestApp, type OnboardedUser, type TestApp } from '../../../test/helpers.js';
import { startReceiver } from '../../../test/receiver.js';

const SECRET = 'whsec-test-0123456789abcdef';
const TIMEOUT_MS = 500;

/** A receiver whose answer is written by hand: redirects, bodies that never end, sockets never answered. */
async function rawReceiver(answer: (res: http.ServerResponse) => void) {
  let requests = 0;
  const server = http.createServer((req, res) => {
    requests++;
    req.resume();
    req.on('end', () => answer(res));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    requests: () => requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

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
