import { describe, expect, it } from 'vitest';
import { bearer, createOnboardedUser, startTestApp } from '../../../test/helpers.js';
import { holdWrites } from '../../../test/hold-writes.js';
import { agentsOf, connectApp, mcp, ORIGIN, REDIRECT } from '../../../test/oauth-flow.js';

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

/**
 * D42: a 503 says nothing of the request was kept. Deleting an app's agent commits the delete first and then ends
 * its grant's records; the store failing at that second step must not answer 503 for a delete that was kept (the
 * owner's retry would then be told the agent does not exist). The agent is cut off by the delete itself: its tokens
 * act only through a live agent. PostgreSQL: only there can the grant's table be held while the key's is not.
 */
describe.runIf(process.env.TEST_DATABASE_URL)('revoking an app connected by OAuth while its grant records cannot be written', () => {
  it('answers 204 for the delete it made, and the app is cut off at once', { timeout: 30_000 }, async () => {
    const t = await startTestApp({ env: { PUBLIC_URL: ORIGIN, DATABASE_LOCK_TIMEOUT_MS: '300' } });
    try {
      const u = await createOnboardedUser(t.app);
      const connected = await connectApp(t.app, u, { scopes: ['payouts:read', 'wallet:read'] });
      const agentId = (await agentsOf(t.app, u)).find((a) => a.kind === 'oauth')!.id;
      const release = await holdWrites(t, 'oauth_records');
      let res;
      try {
        res = await t.app.inject({ method: 'DELETE', url: `/v1/api-keys/${agentId}`, headers: bearer(u.ownerToken) });
      } finally {
        await release();
      }
      expect(res.statusCode, res.body).toBe(204);
      expect((await agentsOf(t.app, u)).map((a) => a.id)).not.toContain(agentId);
      expect((await mcp(t.app, connected.access_token)).statusCode).toBe(401);
    } finally {
      await t.close();
    }
  });
});
