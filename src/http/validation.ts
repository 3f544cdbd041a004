import { Ajv, type Options } from 'ajv';
import addFormatsImport from 'ajv-formats';
import type { FastifyInstance, FastifySchema } from 'fastify';

// ajv-formats is CommonJS with a default export.
const addFormats = addFormatsImport as unknown as (ajv: Ajv) => Ajv;

/**
 * Bodies are validated strictly: `"10"` is not the number 10, and unknown fields are refused, because a
 * payments API must not guess what a caller meant by money. Query strings and path parameters arrive as text,
 * so they are coerced.
 */
export function registerValidation(app: FastifyInstance): void {
  const base: Options = { allErrors: false, removeAdditional: false, useDefaults: true, strict: false };
  const strict = addFormats(new Ajv({ ...base, coerceTypes: false }));
  const coercing = addFormats(new Ajv({ ...base, coerceTypes: 'array' }));
  app.setValidatorCompiler<FastifySchema>(({ schema, httpPart }) =>
    (httpPart === 'body' ? strict : coercing).compile(schema as object),
  );
}
