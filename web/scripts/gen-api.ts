import { writeFileSync } from 'node:fs';
import { SCHEMA_FILE, schemaTypes } from './openapi-types.js';

// `npm run gen:api`: regenerate the dashboard's API types from the service's OpenAPI document.
writeFileSync(SCHEMA_FILE, await schemaTypes());
console.log(`wrote ${SCHEMA_FILE}`);
