import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'vitest';
import { bearer, type OnboardedUser, type TestApp } from './helpers.js';

/** Shared by the webhook tests: a secret, a hook set through the API, events on demand, a hand-written receiver. */
export const SECRET = 'whsec-test-0123456789abcdef';

export async function setHook(t: TestApp, u: OnboardedUser, url: string, secret = SECRET): Promise<void> {
  const res = await t.app.inject({ method: 'PUT', url: '/v1/webhook', headers: bearer(u.ownerToken), payload: { url, secret } });
  expect(res.statusCode).toBe(200);
}

/** Two events (a crypto deposit and its failed off-ramp), so two deliveries, per call. */
export async function twoEvents(t: TestApp, u: OnboardedUser): Promise<void> {
  const res = await t.app.inject({ method: 'POST', url: '/v1/sandbox/crypto', headers: bearer(u.ownerToken), payload: { asset: 'USDT', amount: 1, fail: true } });
  expect(res.statusCode).toBeLessThan(300);
}

/** A receiver whose answer is written by hand: redirects, bodies that never end, requests never answered. */
export async function rawReceiver(answer: (res: http.ServerResponse) => void) {
  let requests = 0;
  let open = 0;
  let mostOpen = 0;
  const server = http.createServer((req, res) => {
    requests++;
    req.resume();
    req.on('end', () => answer(res));
  });
  server.on('connection', (socket) => {
    mostOpen = Math.max(mostOpen, ++open);
    socket.on('close', () => open--);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    requests: () => requests,
    /** Connections open now, and the most open at once. */
    connections: () => ({ open, mostOpen }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
