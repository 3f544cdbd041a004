import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/helpers.js';

/** D33: the dashboard at `/`, with the API's paths, errors and rate limits untouched. */
describe('the dashboard is served next to the API', () => {
  let t: TestApp;
  let root: string;
  const html = { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' };

  beforeAll(async () => {
    root = mkdtempSync(path.join(tmpdir(), 'web-root-'));
    mkdirSync(path.join(root, 'assets'));
    writeFileSync(path.join(root, 'index.html'), '<!doctype html><title>Panel</title><script type="module" src="/assets/app-1.js"></script>');
    writeFileSync(path.join(root, 'assets', 'app-1.js'), 'console.log(1)');
    writeFileSync(path.join(root, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    t = await startTestApp({ deps: { webRoot: root }, env: { RATE_LIMIT_PER_MINUTE: '3' } });
  });
  afterAll(async () => {
    await t.close();
    rmSync(root, { recursive: true, force: true });
  });

  const get = (url: string, headers: Record<string, string> = html) => t.app.inject({ method: 'GET', url, headers });

  it('serves the app shell at / and at any deep link, with a strict CSP and no framing', async () => {
    for (const url of ['/', '/approvals', '/payouts/wd_123?x=1', '/agents']) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.body).toContain('<title>Panel</title>');
      const csp = String(res.headers['content-security-policy']);
      expect(csp).toContain("script-src 'self'");
      expect(csp).not.toMatch(/unsafe-inline|unsafe-eval/);
      expect(csp).toContain("frame-ancestors 'none'");
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(res.headers['cache-control']).toBe('no-cache');
    }
  });

  it('serves built assets (cached for good) and top-level files', async () => {
    const js = await get('/assets/app-1.js', {});
    expect(js.statusCode).toBe(200);
    expect(js.headers['content-type']).toMatch(/javascript/);
    expect(js.headers['cache-control']).toContain('immutable');
    expect(js.headers['content-security-policy']).toBeDefined();
    const icon = await get('/favicon.svg', {});
    expect(icon.statusCode).toBe(200);
    expect(icon.headers['content-type']).toMatch(/svg/);
  });

  it('never lets a path climb out of the build', async () => {
    for (const url of ['/assets/../index.html', '/assets/..%2f..%2fpackage.json', '/..%2fpackage.json', '/assets/%2e%2e/%2e%2e/package.json']) {
      const res = await get(url, {});
      expect(res.body, url).not.toContain('"name"');
      expect(res.body, url).not.toContain('dependencies');
    }
    expect((await get('/assets/missing.js', {})).statusCode).toBe(404);
  });

  it('keeps the API: unknown /v1 paths answer the JSON 404 envelope, even to a browser', async () => {
    for (const url of ['/v1/nope', '/v1', '/v1/withdraws/x/y/z', '/mcp/x', '/docs/nope.html']) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(404);
      expect(res.json(), url).toMatchObject({ error: 'NOT_FOUND' });
    }
    const api = await get('/v1/balance', {});
    expect(api.statusCode).toBe(401);
    expect(api.json().error).toBe('UNAUTHENTICATED');
    expect(api.headers['x-frame-options']).toBe('DENY');
    expect((await get('/healthz', {})).json()).toEqual({ status: 'ok' });
    expect((await get('/openapi.json', {})).json().openapi).toBe('3.1.0');
    const docs = await get('/docs/', html);
    expect(docs.statusCode).toBe(200);
    expect(docs.headers['content-security-policy']).toBeUndefined(); // Swagger UI keeps its own page as it was
  });

  it('answers non-HTML requests for unknown paths and other methods with the JSON 404', async () => {
    const json = await get('/somewhere', { accept: 'application/json' });
    expect(json.statusCode).toBe(404);
    expect(json.json().error).toBe('NOT_FOUND');
    const post = await t.app.inject({ method: 'POST', url: '/approvals', headers: { 'content-type': 'application/json' }, payload: {} });
    expect(post.statusCode).toBe(404);
    expect(post.json().error).toBe('NOT_FOUND');
  });

  it('does not count page loads against the rate limit (3 a minute here)', async () => {
    for (let i = 0; i < 8; i++) expect((await get('/')).statusCode).toBe(200);
    for (let i = 0; i < 8; i++) expect((await get('/assets/app-1.js', {})).statusCode).toBe(200);
  });
});
