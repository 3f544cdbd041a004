import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bearer,
  createOnboardedUser,
  expectError,
  EXTERNAL_CBU,
  startTestApp,
  withdraw,
  type OnboardedUser,
  type TestApp,
} from '../../../test/helpers.js';

const OTHER_CBU = '0170099220000067797370';

describe('per-agent controls (D31)', () => {
  let t: TestApp;
  let u: OnboardedUser;
  beforeAll(async () => {
    t = await startTestApp();
    u = await createOnboardedUser(t.app, { fundArs: 1_000_000 });
  });
  afterAll(() => t.close());

  const newKey = async (body: Record<string, unknown>) => {
    const res = await t.app.inject({ method: 'POST', url: '/v1/api-keys', headers: bearer(u.ownerToken), payload: { name: 'agent', ...body } });
    expect(res.statusCode).toBe(201);
    const key = res.json();
    const token = (await t.app.inject({ method: 'POST', url: '/v1/auth/token', payload: { api_key: key.key } })).json().token as string;
    return { ...key, token } as { id: string; key: string; token: string; scopes: string[] };
  };

  it('a key created without controls has every scope and no limits of its own', async () => {
    const k = await newKey({});
    expect(k).toMatchObject({
      scopes: ['payouts:write', 'payouts:read', 'wallet:read', 'transfer:write', 'transactions:read', 'thresholds:read', 'thresholds:propose'],
      allowlist: [],
      per_tx_limit_ars: 0,
      daily_limit_ars: 0,
      monthly_limit_ars: 0,
      expires_at: null,
      last_used_at: null,
    });
  });

  it('a key with a daily 10,000: 20 parallel payouts of 1,000 → at most 10 allowed, the rest held for key_daily_limit; another key is unaffected', async () => {
    const limited = await newKey({ daily_limit_ars: 10_000 });
    const results = await Promise.all(Array.from({ length: 20 }, () => withdraw(t.app, limited.token, { amount_ars: 1000, destination: EXTERNAL_CBU })));
    const allowed = results.filter((r) => r.statusCode === 201);
    const held = results.filter((r) => r.statusCode === 202);
    expect(allowed.length + held.length).toBe(20);
    expect(allowed.length).toBe(10);
    for (const h of held) expect(h.json().reasons).toEqual(['key_daily_limit']);
    const other = await newKey({});
    expect((await withdraw(t.app, other.token, { amount_ars: 1000, destination: EXTERNAL_CBU })).statusCode).toBe(201);
    // The owner may override a key limit by approving.
    const approve = await t.app.inject({ method: 'POST', url: `/v1/approvals/${held[0]!.json().approval_id}/approve`, headers: bearer(u.ownerToken) });
    expect(approve.statusCode).toBe(200);
  });

  it('a destination outside the key allowlist is denied with key_allowlist_violation', async () => {
    const k = await newKey({ allowlist: [OTHER_CBU] });
    const res = await withdraw(t.app, k.token, { amount_ars: 10, destination: EXTERNAL_CBU });
    expectError(res, 422, 'PAYOUT_DENIED');
    expect(res.json().reasons).toEqual(['key_allowlist_violation']);
    expect((await withdraw(t.app, k.token, { amount_ars: 10, destination: OTHER_CBU })).statusCode).toBe(201);
  });

  it('scopes are enforced on REST: no payouts:write → 403 on withdraws; a read-only key reads', async () => {
    const readOnly = await newKey({ scopes: ['wallet:read', 'payouts:read'] });
    expectError(await withdraw(t.app, readOnly.token, { amount_ars: 10, destination: EXTERNAL_CBU }), 403, 'INSUFFICIENT_SCOPE');
    expect((await t.app.inject({ method: 'GET', url: '/v1/balance', headers: bearer(readOnly.token) })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/v1/withdraws', headers: bearer(readOnly.token) })).statusCode).toBe(200);
    expectError(await t.app.inject({ method: 'GET', url: '/v1/thresholds', headers: bearer(readOnly.token) }), 403, 'INSUFFICIENT_SCOPE');
    const payer = await newKey({ scopes: ['payouts:write'] });
    expectError(await t.app.inject({ method: 'GET', url: '/v1/balance', headers: bearer(payer.token) }), 403, 'INSUFFICIENT_SCOPE');
    // The owner's session has every scope.
    expect((await t.app.inject({ method: 'GET', url: '/v1/thresholds', headers: bearer(u.ownerToken) })).statusCode).toBe(200);
  });

  it('PATCH changes controls (owner only), takes effect at once, and refuses bad input changing nothing', async () => {
    const k = await newKey({});
    const patch = (token: string, payload: Record<string, unknown>, id = k.id) =>
      t.app.inject({ method: 'PATCH', url: `/v1/api-keys/${id}`, headers: bearer(token), payload });
    expectError(await patch(k.token, { per_tx_limit_ars: 1 }), 403, 'OWNER_SESSION_REQUIRED');
    for (const bad of [
      { scopes: ['payouts:everything'] },
      { allowlist: ['not an account!'] },
      { daily_limit_ars: -1 },
      { per_tx_limit_ars: 1.001 },
      { expires_at: '2001-01-01T00:00:00Z' },
      { expires_at: 'tomorrow' },
      {},
      { surprise: true },
    ]) {
      expectError(await patch(u.ownerToken, bad), 400, 'INVALID_REQUEST');
    }
    // An invalid scope lists the valid ones, creating or changing a key.
    const created = await t.app.inject({ method: 'POST', url: '/v1/api-keys', headers: bearer(u.ownerToken), payload: { name: 'x', scopes: ['payouts:read', 'payout:write'] } });
    for (const res of [created, await patch(u.ownerToken, { scopes: ['admin'] })]) {
      expectError(res, 400, 'INVALID_REQUEST');
      expect(res.json().message).toMatch(/^body\.scopes\.\d+: .*\(one of payouts:write, payouts:read, wallet:read, transfer:write, transactions:read, thresholds:read, thresholds:propose\)$/);
    }
    const before = (await t.app.inject({ method: 'GET', url: '/v1/api-keys', headers: bearer(u.ownerToken) })).json().api_keys.find((x: { id: string }) => x.id === k.id);
    expect(before).toMatchObject({ per_tx_limit_ars: 0, allowlist: [] });
    const ok = await patch(u.ownerToken, { per_tx_limit_ars: 50, name: 'renamed' });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ per_tx_limit_ars: 50, name: 'renamed' });
    const res = await withdraw(t.app, k.token, { amount_ars: 60, destination: EXTERNAL_CBU });
    expect(res.json().reasons).toEqual(['key_per_tx_limit']);
    const other = await createOnboardedUser(t.app);
    expectError(await patch(other.ownerToken, { per_tx_limit_ars: 1 }), 404, 'NOT_FOUND');
    // An agent can never change its own controls, not even through its own key's id.
    expectError(await patch(k.token, { scopes: ['payouts:write'] }), 403, 'OWNER_SESSION_REQUIRED');
  });

  it('an expired key answers 401 everywhere, saying it expired (not deleted): token exchange, its JWTs, MCP', async () => {
    const k = await newKey({ expires_at: new Date(t.clock.now().getTime() + 60_000).toISOString() });
    expect((await t.app.inject({ method: 'GET', url: '/v1/withdraws', headers: bearer(k.token) })).statusCode).toBe(200);
    t.clock.advance(61_000);
    const exchange = await t.app.inject({ method: 'POST', url: '/v1/auth/token', payload: { api_key: k.key } });
    const rest = await t.app.inject({ method: 'GET', url: '/v1/withdraws', headers: bearer(k.token) });
    expectError(exchange, 401, 'INVALID_API_KEY');
    expectError(rest, 401, 'INVALID_TOKEN');
    const mcp = await t.app.inject({
      method: 'POST',
      url: '/mcp',
      headers: { ...bearer(k.key), accept: 'application/json, text/event-stream', 'content-type': 'application/json' },
      payload: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
    });
    expectError(mcp, 401, 'unauthorized');
    for (const res of [exchange, rest, mcp]) {
      expect(res.json().message).toMatch(/expired/);
      expect(res.json().message).not.toMatch(/deleted/);
    }
    // A deleted key still says deleted.
    const gone = await newKey({});
    await t.app.inject({ method: 'DELETE', url: `/v1/api-keys/${gone.id}`, headers: bearer(u.ownerToken) });
    expect((await t.app.inject({ method: 'GET', url: '/v1/withdraws', headers: bearer(gone.token) })).json().message).toMatch(/deleted/);
  });

  it('records when a key was last used', async () => {
    const k = await newKey({});
    await t.app.inject({ method: 'GET', url: '/v1/withdraws', headers: bearer(k.token) });
    const listed = (await t.app.inject({ method: 'GET', url: '/v1/api-keys', headers: bearer(u.ownerToken) })).json().api_keys.find((x: { id: string }) => x.id === k.id);
    expect(listed.last_used_at).toBe(t.clock.now().toISOString());
  });
});
