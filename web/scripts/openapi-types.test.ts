import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SCHEMA_FILE, schemaTypes } from './openapi-types.js';

describe('the dashboard API client types', () => {
  it('match the OpenAPI document the service serves (run `npm run gen:api` when this fails)', async () => {
    const committed = readFileSync(SCHEMA_FILE, 'utf8');
    // Compared whole: a route or field changed on the server must show up in the dashboard's typecheck.
    expect(committed === (await schemaTypes()), 'web/src/api/schema.d.ts is stale: run `npm run gen:api` and commit it').toBe(true);
  });
});
