import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createOnboardedUser, EXTERNAL_CBU, expectError, startTestApp, type OnboardedUser, type TestApp } from '../../../test/helpers.js';
import { agentsOf, connectApp, finishAuthorization, mcp, ORIGIN, startAuthorization } from '../../../test/oauth-flow.js';

const PAYOUT = { name: 'request_payout', arguments: { amount_ars: 10, destination: EXTERNAL_CBU, idempotency_key: 'step-up-1' } };

/**
 * D44: a host holding a valid token that lacks a tool's scope is told so as MCP authorization asks (scope
 * challenge, 403 insufficient_scope), so it can ask the owner for more; raw keys and REST answer as before.
 */
describe('OAuth step-up: a tool outside the token\'s scopes', () => {
  let t: TestApp;
  let owner: OnboardedUser;

  beforeAll(async () => {
    t = await startTestApp({ env: { PUBLIC_URL: ORIGIN } });
    owner = await createOnboardedUser(t.app, { fundArs: 1_000 });
  });
  afterAll(async () => t.close());

  it('answers 403 with an insufficient_scope challenge naming the scopes it holds and the one it needs; nothing is paid', async () => {
    const app = await connectApp(t.app, owner, { scopes: ['payouts:read'] });
    const res = await mcp(t.app, app.access_token, 'tools/call', PAYOUT);
    expect(res.statusCode, res.body).toBe(403);
    const challenge = res.headers['www-authenticate'] as string;
    expect(challenge).toMatch(/^Bearer /);
    expect(challenge).toContain('error="insufficient_scope"');
    expect(challenge).toContain('scope="payouts:write payouts:read"');
    expect(challenge).toContain(`resource_metadata="${ORIGIN}/.well-known/oauth-protected-resource/mcp"`);
    expectError(res, 403, 'INSUFFICIENT_SCOPE');
    const payouts = await t.app.inject({ url: '/v1/withdraws', headers: bearer(owner.ownerToken) });
    expect(payouts.json().withdraws).toHaveLength(0);
    // What the token may do still works, and an unknown tool stays a JSON-RPC error.
    const read = await mcp(t.app, app.access_token, 'tools/call', { name: 'list_payouts', arguments: {} });
    expect(read.statusCode, read.body).toBe(200);
    expect(read.json().result.isError).toBeFalsy();
    const unknown = await mcp(t.app, app.access_token, 'tools/call', { name: 'no_such_tool', arguments: {} });
    expect(unknown.statusCode).toBe(200);
    expect(unknown.json().error.code).toBe(-32602);
  });

  it('asking the owner again for the missing scope updates the same agent: its earlier tokens end, limits set since are kept', async () => {
    const before = (await agentsOf(t.app, owner)).length;
    const app = await connectApp(t.app, owner, { scopes: ['payouts:read'], daily_limit_ars: 500 });
    expect((await agentsOf(t.app, owner)).length).toBe(before + 1);
    // The owner tightens the agent on the agents screen in the meantime.
    const edited = await t.app.inject({ method: 'PATCH', url: `/v1/api-keys/${app.agent.id}`, headers: bearer(owner.ownerToken), payload: { per_tx_limit_ars: 50 } });
    expect(edited.statusCode, edited.body).toBe(200);
    expect((await mcp(t.app, app.access_token, 'tools/call', PAYOUT)).statusCode).toBe(403);

    // The host asks again, for the scope the challenge named, with the same registration.
    const started = await startAuthorization(t.app, app.clientId, { scope: 'payouts:read payouts:write' });
    // The consent page is told which agent approving updates, and starts from its controls: the form sends every
    // field, so starting from blanks would clear the limits the owner set.
    const shown = await t.app.inject({ url: `/v1/oauth/interactions/${started.uid}`, headers: { ...bearer(owner.ownerToken), cookie: started.cookie } });
    expect(shown.statusCode, shown.body).toBe(200);
    expect(shown.json().agent).toMatchObject({ id: app.agent.id, kind: 'oauth', scopes: ['payouts:read'], daily_limit_ars: 500, per_tx_limit_ars: 50 });
    expect(shown.json().agent).not.toHaveProperty('oauth_grant_id');
    const again = await finishAuthorization(t.app, owner, app.clientId, started, { scopes: ['payouts:read', 'payouts:write'] });
    expect(again.agent.id).toBe(app.agent.id);
    const agents = await agentsOf(t.app, owner);
    expect(agents.length).toBe(before + 1);
    const agent = (await t.app.inject({ url: '/v1/api-keys', headers: bearer(owner.ownerToken) })).json().api_keys.find((k: { id: string }) => k.id === app.agent.id);
    expect(agent).toMatchObject({ scopes: ['payouts:read', 'payouts:write'], daily_limit_ars: 500, per_tx_limit_ars: 50 });
    // One agent, one set of tokens: the earlier ones end at once.
    expect((await mcp(t.app, app.access_token)).statusCode).toBe(401);
    const refreshed = await t.app.inject({
      method: 'POST',
      url: '/oauth/token',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: app.refresh_token, client_id: app.clientId }).toString(),
    });
    expect(refreshed.statusCode).toBe(400);
    const paid = await mcp(t.app, again.access_token, 'tools/call', { ...PAYOUT, arguments: { ...PAYOUT.arguments, idempotency_key: 'step-up-2' } });
    expect(paid.statusCode, paid.body).toBe(200);
    expect(paid.json().result.isError, paid.body).toBeFalsy();
    // Each consent is in the owner's activity log, naming the agent it made or changed (it named none).
    const entries = (await t.app.inject({ url: '/v1/activity?limit=100', headers: bearer(owner.ownerToken) })).json().entries as { action: string; subject_id: string | null }[];
    expect(entries.filter((e) => e.action === 'oauth.approved' && e.subject_id === app.agent.id)).toHaveLength(2);
  });

  it('an app whose agent has expired gets a new agent when it asks again; the expired one is left as it was', async () => {
    const expiresAt = new Date(t.clock.now().getTime() + 3_600_000).toISOString();
    const app = await connectApp(t.app, owner, { scopes: ['payouts:read'], expires_at: expiresAt });
    t.clock.advance(2 * 3_600_000);
    const again = await finishAuthorization(t.app, owner, app.clientId, await startAuthorization(t.app, app.clientId), { scopes: ['payouts:read'] });
    expect(again.agent.id).not.toBe(app.agent.id);
    const listed = (await t.app.inject({ url: '/v1/api-keys', headers: bearer(owner.ownerToken) })).json().api_keys as { id: string; expires_at: string | null }[];
    expect(listed.find((k) => k.id === app.agent.id)?.expires_at).toBe(expiresAt);
    expect((await mcp(t.app, again.access_token)).statusCode).toBe(200);
  });

  it('a raw API key at /mcp keeps its tool result; REST keeps its 403 without a challenge', async () => {
    const created = await t.app.inject({ method: 'POST', url: '/v1/api-keys', headers: bearer(owner.ownerToken), payload: { name: 'reader', scopes: ['payouts:read'] } });
    expect(created.statusCode, created.body).toBe(201);
    const key = created.json().key as string;
    const res = await mcp(t.app, key, 'tools/call', PAYOUT);
    expect(res.statusCode).toBe(200);
    expect(res.json().result.isError).toBe(true);
    expect(res.json().result.content[0].text).toContain('INSUFFICIENT_SCOPE');

    const token = (await t.app.inject({ method: 'POST', url: '/v1/auth/token', payload: { api_key: key } })).json().token;
    const rest = await t.app.inject({ method: 'POST', url: '/v1/withdraws', headers: { ...bearer(token), 'idempotency-key': 'step-up-rest' }, payload: { amount_ars: 10, destination: EXTERNAL_CBU } });
    expectError(rest, 403, 'INSUFFICIENT_SCOPE');
    expect(rest.headers['www-authenticate']).toBeUndefined();
  });
});
