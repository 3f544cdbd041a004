import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createUser, expectError, startTestApp, type TestApp, type TestUser } from '../../../test/helpers.js';

describe('API keys', () => {
  let t: TestApp;
  let alice: TestUser;
  let bob: TestUser;
  beforeAll(async () => {
    t = await startTestApp();
    [alice, bob] = await Promise.all([createUser(t.app), createUser(t.app)]);
  });
  afterAll(() => t.close());

  const createKey = (token: string, name: string) =>
    t.app.inject({ method: 'POST', url: '/v1/api-keys', headers: bearer(token), payload: { name } });

  it('creates a key whose secret is shown once and usable for a token', async () => {
    const res = await createKey(alice.ownerToken, 'shopping-agent');
    expect(res.statusCode).toBe(201);
    const key = res.json();
    expect(key).toMatchObject({ name: 'shopping-agent' });
    expect(key.id).toMatch(/^key_/);
    expect(key.key).toMatch(/^svc_[A-Za-z0-9_-]{32}$/);
    const tok = await t.app.inject({ method: 'POST', url: '/v1/auth/token', payload: { api_key: key.key } });
    expect(tok.statusCode).toBe(200);
  });

  it('lists keys without their secrets, only the caller’s, to the owner only (D38)', async () => {
    await createKey(alice.ownerToken, 'second');
    expectError(await t.app.inject({ method: 'GET', url: '/v1/api-keys', headers: bearer(alice.agentToken) }), 403, 'OWNER_SESSION_REQUIRED');
    const res = await t.app.inject({ method: 'GET', url: '/v1/api-keys', headers: bearer(alice.ownerToken) });
    expect(res.statusCode).toBe(200);
    const { api_keys } = res.json();
    expect(api_keys.length).toBeGreaterThanOrEqual(2);
    for (const k of api_keys) {
      expect(Object.keys(k).sort()).toEqual(
        ['allowlist', 'created_at', 'daily_limit_ars', 'expires_at', 'id', 'kind', 'last_used_at', 'monthly_limit_ars', 'name', 'per_tx_limit_ars', 'scopes'].sort(),
      );
    }
    expect(res.body).not.toContain('svc_');
    const ids = api_keys.map((k: { id: string }) => k.id);
    expect(ids).toContain(alice.apiKeyId);
    expect(ids).not.toContain(bob.apiKeyId);
  });

  it('rejects a missing or empty name', async () => {
    expectError(await createKey(alice.ownerToken, ''), 400, 'INVALID_REQUEST');
    const res = await t.app.inject({ method: 'POST', url: '/v1/api-keys', headers: bearer(alice.ownerToken), payload: {} });
    expectError(res, 400, 'INVALID_REQUEST');
  });

  it('deletes a key: its exchange and its JWTs stop working, other keys are unaffected (D12)', async () => {
    const created = (await createKey(alice.ownerToken, 'temp')).json();
    const token = (
      await t.app.inject({ method: 'POST', url: '/v1/auth/token', payload: { api_key: created.key } })
    ).json().token;
    const ok = await t.app.inject({ method: 'GET', url: '/v1/payouts/pause', headers: bearer(token) });
    expect(ok.statusCode).toBe(200);

    const del = await t.app.inject({ method: 'DELETE', url: `/v1/api-keys/${created.id}`, headers: bearer(alice.ownerToken) });
    expect(del.statusCode).toBe(204);
    expect(del.body).toBe('');

    expectError(await t.app.inject({ method: 'GET', url: '/v1/payouts/pause', headers: bearer(token) }), 401, 'INVALID_TOKEN');
    expectError(
      await t.app.inject({ method: 'POST', url: '/v1/auth/token', payload: { api_key: created.key } }),
      401,
      'INVALID_API_KEY',
    );
    const list = (await t.app.inject({ method: 'GET', url: '/v1/api-keys', headers: bearer(alice.ownerToken) })).json();
    expect(list.api_keys.map((k: { id: string }) => k.id)).not.toContain(created.id);
    const other = await t.app.inject({ method: 'GET', url: '/v1/payouts/pause', headers: bearer(alice.agentToken) });
    expect(other.statusCode).toBe(200);
  });

  it('answers 404 for another user’s key, an unknown id and an already deleted key', async () => {
    expectError(
      await t.app.inject({ method: 'DELETE', url: `/v1/api-keys/${bob.apiKeyId}`, headers: bearer(alice.ownerToken) }),
      404,
      'NOT_FOUND',
    );
    const bobStill = await t.app.inject({ method: 'POST', url: '/v1/auth/token', payload: { api_key: bob.apiKey } });
    expect(bobStill.statusCode).toBe(200);
    expectError(
      await t.app.inject({ method: 'DELETE', url: '/v1/api-keys/key_nope', headers: bearer(alice.ownerToken) }),
      404,
      'NOT_FOUND',
    );
    const k = (await createKey(alice.ownerToken, 'twice')).json();
    await t.app.inject({ method: 'DELETE', url: `/v1/api-keys/${k.id}`, headers: bearer(alice.ownerToken) });
    expectError(
      await t.app.inject({ method: 'DELETE', url: `/v1/api-keys/${k.id}`, headers: bearer(alice.ownerToken) }),
      404,
      'NOT_FOUND',
    );
  });

  it('an agent session cannot create or delete keys (D28): 403 and nothing changes', async () => {
    const names = async () =>
      (await t.app.inject({ method: 'GET', url: '/v1/api-keys', headers: bearer(alice.ownerToken) })).json().api_keys.map((k: { id: string }) => k.id);
    const before = await names();
    expectError(await createKey(alice.agentToken, 'self-made'), 403, 'OWNER_SESSION_REQUIRED');
    const victim = (await createKey(alice.ownerToken, 'victim')).json();
    expectError(
      await t.app.inject({ method: 'DELETE', url: `/v1/api-keys/${victim.id}`, headers: bearer(alice.agentToken) }),
      403,
      'OWNER_SESSION_REQUIRED',
    );
    expect((await names()).sort()).toEqual([...before, victim.id].sort());
    expect((await t.app.inject({ method: 'POST', url: '/v1/auth/token', payload: { api_key: victim.key } })).statusCode).toBe(200);
  });

  it('the owner revokes an agent’s key: its JWT (REST) and the raw key (MCP) answer 401 at once', async () => {
    const agent = (await createKey(alice.ownerToken, 'rogue-agent')).json();
    const jwt = (await t.app.inject({ method: 'POST', url: '/v1/auth/token', payload: { api_key: agent.key } })).json().token;
    const mcp = (key: string) =>
      t.app.inject({
        method: 'POST',
        url: '/mcp',
        headers: { ...bearer(key), accept: 'application/json, text/event-stream' },
        payload: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
      });
    expect((await t.app.inject({ method: 'GET', url: '/v1/payouts/pause', headers: bearer(jwt) })).statusCode).toBe(200);
    expect((await mcp(agent.key)).statusCode).toBe(200);

    const del = await t.app.inject({ method: 'DELETE', url: `/v1/api-keys/${agent.id}`, headers: bearer(alice.ownerToken) });
    expect(del.statusCode).toBe(204);
    expectError(await t.app.inject({ method: 'GET', url: '/v1/payouts/pause', headers: bearer(jwt) }), 401, 'INVALID_TOKEN');
    expectError(await mcp(agent.key), 401, 'unauthorized');
    expect((await mcp(alice.apiKey)).statusCode).toBe(200);
  });

  it('needs a bearer token on every key route', async () => {
    expectError(await t.app.inject({ method: 'GET', url: '/v1/api-keys' }), 401, 'UNAUTHENTICATED');
    expectError(await t.app.inject({ method: 'POST', url: '/v1/api-keys', payload: { name: 'x' } }), 401, 'UNAUTHENTICATED');
    expectError(await t.app.inject({ method: 'DELETE', url: `/v1/api-keys/${alice.apiKeyId}` }), 401, 'UNAUTHENTICATED');
  });
});
