import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/helpers.js';
import { form, pkce, REDIRECT, register } from '../../../test/oauth-flow.js';

const PUBLIC = 'https://wallet.example.com';

/**
 * The only cookies the service sets are the authorization's (the library's interaction cookies and the consent
 * cookie that binds the consent page to the browser that asked, D44); the owner's session itself is a bearer token
 * (D33), never a cookie. With an https PUBLIC_URL (a TLS-terminating proxy in front) they are Secure, whether the
 * proxy is trusted or not and whatever X-Forwarded-Proto says, and always HttpOnly and SameSite, scoped to the one
 * authorization's paths.
 */
describe.each([
  ['trusted', { TRUST_PROXY: 'true' }, { 'x-forwarded-proto': 'https', 'x-forwarded-for': '203.0.113.7' }],
  ['not trusted', {}, {}],
  ['saying http', { TRUST_PROXY: 'true' }, { 'x-forwarded-proto': 'http' }],
])('the authorization cookies behind an https proxy (%s)', (_name, env, headers) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ env: { PUBLIC_URL: PUBLIC, ...env } });
  });
  afterAll(() => t.close());

  it('are Secure, HttpOnly, SameSite=Lax and limited to this authorization', async () => {
    const clientId = await register(t.app);
    const query = form({
      client_id: clientId,
      redirect_uri: REDIRECT,
      response_type: 'code',
      scope: 'payouts:read',
      code_challenge: pkce().challenge,
      code_challenge_method: 'S256',
      resource: `${PUBLIC}/mcp`,
    });
    // As the proxy forwards the browser's request.
    const res = await t.app.inject({ method: 'GET', url: `/oauth/auth?${query}`, headers });
    expect(res.statusCode, res.body).toBe(303);
    expect(res.headers.location).toMatch(/^\/connect\//);
    const cookies = res.cookies;
    expect(cookies.map((c) => c.name).sort()).toEqual(['_interaction', '_interaction.sig', '_interaction_resume', '_interaction_resume.sig', 'oauth_consent']);
    for (const c of cookies) {
      expect(c, c.name).toMatchObject({ secure: true, httpOnly: true, sameSite: 'lax' });
      expect(c.path, c.name).toMatch(/^\/(connect|oauth\/auth|v1\/oauth\/interactions)\/[\w-]+$/);
      expect(c.domain, c.name).toBeUndefined();
    }
  });
});
