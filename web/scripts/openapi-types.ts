import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString, type OpenAPI3 } from 'openapi-typescript';
import { buildApp } from '../../src/app.js';
import { parseConfig } from '../../src/config.js';

/** Where the dashboard's typed client reads the API's types from (committed; `npm run gen:api` rewrites it). */
export const SCHEMA_FILE = fileURLToPath(new URL('../src/api/schema.d.ts', import.meta.url));

const HEADER = `/**
 * The REST API's types, generated from the service's own OpenAPI document (GET /openapi.json).
 * Do not edit: run \`npm run gen:api\` after changing a route schema. A unit test fails while this is stale.
 */

`;

/**
 * The OpenAPI document exactly as the service serves it: the app is built in-process on a throw-away SQLite store,
 * never listening, so generation needs no running server and no network.
 */
export async function openapiDocument(): Promise<OpenAPI3> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'wallet-openapi-'));
  try {
    const config = parseConfig({
      JWT_SECRET: 'openapi-generation-only-0123456789abcdef',
      SECRETS_KEY: 'openapi-generation-only-0123456789abcdef',
      LOG_LEVEL: 'silent',
      DATA_DIR: dataDir,
    });
    const app = await buildApp({ ...config, dataDir, databaseUrl: '' }, { startJobs: false });
    try {
      await app.ready();
      const res = await app.inject({ method: 'GET', url: '/openapi.json' });
      if (res.statusCode !== 200) throw new Error(`GET /openapi.json answered ${res.statusCode}`);
      return res.json() as OpenAPI3;
    } finally {
      await app.close();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The TypeScript declarations of the document, as committed in `web/src/api/schema.d.ts`. */
export async function schemaTypes(): Promise<string> {
  const ast = await openapiTS(await openapiDocument(), { alphabetize: true });
  return HEADER + astToString(ast);
}
