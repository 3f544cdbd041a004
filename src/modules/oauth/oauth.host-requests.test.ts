import { randomUUID } from 'node:crypto';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOnboardedUser, startTestApp, type OnboardedUser, type TestApp } from '../../../test/helpers.js';
import { agentsOf, finishAuthorization, form, mcp, ORIGIN, REDIRECT, register, RESOURCE, startAuthorization } from '../../../test/oauth-flow.js';

/**
 * What real MCP hosts send that the plain flow does not: `openid` among the scopes (hosts that read the server's
 * OpenID metadata add it), a DPoP proof at the token endpoint, and headers naming another host.
 */
describe('OAuth: requests hosts make beyond the plain flow', () => {
  let t: TestApp;
  let owner: OnboardedUser;

  beforeAll(async () => {
    t = await startTestApp({ env: { PUBLIC_URL: ORIGIN } });
    owner = await createOnboardedUser(t.app, { fundArs: 1_000 });
  });
  afterAll(async () => t.close());

  it('an app asking for `openid` too connects with one consent; it gets no ID token, and a second connection keeps one agent', async () => {
    // Such a host registers with the scopes the server's metadata lists, `openid` among them.
    const registered = await t.app.inject({
      method: 'POST',
      url: '/oauth/register',
      payload: { client_name: 'OpenID-minded host', scope: 'openid offline_access payouts:read', redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none' },
    });
    expect(registered.statusCode, registered.body).toBe(201);
    const clientId = registered.json().client_id as string;
    const before = (await agentsOf(t.app, owner)).length;
    const first = await finishAuthorization(t.app, owner, clientId, await startAuthorization(t.app, clientId, { scope: 'openid payouts:read' }), { scopes: ['payouts:read'] });
    expect(first.access_token).toBeTruthy();
    expect(first).not.toHaveProperty('id_token');
    expect((await mcp(t.app, first.access_token, 'tools/call', { name: 'list_payouts', arguments: {} })).statusCode).toBe(200);
    // The same app asks again (it lost its tokens, say): one consent again, the same agent, working tokens.
    const again = await finishAuthorization(t.app, owner, clientId, await startAuthorization(t.app, clientId, { scope: 'openid payouts:read' }), { scopes: ['payouts:read'] });
    expect(again.agent.id).toBe(first.agent.id);
    expect((await mcp(t.app, again.access_token, 'tools/call', { name: 'list_payouts', arguments: {} })).statusCode).toBe(200);
    expect((await agentsOf(t.app, owner)).length).toBe(before + 1);
  });

  it('DPoP is not offered: the metadata does not advertise it, and a token asked for with a proof is a plain bearer token', async () => {
    const meta = (await t.app.inject({ url: '/.well-known/oauth-authorization-server' })).json();
    expect(meta).not.toHaveProperty('dpop_signing_alg_values_supported');
    const clientId = await register(t.app);
    const started = await startAuthorization(t.app, clientId, { scope: 'wallet:read' });
    const approved = await t.app.inject({ method: 'POST', url: `/v1/oauth/interactions/${started.uid}/approve`, headers: { authorization: `Bearer ${owner.ownerToken}`, cookie: started.cookie }, payload: {} });
    expect(approved.statusCode, approved.body).toBe(200);
    const resumed = await t.app.inject({ url: new URL(approved.json().redirect_to).pathname, headers: { cookie: started.cookie } });
    const code = new URL(resumed.headers.location as string).searchParams.get('code')!;
    const { privateKey, publicKey } = await generateKeyPair('ES256');
    const jwk = await exportJWK(publicKey);
    const proof = await new SignJWT({ htm: 'POST', htu: `${ORIGIN}/oauth/token`, jti: randomUUID() }).setProtectedHeader({ alg: 'ES256', typ: 'dpop+jwt', jwk }).setIssuedAt().sign(privateKey);
    const token = await t.app.inject({
      method: 'POST',
      url: '/oauth/token',
      headers: { 'content-type': 'application/x-www-form-urlencoded', dpop: proof },
      payload: form({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT, client_id: clientId, code_verifier: started.verifier, resource: RESOURCE }),
    });
    expect(token.statusCode, token.body).toBe(200);
    // Bound to a key /mcp would never ask a proof of, the token would work without the key anyway.
    expect(token.json().token_type).toBe('Bearer');
    expect((await mcp(t.app, token.json().access_token, 'tools/call', { name: 'get_balance', arguments: {} })).statusCode).toBe(200);
  });

  it.each([
    ['a Host of its own', { host: 'evil.example' }],
    ['X-Forwarded-Host and -Proto', { 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https' }],
  ])('the metadata names the endpoints at PUBLIC_URL whatever the request carries (%s)', async (_name, headers) => {
    for (const url of ['/.well-known/oauth-authorization-server', '/.well-known/openid-configuration']) {
      const meta = (await t.app.inject({ url, headers })).json();
      expect(meta.issuer).toBe(ORIGIN);
      for (const key of ['authorization_endpoint', 'token_endpoint', 'registration_endpoint', 'revocation_endpoint', 'jwks_uri']) {
        expect(meta[key], key).toMatch(new RegExp(`^${ORIGIN}/oauth/`));
      }
    }
  });
});

describe('OAuth behind a proxy named in TRUST_PROXY, with an https PUBLIC_URL', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ env: { PUBLIC_URL: 'https://pay.example.com', TRUST_PROXY: '10.0.0.1' } });
  });
  afterAll(async () => t.close());

  it('a caller that is not the proxy cannot choose the host the metadata names, and the endpoints are https', async () => {
    const meta = (await t.app.inject({ url: '/.well-known/oauth-authorization-server', headers: { 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'http' } })).json();
    expect(meta.issuer).toBe('https://pay.example.com');
    expect(meta.token_endpoint).toBe('https://pay.example.com/oauth/token');
    expect(meta.authorization_endpoint).toBe('https://pay.example.com/oauth/auth');
  });
});
