import { describe, expect, it } from 'vitest';
import { startTestApp } from '../../../test/helpers.js';
import { holdWrites } from '../../../test/hold-writes.js';
import { ORIGIN, REDIRECT } from '../../../test/oauth-flow.js';

/**
 * The database's "not now" (D42) on the OAuth endpoints: OAuth's own error format (RFC 6749
 * `temporarily_unavailable`) with 503 and Retry-After, as every other surface answers it, not a 500
 * `server_error` that tells a host its request was wrong for good.
 */
describe('OAuth while the database cannot serve', () => {
  it('a client registration that cannot be stored answers 503 temporarily_unavailable with Retry-After; once it can, 201', { timeout: 30_000 }, async () => {
    const t = await startTestApp({ env: { PUBLIC_URL: ORIGIN, DATABASE_LOCK_TIMEOUT_MS: '300' } });
    try {
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      const addr = t.app.server.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      const register = () =>
        fetch(`http://127.0.0.1:${port}/oauth/register`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ client_name: 'Host', scope: 'payouts:read', redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none', grant_types: ['authorization_code'], response_types: ['code'] }),
        });
      const release = await holdWrites(t, 'oauth_records');
      let res: Response;
      try {
        res = await register();
      } finally {
        await release();
      }
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toBe('1');
      const body = (await res.json()) as { error: string; error_description: string };
      expect(body.error).toBe('temporarily_unavailable');
      expect(body.error_description).not.toMatch(/lock|statement|SQLITE|busy|canceling/i);
      expect((await t.app.inject({ method: 'GET', url: '/metrics' })).body).toMatch(/store_unavailable_total\{kind="(lock_timeout|busy)"\} 1/);
      expect((await register()).status).toBe(201);
    } finally {
      await t.close();
    }
  });
});
