import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestStore, createUser, expectError, startTestApp, type TestApp } from '../../test/helpers.js';

const LIMIT = { RATE_LIMIT_PER_MINUTE: '60' };

describe('rate limit per user (D14), in-process counters', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ env: LIMIT });
  });
  afterAll(() => t.close());

  it('the 61st request in a minute gets 429 with Retry-After while another user is unaffected', async () => {
    const [a, b] = [await createUser(t.app), await createUser(t.app)];
    // createUser itself spent 0 user-scoped calls: login and token exchange are counted per address.
    const statuses: number[] = [];
    for (let i = 0; i < 61; i++) {
      const token = i % 2 ? a.agentToken : a.ownerToken; // both sessions of one user share the budget
      statuses.push((await t.app.inject({ method: 'GET', url: '/v1/api-keys', headers: bearer(token) })).statusCode);
    }
    expect(statuses.slice(0, 60).every((s) => s === 200)).toBe(true);
    const res = await t.app.inject({ method: 'GET', url: '/v1/api-keys', headers: bearer(a.ownerToken) });
    expectError(res, 429, 'RATE_LIMIT_EXCEEDED');
    expect(statuses[60]).toBe(429);
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    expect(res.headers['ratelimit-limit']).toBe('60');
    expect(res.headers['ratelimit-remaining']).toBe('0');

    const other = await t.app.inject({ method: 'GET', url: '/v1/api-keys', headers: bearer(b.ownerToken) });
    expect(other.statusCode).toBe(200);
    expect(other.headers['ratelimit-remaining']).toBe('59');
  });

  it('limits unauthenticated endpoints per client address', async () => {
    const from = (ip: string) =>
      t.app.inject({ method: 'POST', url: '/v1/auth/token', remoteAddress: ip, payload: { api_key: 'svc_wrong' } });
    for (let i = 0; i < 60; i++) expect((await from('10.9.9.9')).statusCode).toBe(401);
    expectError(await from('10.9.9.9'), 429, 'RATE_LIMIT_EXCEEDED');
    expect((await from('10.9.9.10')).statusCode).toBe(401);
  });

  it('does not count health checks', async () => {
    for (let i = 0; i < 70; i++) {
      expect((await t.app.inject({ method: 'GET', url: '/healthz', remoteAddress: '10.8.8.8' })).statusCode).toBe(200);
    }
  });
});

describe('rate limit shared through Redis (D14)', () => {
  const redisUrl = process.env.TEST_REDIS_URL;
  if (!redisUrl && process.env.CI === 'true') {
    it('needs TEST_REDIS_URL in CI', () => {
      throw new Error('TEST_REDIS_URL is required when CI=true: the shared rate limit must be proven on Redis');
    });
    return;
  }
  it.runIf(!!redisUrl)('two app instances share one counter per user', async () => {
    const store = await createTestStore();
    const env = { ...LIMIT, REDIS_URL: redisUrl! };
    const one = await startTestApp({ env, store });
    const two = await startTestApp({ env, store });
    try {
      const u = await createUser(one.app);
      for (let i = 0; i < 60; i++) {
        const node = i % 2 ? one : two;
        expect((await node.app.inject({ method: 'GET', url: '/v1/api-keys', headers: bearer(u.ownerToken) })).statusCode).toBe(200);
      }
      expectError(await one.app.inject({ method: 'GET', url: '/v1/api-keys', headers: bearer(u.ownerToken) }), 429, 'RATE_LIMIT_EXCEEDED');
      expectError(await two.app.inject({ method: 'GET', url: '/v1/api-keys', headers: bearer(u.ownerToken) }), 429, 'RATE_LIMIT_EXCEEDED');
      const v = await createUser(two.app);
      expect((await one.app.inject({ method: 'GET', url: '/v1/api-keys', headers: bearer(v.ownerToken) })).statusCode).toBe(200);
    } finally {
      await one.close();
      await two.close();
      await store.drop();
    }
  });
});
