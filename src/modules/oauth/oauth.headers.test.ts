import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/helpers.js';
import { REDIRECT, register } from '../../../test/oauth-flow.js';

/**
 * Every response is never framed and never content-sniffed (web.ts), the OAuth library's too: its pages are shown
 * to the person in the browser (an authorization it refuses, a form that posts a code to the app), and a page of
 * another site must not frame them.
 */
describe("the OAuth library's responses", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ env: { PUBLIC_URL: 'http://localhost' } });
  });
  afterAll(() => t.close());

  it('carry X-Frame-Options DENY and nosniff, pages and documents alike', async () => {
    const clientId = await register(t.app);
    const urls = [
      // The library's own error page: an authorization without PKCE.
      `/oauth/auth?client_id=${clientId}&redirect_uri=${encodeURIComponent(REDIRECT)}&response_type=code&scope=payouts:read`,
      '/oauth/auth?client_id=nope',
      '/.well-known/oauth-authorization-server',
      '/oauth/jwks',
    ];
    for (const url of urls) {
      const res = await t.app.inject({ url });
      expect(res.headers['x-frame-options'], url).toBe('DENY');
      expect(res.headers['x-content-type-options'], url).toBe('nosniff');
    }
  });
});
