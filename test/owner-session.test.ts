import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createOnboardedUser, expectError, PASSWORD, startTestApp, type OnboardedUser, type TestApp } from './helpers.js';

const EVIL = 'https://evil.example';

/**
 * The owner's session is a bearer token the dashboard keeps in the tab (D33), never a cookie: a page of another
 * site can make the browser send a form or a simple fetch, but not the Authorization header, and no CORS answer lets
 * it ask for one. Logging in is bounded per address, and a right password after the budget is refused like a wrong
 * one (no oracle). The owner's token is not an agent credential at /mcp.
 */
describe("the owner's session against another site and a guesser", () => {
  let t: TestApp;
  let u: OnboardedUser;
  beforeAll(async () => {
    t = await startTestApp({ env: { SAFETY_ACTIONS_PER_MINUTE: '5' } });
    u = await createOnboardedUser(t.app, { fundArs: 10_000 });
  });
  afterAll(() => t.close());

  it('a cross-site form post or simple fetch to owner routes, with no bearer, changes nothing', async () => {
    const attempts: { url: string; type: string; body: string }[] = [
      { url: '/v1/payouts/pause', type: 'application/x-www-form-urlencoded', body: '' },
      { url: '/v1/api-keys', type: 'application/x-www-form-urlencoded', body: 'name=evil' },
      { url: '/v1/api-keys', type: 'text/plain', body: '{"name":"evil"}' },
      { url: '/v1/withdraws', type: 'text/plain', body: '{"amount_ars":10,"destination":"2850590940090418135201"}' },
      { url: '/v1/sandbox/kyc', type: 'multipart/form-data; boundary=x', body: '--x\r\nContent-Disposition: form-data; name="status"\r\n\r\npending\r\n--x--\r\n' },
    ];
    for (const a of attempts) {
      // The browser sends the owner's cookies for this origin, if there were any; there are none that authenticate.
      const res = await t.app.inject({ method: 'POST', url: a.url, headers: { origin: EVIL, 'content-type': a.type, cookie: 'session=x' }, payload: a.body });
      expect(res.statusCode, `${a.url} ${a.type}`).toBe(401);
      expect(res.headers['access-control-allow-origin'], a.url).toBeUndefined();
    }
    const pause = await t.app.inject({ method: 'GET', url: '/v1/payouts/pause', headers: bearer(u.ownerToken) });
    expect(pause.json().paused).toBe(false);
    const keys = await t.app.inject({ method: 'GET', url: '/v1/api-keys', headers: bearer(u.ownerToken) });
    expect((keys.json().api_keys as { name: string }[]).map((k) => k.name)).toEqual(['default']);
  });

  it('a preflight from another site is not allowed to send the Authorization header', async () => {
    for (const url of ['/v1/payouts/pause', '/v1/api-keys', '/v1/events/stream', '/v1/login']) {
      const res = await t.app.inject({
        method: 'OPTIONS',
        url,
        headers: { origin: EVIL, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization,content-type' },
      });
      expect(res.headers['access-control-allow-origin'], url).toBeUndefined();
      expect(res.headers['access-control-allow-headers'], url).toBeUndefined();
    }
  });

  it('the token is read from the Authorization header only, never the query or a cookie', async () => {
    for (const req of [
      { url: `/v1/api-keys?access_token=${u.ownerToken}` },
      { url: `/v1/api-keys?token=${u.ownerToken}` },
      { url: '/v1/api-keys', headers: { cookie: `token=${u.ownerToken}; session=${u.ownerToken}` } },
    ]) {
      expectError(await t.app.inject({ method: 'GET', ...req }), 401, 'UNAUTHENTICATED');
    }
  });

  it("the owner's token is no agent credential at /mcp", async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/mcp',
      headers: { ...bearer(u.ownerToken), accept: 'application/json, text/event-stream', 'content-type': 'application/json' },
      payload: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_balance', arguments: {} } },
    });
    expect(res.statusCode).toBe(401);
    expect(res.body).not.toContain('available');
  });

  it('guessing passwords is bounded per address, and the right one past the bound is refused like the rest', async () => {
    const from = { remoteAddress: '198.51.100.23' };
    const login = (password: string, headers: Record<string, string> = {}) =>
      t.app.inject({ method: 'POST', url: '/v1/login', ...from, headers, payload: { email: u.email, password } });
    for (let i = 0; i < 5; i++) expectError(await login(`wrong password ${i}`), 401, 'INVALID_CREDENTIALS');
    expectError(await login(PASSWORD), 429, 'RATE_LIMIT_EXCEEDED');
    // A JWT-shaped bearer skips the early address check (a signed token cannot be guessed); the login is still counted.
    expectError(await login(PASSWORD, { authorization: 'Bearer a.b.c' }), 429, 'RATE_LIMIT_EXCEEDED');
    expectError(await login(PASSWORD, { authorization: `Bearer ${u.ownerToken}` }), 429, 'RATE_LIMIT_EXCEEDED');
    // Another address is unaffected.
    const other = await t.app.inject({ method: 'POST', url: '/v1/login', remoteAddress: '198.51.100.99', payload: { email: u.email, password: PASSWORD } });
    expect(other.statusCode).toBe(200);
  });
});
