import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createOnboardedUser, EXTERNAL_CBU, expectError, startTestApp, type OnboardedUser, type TestApp } from '../../../test/helpers.js';
import { connectApp, finishAuthorization, form, mcp, ORIGIN, REDIRECT, register, RESOURCE, startAuthorization } from '../../../test/oauth-flow.js';

describe('MCP authorization by OAuth', () => {
  let t: TestApp;
  let owner: OnboardedUser;

  beforeAll(async () => {
    t = await startTestApp({ env: { PUBLIC_URL: ORIGIN } });
    owner = await createOnboardedUser(t.app, { fundArs: 100_000 });
  });
  afterAll(async () => t.close());

  it('publishes resource and authorization-server metadata; a 401 from /mcp points at them', async () => {
    for (const url of ['/.well-known/oauth-protected-resource', '/.well-known/oauth-protected-resource/mcp']) {
      const prm = (await t.app.inject({ url })).json();
      expect(prm).toMatchObject({ resource: RESOURCE, authorization_servers: [ORIGIN] });
      expect(prm.scopes_supported).toContain('payouts:write');
    }
    const as = (await t.app.inject({ url: '/.well-known/oauth-authorization-server' })).json();
    expect(as).toMatchObject({
      issuer: ORIGIN,
      authorization_endpoint: `${ORIGIN}/oauth/auth`,
      token_endpoint: `${ORIGIN}/oauth/token`,
      registration_endpoint: `${ORIGIN}/oauth/register`,
      code_challenge_methods_supported: ['S256'],
      client_id_metadata_document_supported: true,
    });
    const res = await mcp(t.app, '');
    expect(res.statusCode).toBe(401);
    expect(res.headers['www-authenticate']).toContain(`resource_metadata="${ORIGIN}/.well-known/oauth-protected-resource/mcp"`);
    expect(res.headers['www-authenticate']).toContain('scope="payouts:write');
  });

  it('connects an app as an agent: its tokens act as the key the owner shaped, refresh rotates', async () => {
    const app = await connectApp(t.app, owner, { daily_limit_ars: 300, scopes: ['payouts:write', 'payouts:read'] });
    expect(app.scope.split(' ').sort()).toEqual(['payouts:read', 'payouts:write']);
    expect(app.refresh_token).toBeTruthy();
    const list = await mcp(t.app, app.access_token);
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json().result.tools.length).toBeGreaterThan(3);

    const keys = (await t.app.inject({ url: '/v1/api-keys', headers: bearer(owner.ownerToken) })).json().api_keys;
    expect(keys.find((k: { id: string }) => k.id === app.agent.id)).toMatchObject({ kind: 'oauth', name: 'Claude Test Host', daily_limit_ars: 300 });

    // A payout through the token carries the agent; its own daily limit applies.
    const paid = await mcp(t.app, app.access_token, 'tools/call', {
      name: 'request_payout',
      arguments: { amount_ars: 200, destination: EXTERNAL_CBU, idempotency_key: 'oauth-1' },
    });
    const payoutId = paid.json().result.structuredContent.id;
    const payout = await t.app.inject({ url: `/v1/withdraws/${payoutId}`, headers: bearer(owner.ownerToken) });
    expect(payout.json()).toMatchObject({ api_key_id: app.agent.id, api_key_name: 'Claude Test Host' });
    const over = await mcp(t.app, app.access_token, 'tools/call', {
      name: 'request_payout',
      arguments: { amount_ars: 200, destination: EXTERNAL_CBU, idempotency_key: 'oauth-2' },
    });
    expect(over.json().result.structuredContent).toMatchObject({ decision: 'require_approval', reasons: ['key_daily_limit'] });
    // Scopes the owner did not give are refused, as a scope challenge (oauth.step-up.test.ts).
    const balance = await mcp(t.app, app.access_token, 'tools/call', { name: 'get_balance', arguments: {} });
    expectError(balance, 403, 'INSUFFICIENT_SCOPE');

    const refreshBody = { grant_type: 'refresh_token', refresh_token: app.refresh_token, client_id: app.clientId, resource: RESOURCE };
    const refreshed = await t.app.inject({ method: 'POST', url: '/oauth/token', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: form(refreshBody) });
    expect(refreshed.statusCode, refreshed.body).toBe(200);
    expect(refreshed.json().refresh_token).not.toBe(app.refresh_token);
    expect((await mcp(t.app, refreshed.json().access_token)).statusCode).toBe(200);
  });

  it('refuses an authorization without PKCE, with plain PKCE, or to an unregistered redirect URI', async () => {
    const clientId = await register(t.app);
    const missing = await startAuthorization(t.app, clientId, { code_challenge: '', code_challenge_method: '' });
    expect(missing.uid).toBeUndefined();
    expect(missing.res.headers.location ?? '').toContain('error=invalid_request');
    const plain = await startAuthorization(t.app, clientId, { code_challenge_method: 'plain', code_challenge: 'a'.repeat(43) });
    expect(plain.uid).toBeUndefined();
    expect(plain.res.headers.location ?? '').toContain('error=invalid_request');
    const elsewhere = await startAuthorization(t.app, clientId, { redirect_uri: 'http://127.0.0.1:7777/evil' });
    expect(elsewhere.uid).toBeUndefined();
    expect(elsewhere.res.statusCode).toBe(400);
    expect(elsewhere.res.headers.location).toBeUndefined();
  });

  it('refuses a code used twice and revokes what it gave', async () => {
    const app = await connectApp(t.app, owner);
    const again = await t.app.inject({ method: 'POST', url: '/oauth/token', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: form(app.tokenBody) });
    expect(again.statusCode).toBe(400);
    expect(again.json().error).toBe('invalid_grant');
    expect((await mcp(t.app, app.access_token)).statusCode).toBe(401);
  });

  it('issues tokens for the MCP resource only, and /mcp takes no other token', async () => {
    const clientId = await register(t.app);
    const other = await startAuthorization(t.app, clientId, { resource: 'https://other.example/api' });
    expect(other.uid).toBeUndefined();
    expect(other.res.headers.location ?? '').toContain('error=invalid_target');
    // The REST JWT of an agent, and of the owner, are not MCP credentials.
    expect((await mcp(t.app, owner.agentToken)).statusCode).toBe(401);
    expect((await mcp(t.app, owner.ownerToken)).statusCode).toBe(401);
    // And an OAuth token is not a REST credential.
    const app = await connectApp(t.app, owner);
    expectError(await t.app.inject({ url: '/v1/balance', headers: bearer(app.access_token) }), 401, 'INVALID_TOKEN');
  });

  it('takes consent from the owner only', async () => {
    const clientId = await register(t.app);
    const { uid, cookie } = await startAuthorization(t.app, clientId);
    expectError(await t.app.inject({ method: 'POST', url: `/v1/oauth/interactions/${uid}/approve`, headers: bearer(owner.agentToken), payload: {} }), 403, 'OWNER_SESSION_REQUIRED');
    expectError(await t.app.inject({ url: `/v1/oauth/interactions/${uid}`, headers: bearer(owner.agentToken) }), 403, 'OWNER_SESSION_REQUIRED');
    expectError(await t.app.inject({ method: 'POST', url: `/v1/oauth/interactions/${uid}/approve`, payload: {} }), 401, 'UNAUTHENTICATED');
    const view = await t.app.inject({ url: `/v1/oauth/interactions/${uid}`, headers: { ...bearer(owner.ownerToken), cookie } });
    expect(view.json()).toMatchObject({ uid, client: { client_id: clientId, client_name: 'Claude Test Host' }, redirect_uri: REDIRECT, resource: RESOURCE, agent: null });
    expectError(await t.app.inject({ url: '/v1/oauth/interactions/nope', headers: bearer(owner.ownerToken) }), 404, 'NOT_FOUND');
  });

  it('an app whose registered name would mislead the owner (bidi controls) is named by its client id (D39)', async () => {
    const clientId = await register(t.app, 'Pagos\u202Eetsenoh');
    const { uid, cookie } = await startAuthorization(t.app, clientId);
    const approved = await t.app.inject({ method: 'POST', url: `/v1/oauth/interactions/${uid}/approve`, headers: { ...bearer(owner.ownerToken), cookie }, payload: {} });
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json().agent.name).toBe(clientId);
  });

  it('a denial tells the app access_denied and creates no agent', async () => {
    const before = (await t.app.inject({ url: '/v1/api-keys', headers: bearer(owner.ownerToken) })).json().api_keys.length;
    const clientId = await register(t.app);
    const { uid, cookie } = await startAuthorization(t.app, clientId);
    const denied = await t.app.inject({ method: 'POST', url: `/v1/oauth/interactions/${uid}/deny`, headers: { ...bearer(owner.ownerToken), cookie } });
    expect(denied.statusCode, denied.body).toBe(200);
    const resumed = await t.app.inject({ url: new URL(denied.json().redirect_to).pathname, headers: { cookie } });
    expect(resumed.headers.location).toContain('error=access_denied');
    expect((await t.app.inject({ url: '/v1/api-keys', headers: bearer(owner.ownerToken) })).json().api_keys.length).toBe(before);
  });

  it('an app that asks no permission of /mcp (no scope, or offline_access only) gets what the owner picks, not access_denied after the approval', async () => {
    for (const scope of ['', 'offline_access']) {
      const clientId = await register(t.app);
      const app = await finishAuthorization(t.app, owner, clientId, await startAuthorization(t.app, clientId, { scope }), { scopes: ['wallet:read'] });
      expect(app.scope.split(' '), scope).toContain('wallet:read');
      expect(app.scope, scope).not.toContain('payouts:write');
      const balance = await mcp(t.app, app.access_token, 'tools/call', { name: 'get_balance', arguments: {} });
      expect(balance.statusCode, balance.body).toBe(200);
      expect(balance.json().result.structuredContent).toMatchObject({ asset: 'ARS' });
      expectError(await mcp(t.app, app.access_token, 'tools/call', { name: 'list_payouts', arguments: {} }), 403, 'INSUFFICIENT_SCOPE');
    }
  });

  it('a revoked or expired grant is refused on the next call, refresh included', async () => {
    const revoked = await connectApp(t.app, owner);
    expect((await mcp(t.app, revoked.access_token)).statusCode).toBe(200);
    const del = await t.app.inject({ method: 'DELETE', url: `/v1/api-keys/${revoked.agent.id}`, headers: bearer(owner.ownerToken) });
    expect(del.statusCode).toBe(204);
    expect((await mcp(t.app, revoked.access_token)).statusCode).toBe(401);
    const refresh = (a: { refresh_token: string; clientId: string }) =>
      t.app.inject({
        method: 'POST',
        url: '/oauth/token',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: form({ grant_type: 'refresh_token', refresh_token: a.refresh_token, client_id: a.clientId, resource: RESOURCE }),
      });
    expect((await refresh(revoked)).json().error).toBe('invalid_grant');

    const expiring = await connectApp(t.app, owner, { expires_at: new Date(t.clock.now().getTime() + 60_000).toISOString() });
    expect((await mcp(t.app, expiring.access_token)).statusCode).toBe(200);
    t.clock.advance(61_000);
    expect((await mcp(t.app, expiring.access_token)).statusCode).toBe(401);
    expect((await refresh(expiring)).json().error).toBe('invalid_grant');
  });

  it('keeps raw API keys working at /mcp', async () => {
    expect((await mcp(t.app, owner.apiKey)).statusCode).toBe(200);
  });
});
