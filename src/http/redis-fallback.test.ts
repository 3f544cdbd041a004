import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { bearer, createUser, expectError, startTestApp, type TestApp } from '../../test/helpers.js';

/** A TCP hop in front of Redis that the test can cut and restore, as a network partition would. */
class CuttableProxy {
  private server: net.Server | null = null;
  private sockets = new Set<net.Socket>();
  port = 0;
  /** Connections stay up but requests are dropped: a hung Redis rather than a dead one. */
  blackhole = false;

  constructor(private readonly target: { host: string; port: number }) {}

  async open(): Promise<void> {
    this.server = net.createServer((client) => {
      const upstream = net.connect(this.target);
      for (const s of [client, upstream]) {
        this.sockets.add(s);
        s.on('close', () => this.sockets.delete(s));
        s.on('error', () => s.destroy());
      }
      client.on('data', (d) => {
        if (!this.blackhole) upstream.write(d);
      });
      upstream.pipe(client);
    });
    await new Promise<void>((resolve) => this.server!.listen(this.port, '127.0.0.1', resolve));
    this.port = (this.server.address() as net.AddressInfo).port;
  }

  async cut(): Promise<void> {
    const closed = new Promise<void>((resolve) => this.server!.close(() => resolve()));
    for (const s of this.sockets) s.destroy();
    await closed;
  }
}

async function freePort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const port = (s.address() as net.AddressInfo).port;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}

async function eventually(probe: () => Promise<boolean>, ms = 8_000): Promise<void> {
  const until = Date.now() + ms;
  while (!(await probe())) {
    if (Date.now() > until) throw new Error('condition not reached in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}

const readyz = (t: TestApp) => t.app.inject({ method: 'GET', url: '/readyz' });
const healthz = (t: TestApp) => t.app.inject({ method: 'GET', url: '/healthz' });

function expectDegraded(res: Awaited<ReturnType<typeof readyz>>): void {
  expectError(res, 503, 'SERVICE_UNAVAILABLE');
  expect(res.json().message).toMatch(/redis/i);
  // D8: no internals (addresses, driver messages) in a 5xx.
  expect(res.json().message).not.toMatch(/127\.0\.0\.1|ECONNREFUSED/);
}

describe('Redis unreachable: the limiter counts in process (D30)', () => {
  it('starts without Redis, answers every request, still limits, and /readyz names redis while /healthz is 200', async () => {
    const t = await startTestApp({ env: { RATE_LIMIT_PER_MINUTE: '5', REDIS_URL: `redis://127.0.0.1:${await freePort()}` } });
    try {
      expect((await healthz(t)).statusCode).toBe(200);
      expectDegraded(await readyz(t));
      const u = await createUser(t.app);
      const statuses: number[] = [];
      for (let i = 0; i < 6; i++) {
        statuses.push((await t.app.inject({ method: 'GET', url: '/v1/thresholds', headers: bearer(u.agentToken) })).statusCode);
      }
      expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    } finally {
      await t.close();
    }
  });

  describe('Redis lost mid-run and back', () => {
    const redisUrl = process.env.TEST_REDIS_URL;
    if (!redisUrl && process.env.CI === 'true') {
      it('needs TEST_REDIS_URL in CI', () => {
        throw new Error('TEST_REDIS_URL is required when CI=true: the Redis fallback must be proven against a real Redis');
      });
      return;
    }
    it.runIf(!!redisUrl)('no request answers 500; readyz is 503 while Redis is away and 200 once it is back', async () => {
      const target = new URL(redisUrl!);
      const proxy = new CuttableProxy({ host: target.hostname, port: Number(target.port || 6379) });
      await proxy.open();
      const t = await startTestApp({ env: { RATE_LIMIT_PER_MINUTE: '1000', REDIS_URL: `redis://127.0.0.1:${proxy.port}` } });
      try {
        expect((await readyz(t)).json()).toEqual({ status: 'ok' });
        const u = await createUser(t.app);
        const get = () => t.app.inject({ method: 'GET', url: '/v1/thresholds', headers: bearer(u.agentToken) });
        expect((await get()).headers['ratelimit-remaining']).toBe('999');

        await proxy.cut();
        const during: number[] = [];
        await eventually(async () => {
          during.push((await get()).statusCode);
          return (await readyz(t)).statusCode === 503;
        });
        for (let i = 0; i < 20; i++) during.push((await get()).statusCode);
        expect(during.every((s) => s === 200)).toBe(true);
        expectDegraded(await readyz(t));
        expect((await healthz(t)).json()).toEqual({ status: 'ok' });
        // Bad credentials are still counted and refused normally while degraded.
        expectError(await t.app.inject({ method: 'GET', url: '/v1/thresholds', headers: bearer('not.a.jwt') }), 401, 'INVALID_TOKEN');

        await proxy.open(); // same port: the client reconnects by itself
        await eventually(async () => (await readyz(t)).statusCode === 200);
        // Shared again: the count continues from Redis, where the in-process requests were not recorded.
        expect((await get()).headers['ratelimit-remaining']).toBe('998');

        proxy.blackhole = true; // hung: each command waits for the client's timeout, then counts in process
        const started = Date.now();
        expect((await get()).statusCode).toBe(200);
        expect(Date.now() - started).toBeLessThan(3_000);
        expectDegraded(await readyz(t));
        expect((await get()).statusCode).toBe(200);
      } finally {
        await t.close();
        await proxy.cut().catch(() => {});
      }
    });
  });
});

describe('the Redis client from its first moment (D42)', () => {
  it('listens for errors before the limiter is built: a Redis that cannot be reached meanwhile ends nothing', async () => {
    const { connectRedis } = await import('./rate-limit.js');
    const client = connectRedis('redis://127.0.0.1:1');
    try {
      expect(client.listenerCount('error')).toBeGreaterThan(0);
      // ioredis emits its connection errors; with no listener it would print them outside the log.
      await new Promise((r) => setTimeout(r, 200));
    } finally {
      client.disconnect();
    }
  });
});
