import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isStoreUnavailable, storeFailureKind } from '../db/store-errors.js';
import { AppError, isAppError } from '../shared/errors.js';
import { chargeFailedRequest } from './rate-limit.js';

/** Seconds a client should wait before retrying a 503 that says "not now". */
export const RETRY_AFTER_SECONDS = 1;

/**
 * Turns Fastify's own errors and the store's "not now" (D42) into our codes; everything unknown becomes a 500
 * without internals (D8).
 */
export function toAppError(err: unknown): AppError {
  if (isAppError(err)) return err;
  if (isStoreUnavailable(err)) return new AppError('SERVICE_UNAVAILABLE', 'The service cannot reach its database right now; retry shortly');
  if (!(err instanceof Error)) return new AppError('INTERNAL_ERROR', 'Internal server error');
  return fromFastify(err as FastifyError);
}

/** How a value outside a fixed list is refused, on REST and MCP alike. */
export const ONE_OF_ALLOWED = 'must be equal to one of the allowed values';

/**
 * A union of constants (`CBU | CVU | ALIAS`) fails with one "must be equal to constant" per branch, which does not
 * say what would do: the constants it takes, when every branch at that field is one, else null.
 */
function unionOfConstants(errors: NonNullable<FastifyError['validation']>, instancePath: string | undefined): unknown[] | null {
  const here = errors.filter((e) => e.instancePath === instancePath);
  const branches = here.filter((e) => e.keyword !== 'anyOf');
  if (branches.length === 0 || !branches.every((e) => e.keyword === 'const')) return null;
  return branches.map((e) => (e.params as { allowedValue?: unknown }).allowedValue);
}

function fromFastify(err: FastifyError): AppError {
  if (err.validation) {
    const first = err.validation[0];
    const where = err.validationContext ?? 'body';
    const params = first?.params as { missingProperty?: string; additionalProperty?: string; allowedValues?: unknown[] } | undefined;
    // Ajv reports a missing or unknown property at its parent object; the caller needs the property's own path.
    const path = [where, ...(first?.instancePath ?? '').split('/').filter(Boolean)];
    if (params?.additionalProperty !== undefined) {
      return new AppError('INVALID_REQUEST', `${[...path, params.additionalProperty].join('.')}: unknown field`);
    }
    const name = (params?.missingProperty !== undefined ? [...path, params.missingProperty] : path).join('.');
    // An enum says which values it takes, so the caller need not look them up (e.g. a key's scopes).
    const allowed = first?.keyword === 'enum' && Array.isArray(params?.allowedValues) ? ` (one of ${params.allowedValues.join(', ')})` : '';
    const listed = unionOfConstants(err.validation, first?.instancePath);
    if (listed) return new AppError('INVALID_REQUEST', `${name}: ${ONE_OF_ALLOWED} (one of ${listed.join(', ')})`);
    return new AppError('INVALID_REQUEST', `${name}: ${first?.message ?? 'is invalid'}${allowed}`);
  }
  switch (err.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new AppError('INVALID_JSON', 'Request body is not valid JSON');
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new AppError('PAYLOAD_TOO_LARGE', 'Request body is too large');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new AppError('UNSUPPORTED_MEDIA_TYPE', 'Send request bodies as application/json');
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new AppError('INVALID_REQUEST', 'Content-Length does not match the body');
  }
  if (err.statusCode === 429) return new AppError('RATE_LIMIT_EXCEEDED', 'Too many requests');
  if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500) {
    return new AppError('INVALID_REQUEST', err.message);
  }
  return new AppError('INTERNAL_ERROR', 'Internal server error');
}

/**
 * Maps an error to our envelope. D30: a request refused before the limiter counted it (bad credentials,
 * owner-only, malformed body) is counted now; if that spends the budget, the answer is the 429.
 */
export async function sendError(err: FastifyError | AppError, request: FastifyRequest, reply: FastifyReply) {
  const appErr = (await chargeFailedRequest(request, reply)) ?? toAppError(err);
  if (isStoreUnavailable(err)) request.server.ctx?.metrics.storeUnavailable(storeFailureKind(err));
  if (appErr.code === 'INTERNAL_ERROR') {
    request.log.error({ err }, 'unhandled error');
  } else if (appErr.statusCode >= 500) {
    request.log.warn({ code: appErr.code, reason: appErr.message, ...(isAppError(err) ? {} : { err }) }, 'request failed');
  }
  if (appErr.code === 'SERVICE_UNAVAILABLE' || appErr.code === 'RAIL_UNAVAILABLE') reply.header('retry-after', RETRY_AFTER_SECONDS);
  return reply.status(appErr.statusCode).send(appErr.toBody());
}

export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler(sendError);

  app.setNotFoundHandler((request, reply) => {
    const e = new AppError('NOT_FOUND', `No route for ${request.method} ${request.url.split('?')[0]}`);
    return reply.status(e.statusCode).send(e.toBody());
  });
}
