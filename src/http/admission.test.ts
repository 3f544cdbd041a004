import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { bearer, createOnboardedUser, expectError, EXTERNAL_CBU, startTestApp, withdraw } from '../../test/helpers.js';
import type { BankRail } from '../modules/rail/rail.port.js';

/** A rail whose destination lookups wait, once `block()` is called, until `release()`: payouts held in flight. */
function railHeldAtResolve() {
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  let blocking = false;
  const slow = (rail: BankRail): BankRail =>
    Object.assign(Object.create(rail) as BankRail, {
      resolve: async (...a: Parameters<BankRail['resolve']>) => {
        if (blocking) await held;
        return rail.resolve(...a);
      },
    });
  return { slow, block: () => void (blocking = true), release: () => release() };
}

/** D42: past MAX_REQUESTS_IN_FLIGHT a node sheds at the door, before any work; the owner's stop still gets in. */
describe('admission at the door', () => {
  it('past the limit the next request answers 503 with Retry-After and starts nothing; a pause still gets in; room again once one ends', async () => {
    const { slow, block, release } = railHeldAtResolve();
    const t = await startTestApp({ env: { MAX_REQUESTS_IN_FLIGHT: '2' }, deps: { rail: slow } });
    try {
      const u = await createOnboardedUser(t.app, { fundArs: 1000 });
      block();
      // Two payouts wait at the rail: the node is at its limit.
      const first = [withdraw(t.app, u.agentToken, { amount_ars: 10, destination: EXTERNAL_CBU }, 'in-1'), withdraw(t.app, u.agentToken, { amount_ars: 10, destination: EXTERNAL_CBU }, 'in-2')];
      await new Promise((r) => setTimeout(r, 50));

      const shed = await withdraw(t.app, u.agentToken, { amount_ars: 10, destination: EXTERNAL_CBU }, 'shed-1');
      expectError(shed, 503, 'SERVICE_UNAVAILABLE');
      expect(shed.headers['retry-after']).toBe('1');
      expectError(await t.app.inject({ method: 'GET', url: '/v1/balance', headers: bearer(u.ownerToken) }), 503, 'SERVICE_UNAVAILABLE');
      // The owner's decisions from a messaging channel are let in (here refused for their missing credentials, not shed).
      expect((await t.app.inject({ method: 'POST', url: '/v1/channels/telegram/webhook', payload: {} })).statusCode).not.toBe(503);
      expect((await t.app.inject({ method: 'POST', url: '/v1/channels/whatsapp/webhook', payload: {} })).statusCode).not.toBe(503);
      // The owner's stop is not turned away.
      expect((await t.app.inject({ method: 'POST', url: '/v1/payouts/pause', headers: bearer(u.ownerToken) })).statusCode).toBe(200);

      release();
      // The two let in were decided after the pause: denied, as the stop promises.
      for (const r of await Promise.all(first)) expect(r.json().reasons).toEqual(['payouts_paused']);
      // The shed request kept nothing: after resume its key makes exactly one payout.
      expect((await t.app.inject({ method: 'POST', url: '/v1/payouts/resume', headers: bearer(u.ownerToken) })).statusCode).toBe(200);
      expect((await withdraw(t.app, u.agentToken, { amount_ars: 10, destination: EXTERNAL_CBU }, 'shed-1')).statusCode).toBe(201);
      const rows = await t.app.ctx.store.db.selectFrom('payouts').select('id').where('idempotency_key', '=', 'shed-1').execute();
      expect(rows).toHaveLength(1);
      expect((await t.app.inject({ method: 'GET', url: '/v1/balance', headers: bearer(u.ownerToken) })).statusCode).toBe(200);
    } finally {
      await t.close();
    }
  });

  it('a node at its limit still answers the scrape, which shows the requests it shed', async () => {
    const { slow, block, release } = railHeldAtResolve();
    const t = await startTestApp({ env: { MAX_REQUESTS_IN_FLIGHT: '1' }, deps: { rail: slow } });
    try {
      const u = await createOnboardedUser(t.app, { fundArs: 1000 });
      block();
      const first = withdraw(t.app, u.agentToken, { amount_ars: 10, destination: EXTERNAL_CBU }, 'in-1');
      await new Promise((r) => setTimeout(r, 50));
      expectError(await withdraw(t.app, u.agentToken, { amount_ars: 10, destination: EXTERNAL_CBU }, 'shed-1'), 503, 'SERVICE_UNAVAILABLE');
      const scrape = await t.app.inject({ method: 'GET', url: '/metrics' });
      expect(scrape.statusCode).toBe(200);
      expect(scrape.body).toMatch(/http_requests_total\{route="\/v1\/withdraws",method="POST",status="503"\} 1/);
      // Told apart from the database's 503s and the shutdown's.
      expect(scrape.body).toMatch(/requests_shed_total\{reason="capacity"\} 1/);
      release();
      expect((await first).statusCode).toBe(201);
    } finally {
      release();
      await t.close();
    }
  });

  it('a client that hangs up after sending its whole request is counted out: the next request gets in', async () => {
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const slow = (rail: BankRail): BankRail =>
      Object.assign(Object.create(rail) as BankRail, {
        resolve: async (...a: Parameters<BankRail['resolve']>) => {
          await held;
          return rail.resolve(...a);
        },
      });
    const t = await startTestApp({ env: { MAX_REQUESTS_IN_FLIGHT: '1' }, deps: { rail: slow } });
    try {
      const u = await createOnboardedUser(t.app, { fundArs: 1000 });
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      const { port } = t.app.server.address() as { port: number };
      const body = JSON.stringify({ destination: EXTERNAL_CBU });
      const socket = connect(port, '127.0.0.1');
      await new Promise<void>((r) => socket.once('connect', () => r()));
      socket.write(
        `POST /v1/destinations/resolve HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer ${u.ownerToken}\r\n` +
          `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
      );
      await new Promise((r) => setTimeout(r, 100));
      socket.destroy();
      await new Promise((r) => setTimeout(r, 100));
      release();
      await new Promise((r) => setTimeout(r, 100));
      expect((await t.app.inject({ method: 'GET', url: '/v1/balance', headers: bearer(u.ownerToken) })).statusCode).toBe(200);
    } finally {
      await t.close();
    }
  });

  it('a request arriving while the node shuts down answers 503 with Retry-After, counted as shed while closing', async () => {
    const { slow, block, release } = railHeldAtResolve();
    const t = await startTestApp({ deps: { rail: slow } });
    try {
      const u = await createOnboardedUser(t.app, { fundArs: 1000 });
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      const { port } = t.app.server.address() as { port: number };
      block();
      // One connection, busy with a request held at the bank, and a second request on it behind the first (as a
      // client reusing its connection sends it): closing keeps busy connections until their requests end.
      const socket = connect(port, '127.0.0.1');
      await new Promise<void>((r) => socket.once('connect', () => r()));
      let received = '';
      socket.on('data', (d: Buffer) => (received += d.toString()));
      const body = JSON.stringify({ destination: EXTERNAL_CBU });
      socket.write(
        `POST /v1/destinations/resolve HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer ${u.ownerToken}\r\n` +
          `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
      );
      await new Promise((r) => setTimeout(r, 100));
      const closing = t.app.close();
      await new Promise((r) => setTimeout(r, 50));
      socket.write(`GET /v1/balance HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer ${u.ownerToken}\r\n\r\n`);
      release();
      await new Promise<void>((r) => socket.once('close', () => r()));
      const answers = received.split(/(?=HTTP\/1\.1 )/);
      expect(answers[0]).toMatch(/^HTTP\/1\.1 200/);
      expect(answers[1]).toMatch(/^HTTP\/1\.1 503/);
      expect(answers[1]).toMatch(/retry-after: \d+/i);
      expect(answers[1]).toContain('"error":"SERVICE_UNAVAILABLE"');
      expect(await t.app.ctx.metrics.registry.metrics()).toMatch(/requests_shed_total\{reason="closing"\} 1/);
      await closing;
    } finally {
      release();
      await t.close();
    }
  });
});
