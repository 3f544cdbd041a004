import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import type { Middleware } from 'openapi-fetch';
import openapiTS, { astToString } from 'openapi-typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerChecker, fetchDocument, type OpenApiDoc } from './openapi-contract.js';
import { EXTERNAL_CBU, randomCuit, startTestApp, uniqueEmail, type TestApp } from './helpers.js';

/** What test/typed-client/payout-flow.ts exports. */
interface FlowModule {
  runPayoutFlow(input: {
    baseUrl: string;
    email: string;
    legalId: string;
    destinationCbu: string;
    webhookUrl: string;
    middleware: Middleware;
  }): Promise<{ allowedId: string; heldId: string; heldStatusAfterApproval: string; receiptTitle: string; listed: number }>;
}

const ROOT = path.resolve(import.meta.dirname, '..');
const TSC = createRequire(import.meta.url).resolve('typescript/bin/tsc');

/**
 * A typed client, proven: types generated from the live document, a flow written against them that must
 * compile, and every response of that flow held against the document. Drift between what the schema says and
 * what the server does fails here.
 */
describe('a client generated from /openapi.json', () => {
  let t: TestApp;
  let doc: OpenApiDoc;
  // Inside the project (and git-ignored), so the copy resolves openapi-fetch and @types/node like any test file.
  let dir: string;

  beforeAll(async () => {
    t = await startTestApp();
    doc = await fetchDocument(t.app);
    mkdirSync(path.join(ROOT, '.tmp'), { recursive: true });
    dir = mkdtempSync(path.join(ROOT, '.tmp', 'typed-client-'));
    writeFileSync(path.join(dir, 'api.d.ts'), astToString(await openapiTS(doc as never)));
    copyFileSync(path.join(ROOT, 'test', 'typed-client', 'payout-flow.ts'), path.join(dir, 'payout-flow.ts'));
  });
  afterAll(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('type-checks the flow against the generated types', async () => {
    const tsconfig = {
      compilerOptions: {
        target: 'ES2022',
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        strict: true,
        noUncheckedIndexedAccess: true,
        noEmit: true,
        skipLibCheck: true,
        types: ['node'],
      },
      files: ['payout-flow.ts'],
    };
    writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify(tsconfig));
    const result = await promisify(execFile)(process.execPath, [TSC, '-p', path.join(dir, 'tsconfig.json')], { cwd: dir, timeout: 120_000 }).then(
      () => '',
      (e: { stdout?: string; stderr?: string }) => `${e.stdout ?? ''}${e.stderr ?? ''}`,
    );
    expect(result).toBe('');
  }, 120_000);

  it('runs a full payout flow on a listening server, every response matching the document', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as AddressInfo;
    const check = await answerChecker(doc);
    const problems: string[] = [];
    const checked = new Set<string>();
    const middleware: Middleware = {
      async onResponse({ request, response, schemaPath }) {
        const body = await response.clone().text();
        const problem = check({ method: request.method, path: schemaPath, status: response.status, contentType: response.headers.get('content-type') ?? undefined, body });
        if (problem) problems.push(problem);
        checked.add(`${request.method} ${schemaPath} ${response.status}`);
      },
    };
    // Imported by path, not by name: the project's type-check must not follow it to types that exist only here.
    const { runPayoutFlow } = (await import(pathToFileURL(path.join(dir, 'payout-flow.ts')).href)) as FlowModule;
    const outcome = await runPayoutFlow({
      baseUrl: `http://127.0.0.1:${port}`,
      email: uniqueEmail(),
      legalId: randomCuit(),
      destinationCbu: EXTERNAL_CBU,
      webhookUrl: 'http://127.0.0.1:9/hooks/payouts',
      middleware,
    });
    expect(problems).toEqual([]);
    expect(outcome.heldStatusAfterApproval).toBe('submitted');
    expect(outcome.listed).toBe(2);
    expect(checked.size).toBeGreaterThanOrEqual(25);
  });
});
