import SwaggerParser from '@apidevtools/swagger-parser';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsImport from 'ajv-formats';
import type { FastifyInstance } from 'fastify';

// ajv-formats is CommonJS with a default export.
const addFormats = addFormatsImport as unknown as (ajv: Ajv2020) => Ajv2020;

/* eslint-disable @typescript-eslint/no-explicit-any -- an OpenAPI document is walked as plain JSON here */
export type OpenApiDoc = { openapi: string; paths: Record<string, Record<string, any>>; [k: string]: any };

export const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

export interface Operation {
  method: (typeof METHODS)[number];
  path: string;
  op: any;
}

export async function fetchDocument(app: FastifyInstance): Promise<OpenApiDoc> {
  const res = await app.inject({ method: 'GET', url: '/openapi.json' });
  if (res.statusCode !== 200) throw new Error(`/openapi.json answered ${res.statusCode}`);
  return res.json() as OpenApiDoc;
}

export function operationsOf(doc: OpenApiDoc): Operation[] {
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    METHODS.filter((m) => item[m]).map((method) => ({ method, path, op: item[method] })),
  );
}

/** What a server answered, to be held against what the document promises for that operation. */
export interface Answer {
  method: string;
  /** The path template as the document spells it, e.g. `/v1/withdraws/{id}`. */
  path: string;
  status: number;
  contentType: string | undefined;
  body: string;
}

/**
 * Checks answers against the document: the status must be documented for the operation, the media type must
 * be one it lists, and a JSON body must validate against its schema (error codes are enums there, so an
 * undocumented code fails too). The document is dereferenced first, so schemas stand alone.
 */
export async function answerChecker(doc: OpenApiDoc): Promise<(a: Answer) => string | null> {
  const deref = (await SwaggerParser.dereference(structuredClone(doc) as never)) as unknown as OpenApiDoc;
  const ajv = addFormats(new Ajv2020({ strict: false, allErrors: true }));
  const compiled = new Map<string, ValidateFunction>();

  return (a) => {
    const where = `${a.method.toUpperCase()} ${a.path} → ${a.status}`;
    const op = deref.paths[a.path]?.[a.method.toLowerCase()];
    if (!op) return `${where}: operation not documented`;
    const response = op.responses?.[String(a.status)];
    if (!response) return `${where}: status not documented (documented: ${Object.keys(op.responses).join(', ')}); body ${a.body.slice(0, 300)}`;
    if (!response.content) return a.body.length === 0 ? null : `${where}: documented without a body, got ${a.body.slice(0, 200)}`;
    const media = (a.contentType ?? '').split(';')[0]!.trim().toLowerCase();
    const entry = response.content[media];
    if (!entry) return `${where}: media type "${media}" not documented (documented: ${Object.keys(response.content).join(', ')})`;
    if (!media.endsWith('json')) return null;
    let parsed: unknown;
    try {
      parsed = JSON.parse(a.body);
    } catch {
      return `${where}: body is not JSON: ${a.body.slice(0, 200)}`;
    }
    const key = `${a.method} ${a.path} ${a.status} ${media}`;
    let validate = compiled.get(key);
    if (!validate) compiled.set(key, (validate = ajv.compile(entry.schema ?? {})));
    if (validate(parsed)) return null;
    return `${where}: body does not match the documented schema: ${ajv.errorsText(validate.errors)}; body ${a.body.slice(0, 300)}`;
  };
}
