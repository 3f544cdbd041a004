import { Ajv, type ErrorObject, type Options, type ValidateFunction } from 'ajv';
import addFormatsImport from 'ajv-formats';
import type { FastifyInstance, FastifySchema } from 'fastify';
import { CONTROL_CHARACTER_MESSAGE, findControlCharacter } from './control-chars.js';
import { cleanOwnerText } from './owner-text.js';

// ajv-formats is CommonJS with a default export.
const addFormats = addFormatsImport as unknown as (ajv: Ajv) => Ajv;

/**
 * After the schema passes, refuse control characters in any string (D30) and trim or refuse the names an owner
 * reads (D39), with an Ajv-shaped error, so the one error mapper names the field. Headers are left out: Node's
 * HTTP parser already refuses them there.
 */
function withoutControlCharacters(validate: ValidateFunction): ValidateFunction {
  const checked = ((data: unknown, dataCtx?: Parameters<ValidateFunction>[1]) => {
    if (!validate(data, dataCtx)) {
      checked.errors = validate.errors;
      return false;
    }
    const at = findControlCharacter(data);
    const text = at === null ? cleanOwnerText(validate.schema, data) : null;
    if (at === null && text === null) {
      checked.errors = null;
      return true;
    }
    const error: ErrorObject =
      at !== null
        ? { instancePath: at, schemaPath: '#', keyword: 'controlCharacters', params: {}, message: CONTROL_CHARACTER_MESSAGE }
        : { instancePath: text!.pointer, schemaPath: '#', keyword: 'ownerText', params: {}, message: text!.message };
    checked.errors = [error];
    return false;
  }) as ValidateFunction;
  // Fastify passes the parent object only to validators that look like Ajv's, which root coercion needs.
  checked.schemaEnv = validate.schemaEnv;
  checked.schema = validate.schema;
  return checked;
}

/**
 * Bodies are validated strictly: `"10"` is not the number 10, and unknown fields are refused, because a
 * payments API must not guess what a caller meant by money. Query strings and path parameters arrive as text,
 * so they are coerced.
 */
export function registerValidation(app: FastifyInstance): void {
  const base: Options = { allErrors: false, removeAdditional: false, useDefaults: true, strict: false };
  const strict = addFormats(new Ajv({ ...base, coerceTypes: false }));
  const coercing = addFormats(new Ajv({ ...base, coerceTypes: 'array' }));
  app.setValidatorCompiler<FastifySchema>(({ schema, httpPart }) => {
    const validate = (httpPart === 'body' ? strict : coercing).compile(schema as object);
    return httpPart === 'headers' ? validate : withoutControlCharacters(validate);
  });
}
