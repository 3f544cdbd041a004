import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifySvcSignature } from '../src/modules/webhooks/signature.js';
import { childEnv, freePort, reader, Service, until } from './child-service.js';
import { createTestStore, EXTERNAL_CBU, PASSWORD, uniqueEmail, type TestStore } from './helpers.js';

const SECRET = 'a-receivers-secret-0123456789';

interface Got {
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** A receiver that can hang, answer, or be down (its port closed) and come back on the same port. */
async function controllableReceiver() {
  const got: Got[] = [];
  let mode: 'hang' | 'ok' = 'ok';
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      got.push({ headers: req.headers, body: Buffer.concat(chunks) });
      if (mode === 'hang') return;
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    got,
    setMode: (m: typeof mode) => (mode = m),
    down: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
    up: () => new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve)),
  };
}

/** What the README tells a receiver to check: both signatures, over the raw bytes, with the secret. */
function verifiedEvent(g: Got): { id: string; type: string } {
  expect(verifySvcSignature(SECRET, g.body.toString('utf8'), g.headers['x-svc-signature'] as string)).toBe(true);
  new Webhook(Buffer.from(SECRET, 'utf8').toString('base64')).verify(g.body, g.headers as Record<string, string>);
  const e = JSON.parse(g.body.toString('utf8'));
  expect(g.headers['x-svc-event-id']).toBe(e.id);
  return e;
}

/**
 * "No lost events": a process killed with SIGKILL while a receiver holds a delivery open, and a receiver that is
 * down for a while, still end with every event delivered, duplicates carrying the same event id and bytes.
 */
describe('webhook deliveries across kill -9 and a receiver outage', () => {
  let store: TestStore;
  let service: Service;
  let rx: Awaited<ReturnType<typeof controllableReceiver>>;
  beforeAll(async () => {
    store = await createTestStore();
    rx = await controllableReceiver();
    service = new Service(
      await freePort(),
      childEnv(store, {
        SANDBOX_CONFIRM_DELAY_MS: '0',
        WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
        WEBHOOK_POLL_INTERVAL_MS: '200',
        // The hung request must still be open when the process is killed.
        WEBHOOK_TIMEOUT_MS: '120000',
        WEBHOOK_RETRY_DELAYS_MS: '1500,1500,1500,1500',
      }),
    );
  });
  afterAll(async () => {
    await service.stop();
    await rx.down().catch(() => undefined);
    await store.drop();
  });

  it('a delivery in flight at the kill is sent again after restart; events during an outage all arrive', { timeout: 180_000 }, async () => {
    await service.start();
    const email = uniqueEmail();
    const created = await service.call('POST', '/v1/users', undefined, { email, password: PASSWORD, name: 'Hook Crash' });
    const userId = created.json.id as string;
    const agent = (await service.call('POST', '/v1/auth/token', undefined, { api_key: created.json.default_api_key.key })).json.token as string;
    const login = async () => (await service.call('POST', '/v1/login', undefined, { email, password: PASSWORD })).json.token as string;
    let owner = await login();
    expect((await service.call('POST', '/v1/onboarding', owner, { legal_id: '20-12345678-6', legal_name: 'Hook Crash' })).status).toBe(200);
    expect((await service.call('PUT', '/v1/webhook', owner, { url: rx.url, secret: SECRET })).status).toBe(200);
    const db = reader(store);
    try {
      // 1. The receiver holds the first delivery open; the process dies under it.
      rx.setMode('hang');
      expect((await service.call('POST', '/v1/payouts/pause', owner)).status).toBe(200);
      await until('the receiver to hold a delivery', async () => rx.got.length >= 1);
      service.kill9();
      rx.setMode('ok');
      await service.start();
      owner = await login();
      await until(
        'the held delivery to be delivered after restart',
        async () => {
          const [d] = await db.all<{ status: string }>(`select status from webhook_deliveries where user_id = $1`, [userId]);
          return d?.status === 'delivered';
        },
        60_000,
      );
      const [held, again] = rx.got;
      expect(again).toBeDefined();
      expect(verifiedEvent(again!).type).toBe('payouts.paused');
      expect(again!.body.equals(held!.body)).toBe(true);
      expect(again!.headers['x-svc-event-id']).toBe(held!.headers['x-svc-event-id']);
      expect(again!.headers['webhook-id']).toBe(held!.headers['webhook-id']);

      // 2. The receiver is down while money moves and the owner acts; it comes back before the schedule runs out.
      await rx.down();
      expect((await service.call('POST', '/v1/payouts/resume', owner)).status).toBe(200);
      expect((await service.call('POST', '/v1/sandbox/deposits', owner, { amount_ars: 1000 })).status).toBe(201);
      const p = await service.call('POST', '/v1/withdraws', agent, { amount_ars: 10, destination: EXTERNAL_CBU }, { 'idempotency-key': 'hook-crash-1' });
      expect(p.status).toBe(201);
      await until('the payout to be confirmed', async () => (await service.call('GET', `/v1/withdraws/${p.json.id}`, owner)).json.status === 'confirmed');
      await new Promise((r) => setTimeout(r, 2000)); // down across at least one retry
      await rx.up();

      await until(
        'every delivery to be final',
        async () => {
          const rows = await db.all<{ n: number }>(`select count(*) as n from webhook_deliveries where user_id = $1 and status <> 'delivered'`, [userId]);
          return Number(rows[0]!.n) === 0;
        },
        60_000,
      );
      const events = await db.all<{ id: string; type: string }>(`select id, type from events where user_id = $1`, [userId]);
      expect(events.map((e) => e.type).sort()).toEqual(
        ['deposit.detected', 'payout.confirmed', 'payout.requested', 'payout.submitted', 'payouts.paused', 'payouts.resumed'].sort(),
      );
      const receivedIds = new Set(rx.got.map((g) => verifiedEvent(g).id));
      expect([...receivedIds].sort()).toEqual(events.map((e) => e.id).sort());
    } finally {
      await db.close();
    }
  });
});
