import { connect } from 'node:net';
import { describe, expect, it, vi } from 'vitest';
import { createOnboardedUser, EXTERNAL_CBU, startTestApp } from './helpers.js';
import { gatedResolve } from './owner-control-kit.js';

/**
 * SIGTERM's shutdown (app.close) on a real socket: the request in flight is finished and answered, and a request
 * that arrives on a connection still open while the node drains is refused in our envelope (D8) with
 * Retry-After (D42), so a client retries elsewhere, as it would any other 503 of ours.
 * Runs on SQLite and (TEST_DATABASE_URL) PostgreSQL.
 */
describe('shutdown', () => {
  it('finishes the payout in flight, and answers a request arriving meanwhile 503 SERVICE_UNAVAILABLE with Retry-After', { timeout: 30_000 }, async () => {
    const g = gatedResolve();
    const t = await startTestApp({ deps: { rail: g.wrap } });
    let closed: Promise<void> | null = null;
    try {
      const u = await createOnboardedUser(t.app, { fundArs: 1_000 });
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      const addr = t.app.server.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      const socket = connect(port, '127.0.0.1');
      let received = '';
      socket.on('data', (d) => (received += String(d)));
      await new Promise((r) => socket.once('connect', r));
      const body = JSON.stringify({ amount_ars: 10, destination: EXTERNAL_CBU });
      g.hold();
      socket.write(
        `POST /v1/withdraws HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\nAuthorization: Bearer ${u.agentToken}\r\n` +
          `Idempotency-Key: in-flight-at-shutdown\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
      );
      await vi.waitFor(() => expect(g.waiting).toBe(1));
      closed = t.app.close();
      await new Promise((r) => setTimeout(r, 50));
      // The same (busy, so not closed) connection sends another request while the node drains.
      socket.write(`GET /v1/balance HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${u.agentToken}\r\n\r\n`);
      await new Promise((r) => setTimeout(r, 50));
      g.release();
      await vi.waitFor(() => expect(received.match(/HTTP\/1\.1 /g)?.length).toBe(2), { timeout: 10_000 });
      await closed;
      socket.destroy();
      const [first, second] = received.split(/(?=HTTP\/1\.1 )/);
      expect(first).toMatch(/^HTTP\/1\.1 201 /);
      expect(second).toMatch(/^HTTP\/1\.1 503 /);
      expect(second).toMatch(/\r\nretry-after: 1\r\n/i);
      expect(second).toMatch(/\r\nx-request-id: /i);
      const envelope = JSON.parse(second!.slice(second!.indexOf('\r\n\r\n') + 4)) as Record<string, unknown>;
      expect(envelope).toEqual({ error: 'SERVICE_UNAVAILABLE', message: expect.any(String) });
    } finally {
      g.release();
      if (closed) await closed.catch(() => undefined);
      await t.close();
    }
  });
});
