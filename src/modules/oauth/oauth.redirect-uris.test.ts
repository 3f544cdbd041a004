import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/helpers.js';

/**
 * MCP authorization, Communication Security: every redirect URI is localhost or https. A code sent over plain
 * http to a routable host travels the network in the clear; registration refuses it, and schemes no browser
 * should be sent to.
 */
describe('OAuth registration: where a code may be sent', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ env: { PUBLIC_URL: 'http://localhost' } });
  });
  afterAll(async () => t.close());

  const reg = (redirect: string) =>
    t.app.inject({
      method: 'POST',
      url: '/oauth/register',
      payload: { client_name: 'Host', redirect_uris: [redirect], token_endpoint_auth_method: 'none', grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'] },
    });

  it('refuses plain http to a routable host, script and data schemes, and fragments', async () => {
    for (const bad of ['http://attacker.example/cb', 'http://10.0.0.5/cb', 'javascript:alert(1)//', 'data:text/html,hi', 'https://host.example/cb#frag']) {
      const res = await reg(bad);
      expect(res.statusCode, `${bad}: ${res.body}`).toBe(400);
      expect(res.json().error, bad).toMatch(/^invalid_(redirect_uri|client_metadata)$/);
    }
  });

  it('takes https anywhere and http on the loopback', async () => {
    for (const good of ['https://host.example/cb', 'http://127.0.0.1:9999/cb', 'http://localhost:9999/cb', 'http://[::1]:9999/cb']) {
      const res = await reg(good);
      expect(res.statusCode, `${good}: ${res.body}`).toBe(201);
    }
  });
});
