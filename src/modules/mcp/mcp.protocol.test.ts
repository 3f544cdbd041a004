import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { bearer, createOnboardedUser, EXTERNAL_CBU, expectError, startTestApp, type OnboardedUser, type TestApp } from '../../../test/helpers.js';

const ACCEPT = { accept: 'application/json, text/event-stream' };

describe('MCP by the book: Origin, parse errors, no batches', () => {
  let t: TestApp;
  let u: OnboardedUser;
  beforeAll(async () => {
    t = await startTestApp({ env: { RATE_LIMIT_PER_MINUTE: '60', ALLOWED_HOSTS: 'localhost,wallet.example' } });
  });
  afterAll(() => t.close());

  const post = (headers: Record<string, string>, payload: unknown) =>
    t.app.inject({ method: 'POST', url: '/mcp', headers: { ...bearer(u.apiKey), ...ACCEPT, 'content-type': 'application/json', ...headers }, payload: typeof payload === 'string' ? payload : JSON.stringify(payload) });
  const payoutCall = (i: number) => ({
    jsonrpc: '2.0',
    id: i,
    method: 'tools/call',
    params: { name: 'request_payout', arguments: { amount_ars: 1, destination: EXTERNAL_CBU, idempotency_key: `batch-${i}` } },
  });
  const payouts = async () => (await t.app.ctx.store.db.selectFrom('payouts').select('id').where('user_id', '=', u.id).execute()).length;
  const audited = async () =>
    (await t.app.ctx.store.db.selectFrom('audit_log').select('id').where('user_id', '=', u.id).where('action', 'like', 'mcp.%').execute()).length;

  // Each test has a fresh user, so each starts with a known budget.
  beforeEach(async () => {
    u = await createOnboardedUser(t.app, { fundArs: 1000 });
  });

  it('a foreign Origin gets 403 and nothing runs; no Origin (server-side agents) and the service’s own host are allowed', async () => {
    const foreign = await post({ origin: 'https://evil.example' }, payoutCall(1));
    expectError(foreign, 403, 'FORBIDDEN');
    expectError(await post({ origin: 'null' }, payoutCall(1)), 403, 'FORBIDDEN');
    // Same host name on another port is another origin.
    expectError(await post({ host: 'wallet.example', origin: 'https://wallet.example:8443' }, payoutCall(1)), 403, 'FORBIDDEN');
    expect(await payouts()).toBe(0);

    const list = { jsonrpc: '2.0', id: 2, method: 'tools/list' };
    expect((await post({}, list)).statusCode).toBe(200);
    expect((await post({ host: 'wallet.example:3000', origin: 'http://wallet.example:3000' }, list)).statusCode).toBe(200);
  });

  it('a foreign Host is refused even with a matching Origin (DNS rebinding, D41), and nothing runs', async () => {
    for (const headers of [{ host: 'rebound.example:3000', origin: 'http://rebound.example:3000' }, { host: 'rebound.example:3000' }, { host: 'wallet.example.evil.com' }] as Record<string, string>[]) {
      const res = await post(headers, payoutCall(1));
      expectError(res, 403, 'FORBIDDEN');
      expect(res.json().message, res.body).toMatch(/^Host .* \(ALLOWED_HOSTS\)$/);
    }
    expect(await payouts()).toBe(0);
    expect(await audited()).toBe(0);
  });

  it('malformed JSON is a JSON-RPC parse error (-32700), not our REST envelope', async () => {
    for (const body of ['{"jsonrpc":"2.0",', '']) {
      const res = await post({}, body);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32700, message: expect.any(String) } });
    }
    // Still authenticated first: a bad key is the usual 401.
    const anon = await t.app.inject({ method: 'POST', url: '/mcp', headers: { ...ACCEPT, 'content-type': 'application/json' }, payload: '{' });
    expectError(anon, 401, 'unauthorized');
  });

  it('a tools/call with malformed params is invalid params (-32602) naming the field, not an internal error; nothing runs', async () => {
    const cases: [unknown, RegExp][] = [
      [{ name: 'request_payout', arguments: [1, 2] }, /^params\.arguments: /],
      [{ name: 'get_balance', arguments: 'x' }, /^params\.arguments: /],
      [{ name: 5 }, /^params\.name: /],
      [{}, /^params\.name: /],
      ['x', /^params: /],
    ];
    for (const [params, message] of cases) {
      const res = await post({}, { jsonrpc: '2.0', id: 7, method: 'tools/call', params });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json(), res.body).toEqual({ jsonrpc: '2.0', id: 7, error: { code: -32602, message: expect.stringMatching(message) } });
    }
    expect(await payouts()).toBe(0);
    expect(await audited()).toBe(0);
  });

  it('a JSON-RPC batch is refused outright (MCP 2025-06-18): 100 tool calls, more than the budget of 60, execute nothing and cost one request', async () => {
    const list = { jsonrpc: '2.0', id: 1, method: 'tools/list' };
    const before = Number((await post({}, list)).headers['ratelimit-remaining']);
    const res = await post({}, Array.from({ length: 100 }, (_, i) => payoutCall(i)));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32600, message: expect.stringMatching(/batch/i) } });
    expect(Number(res.headers['ratelimit-remaining'])).toBe(before - 1);
    expect(await payouts()).toBe(0);
    expect(await audited()).toBe(0);
    expect((await post({}, [])).json().error.code).toBe(-32600);
    expect((await post({}, [payoutCall(1)])).json().error.code).toBe(-32600);
    expect(await payouts()).toBe(0);
  });
});

describe('ALLOWED_HOSTS by default: the listen address and the localhost forms, with the listen port (D41)', () => {
  let t: TestApp;
  beforeAll(async () => {
    // Empty is unset: the default for HOST 127.0.0.1 and PORT 3000.
    t = await startTestApp({ env: { ALLOWED_HOSTS: '', PORT: '3000' } });
  });
  afterAll(() => t.close());

  it('answers 127.0.0.1, localhost and [::1] on the listen port; refuses other ports and names', async () => {
    const u = await createOnboardedUser(t.app);
    const list = (host: string) =>
      t.app.inject({
        method: 'POST',
        url: '/mcp',
        headers: { ...bearer(u.apiKey), ...ACCEPT, 'content-type': 'application/json', host },
        payload: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });
    for (const host of ['127.0.0.1:3000', 'localhost:3000', 'LOCALHOST:3000', '[::1]:3000']) expect((await list(host)).statusCode, host).toBe(200);
    for (const host of ['localhost:80', 'localhost', 'evil.example:3000', '10.0.0.5:3000']) expectError(await list(host), 403, 'FORBIDDEN');
  });
});
