import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import SwaggerParser from '@apidevtools/swagger-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchDocument, operationsOf, type OpenApiDoc } from './openapi-contract.js';
import { startTestApp, type TestApp } from './helpers.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const REDOCLY = path.join(path.dirname(createRequire(import.meta.url).resolve('@redocly/cli/package.json')), 'bin', 'cli.js');

/** Every summary and description in the document, with where it is. */
function prose(node: unknown, at = '#'): [string, string][] {
  if (Array.isArray(node)) return node.flatMap((v, i) => prose(v, `${at}/${i}`));
  if (!node || typeof node !== 'object') return [];
  return Object.entries(node).flatMap(([k, v]) =>
    (k === 'summary' || k === 'description') && typeof v === 'string' ? [[`${at}/${k}`, v] as [string, string]] : prose(v, `${at}/${k}`),
  );
}

describe('the OpenAPI document', () => {
  let t: TestApp;
  let doc: OpenApiDoc;
  beforeAll(async () => {
    t = await startTestApp();
    doc = await fetchDocument(t.app);
  });
  afterAll(() => t.close());

  it('is a valid OpenAPI 3.1 document (swagger-parser)', async () => {
    expect(doc.openapi).toBe('3.1.0');
    await expect(SwaggerParser.validate(structuredClone(doc) as never)).resolves.toBeTruthy();
  });

  it('passes `redocly lint` with the recommended rules and no problem at all, offline', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'openapi-lint-'));
    try {
      const file = path.join(dir, 'openapi.json');
      writeFileSync(file, JSON.stringify(doc, null, 2));
      const run = promisify(execFile);
      const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' };
      const args = [REDOCLY, 'lint', file, '--config', path.join(ROOT, 'redocly.yaml'), '--format=json'];
      // redocly exits non-zero on errors; the JSON report on stdout is read either way.
      const out = await run(process.execPath, args, { env, cwd: dir, timeout: 60_000 }).catch((e: { stdout?: string; stderr?: string }) => e);
      const report = JSON.parse(out.stdout ?? '{}') as { totals?: { errors: number; warnings: number }; problems?: unknown[] };
      expect(report.totals, out.stderr).toBeDefined();
      expect(report.problems, JSON.stringify(report.problems, null, 2)).toEqual([]);
      expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('speaks to integrators: servers, tags with descriptions, camelCase operationIds, no internal decision numbers', () => {
    expect(doc.servers).toEqual([expect.objectContaining({ url: '/' })]);
    expect(doc.info.description.length).toBeGreaterThan(200);
    const tagNames = (doc.tags as { name: string; description?: string }[]).map((tag) => {
      expect(tag.description, tag.name).toBeTruthy();
      return tag.name;
    });
    const ids = new Set<string>();
    for (const { method, path: p, op } of operationsOf(doc)) {
      const where = `${method.toUpperCase()} ${p}`;
      expect(op.operationId, where).toMatch(/^[a-z][a-zA-Z0-9]+$/);
      expect(ids.has(op.operationId), `${where}: duplicate operationId`).toBe(false);
      ids.add(op.operationId);
      expect(op.summary, where).toBeTruthy();
      expect(op.tags?.length, where).toBe(1);
      expect(tagNames, where).toContain(op.tags[0]);
      // Credentials are always stated: a scheme, or explicitly none.
      expect(Array.isArray(op.security), `${where}: security`).toBe(true);
      for (const [status, r] of Object.entries(op.responses as Record<string, { description: string }>)) {
        expect(r.description, `${where} ${status}`).not.toBe('Default Response');
      }
    }
    for (const [where, text] of prose(doc)) expect(text, where).not.toMatch(/\bD\d{1,2}\b/);
  });

  it('documents what the payout surface promises: required Idempotency-Key, receipt formats, body refusals, MCP', () => {
    const withdraw = doc.paths['/v1/withdraws']!.post;
    expect(withdraw.parameters).toContainEqual(expect.objectContaining({ in: 'header', name: 'idempotency-key', required: true }));
    for (const code of ['MISSING_IDEMPOTENCY_KEY', 'INVALID_JSON', 'INVALID_REQUEST']) {
      expect(withdraw.responses['400'].content['application/json'].schema.properties.error.enum).toContain(code);
    }
    expect(withdraw.responses['409'].content['application/json'].schema.properties.error.enum).toEqual(['IDEMPOTENCY_KEY_IN_USE']);
    expect(withdraw.responses['422'].content['application/json'].schema.properties.error.enum).toEqual(
      expect.arrayContaining(['IDEMPOTENCY_KEY_REUSED', 'PAYOUT_DENIED', 'ONBOARDING_INCOMPLETE']),
    );
    expect(withdraw.responses['503'].content['application/json'].schema.properties.error.enum).toEqual(
      expect.arrayContaining(['RAIL_UNAVAILABLE', 'APPROVAL_NOT_CONFIGURED']),
    );
    expect(withdraw.responses['429'].headers['retry-after']).toBeDefined();

    const receipt = doc.paths['/v1/withdraws/{id}/receipt']!.get.responses['200'].content;
    expect(Object.keys(receipt).sort()).toEqual(['application/json', 'application/pdf', 'text/html']);
    expect(receipt['application/json'].schema.properties.payout_id).toBeDefined();

    // Every request that can carry a body can be refused for its size or media type before any handler runs.
    for (const { method, path: p, op } of operationsOf(doc)) {
      if (method === 'get') continue;
      expect(Object.keys(op.responses), `${method} ${p}`).toEqual(expect.arrayContaining(['413', '415']));
    }

    const mcp = doc.paths['/mcp']!.post;
    expect(mcp.security).toEqual([{ mcpApiKey: [] }]);
    expect(doc.components.securitySchemes.mcpApiKey).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(mcp.responses['401'].content['application/json'].schema.properties.error.enum).toEqual(['unauthorized']);
  });

  it('serves /docs from its own static assets, with no outside address to load', async () => {
    for (const url of ['/docs', '/docs/']) {
      const page = await t.app.inject({ method: 'GET', url });
      expect(page.statusCode, url).toBe(200);
      expect(page.headers['content-type']).toContain('text/html');
      const refs = [...page.body.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
      expect(refs.length).toBeGreaterThan(3);
      for (const ref of refs) {
        expect(ref, `${url}: ${ref}`).not.toMatch(/^(?:[a-z]+:)?\/\//i);
        const asset = await t.app.inject({ method: 'GET', url: new URL(ref, `http://x${url}`).pathname });
        expect(asset.statusCode, `${url}: ${ref}`).toBe(200);
      }
    }
    const init = await t.app.inject({ method: 'GET', url: '/docs/static/swagger-initializer.js' });
    expect(init.body).toContain('validatorUrl: null'); // Swagger UI's default would send the document to an outside validator
    expect(init.body).toContain("resolveUrl('./json')");
    const json = await t.app.inject({ method: 'GET', url: '/docs/json' });
    expect(json.json()).toEqual(doc);
  });
});
