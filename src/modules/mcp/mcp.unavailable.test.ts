import { describe, expect, it } from 'vitest';
import { createOnboardedUser, startTestApp } from '../../../test/helpers.js';
import { holdWrites } from '../../../test/hold-writes.js';

/**
 * The database's "not now" (D42) on MCP: a tool call the store cannot serve answers the REST code
 * SERVICE_UNAVAILABLE in the tool's error envelope with Retry-After, never the driver's message as a JSON-RPC
 * internal error, and the scrape counts it.
 */
describe('MCP while the database cannot serve', () => {
  it('a tool whose audit entry cannot be written answers SERVICE_UNAVAILABLE with Retry-After, not the driver’s words', { timeout: 30_000 }, async () => {
    const t = await startTestApp({ env: { DATABASE_LOCK_TIMEOUT_MS: '300' } });
    try {
      const u = await createOnboardedUser(t.app, { fundArs: 100 });
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      const addr = t.app.server.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      const call = (id: number, method: string, params: unknown) =>
        fetch(`http://127.0.0.1:${port}/mcp`, {
          method: 'POST',
          headers: { authorization: `Bearer ${u.apiKey}`, accept: 'application/json, text/event-stream', 'content-type': 'application/json' },
          body: JSON.stringify({ jsonrpc: '2.0', id, method, params }),
        });
      // The key's last use is recorded now, so the call below writes nothing before its audit entry.
      expect((await call(1, 'tools/list', {})).status).toBe(200);
      // Another session holds what every tool call writes first: its audit entry.
      const release = await holdWrites(t, 'audit_log');
      let res: Response;
      try {
        res = await call(2, 'tools/call', { name: 'get_balance', arguments: {} });
      } finally {
        await release();
      }
      const body = (await res.json()) as { error?: unknown; result?: { isError?: boolean; content: { text: string }[] } };
      expect(body.error).toBeUndefined();
      expect(body.result?.isError).toBe(true);
      const envelope = JSON.parse(body.result!.content[0]!.text) as { error: string; message: string };
      expect(envelope.error).toBe('SERVICE_UNAVAILABLE');
      expect(envelope.message).not.toMatch(/lock|statement|SQLITE|busy|canceling/i);
      expect(res.headers.get('retry-after')).toBe('1');
      const metrics = (await t.app.inject({ method: 'GET', url: '/metrics' })).body;
      expect(metrics).toMatch(/store_unavailable_total\{kind="(lock_timeout|busy)"\} 1/);
      // Once the database serves again, so does the tool.
      const again = (await (await call(3, 'tools/call', { name: 'get_balance', arguments: {} })).json()) as { result?: { isError?: boolean } };
      expect(again.result?.isError).toBeUndefined();
    } finally {
      await t.close();
    }
  });
});
