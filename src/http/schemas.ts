import { Type, type TSchema } from '@sinclair/typebox';
import { ERROR_STATUS, type ErrorCode } from '../shared/errors.js';

/**
 * A plain JSON Schema `enum` rather than TypeBox's union of literals: generated clients and the reference page
 * show it as one list of values.
 */
export const StringEnum = <const T extends string>(values: readonly T[], options: { description?: string } = {}) =>
  Type.Unsafe<T>({ type: 'string', enum: [...values], ...options });

/** What each status means to a caller; the codes that follow say why. */
const STATUS_MEANING: Record<number, string> = {
  400: 'The request is malformed or fails validation; the message names the field',
  401: 'Missing, invalid or expired credentials',
  403: 'This session may not do this',
  404: 'Not found (or not yours)',
  406: 'None of the accepted representations can be produced',
  409: 'Conflicts with the current state; retrying as is will not help',
  413: 'The body is larger than 64 KiB',
  415: 'The body is not application/json',
  422: 'Understood but refused by the rules of the service',
  429: 'Rate limit exceeded; wait for Retry-After seconds',
  500: 'Unexpected failure; no internals are shown',
  502: 'The bank rail refused the operation',
  503: 'A dependency is unavailable; retry later',
};

const RETRY_AFTER = { 'retry-after': { type: 'integer', description: 'seconds until the budget is renewed' } };

/** Extra fields some codes carry next to `error` and `message`. */
function detailsFor(codes: ErrorCode[]) {
  const has = (c: ErrorCode) => codes.includes(c);
  return {
    ...(has('PAYOUT_DENIED') || has('APPROVAL_NOT_CONFIGURED')
      ? { reasons: Type.Optional(Type.Array(Type.String(), { description: 'the policy reasons behind the refusal' })) }
      : {}),
    ...(has('WITHDRAW_FAILED')
      ? {
          payout_id: Type.Optional(Type.String({ description: 'the attempt that failed; it stays readable' })),
          reason: Type.Optional(Type.Union([Type.String(), Type.Null()], { description: "the rail's reason" })),
        }
      : {}),
  };
}

/** The error envelope for a set of codes: `error` is an enum, so a client can branch on every value it may see. */
export function errorBody(codes: ErrorCode[]) {
  return Type.Object(
    {
      error: StringEnum(codes, { description: 'machine-readable code' }),
      message: Type.String({ description: 'human-readable explanation, subject to change' }),
      ...detailsFor(codes),
    },
    { additionalProperties: true },
  );
}

/**
 * Response schemas for every error a route can answer, grouped by status from the one code → status table.
 * INTERNAL_ERROR is added to every route: any of them can meet an unexpected failure; and so is
 * SERVICE_UNAVAILABLE (with `Retry-After`): any of them can find its database unable to serve it now (D42).
 */
export function errors(...codes: ErrorCode[]): Record<number, TSchema> {
  const byStatus: Record<number, ErrorCode[]> = {};
  for (const c of new Set<ErrorCode>([...codes, 'INTERNAL_ERROR', 'SERVICE_UNAVAILABLE'])) (byStatus[ERROR_STATUS[c]] ??= []).push(c);
  const out: Record<number, TSchema> = {};
  for (const [key, cs] of Object.entries(byStatus)) {
    const status = Number(key);
    out[status] = {
      ...errorBody(cs),
      description: `${STATUS_MEANING[status] ?? 'Error'}: ${cs.join(', ')}`,
      ...(status === 429 ? { headers: RETRY_AFTER } : {}),
    };
  }
  return out;
}

/** What a bearer JWT can be refused for on any REST route, and the per-user rate limit. */
export const AUTH_ERRORS: ErrorCode[] = [
  'UNAUTHENTICATED',
  'TOKEN_EXPIRED',
  'INVALID_TOKEN',
  'USER_NOT_FOUND',
  'RATE_LIMIT_EXCEEDED',
];

/** Owner-only routes also refuse agent sessions. */
export const OWNER_ERRORS: ErrorCode[] = [...AUTH_ERRORS, 'OWNER_SESSION_REQUIRED'];

/**
 * What any request that may carry a body (POST, PUT, DELETE) can be refused for before its handler runs, whether
 * or not the route reads a body.
 */
export const BODY_ERRORS: ErrorCode[] = ['INVALID_JSON', 'INVALID_REQUEST', 'PAYLOAD_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE'];

export const bearerSecurity = [{ bearerAuth: [] }];
/** Routes that take no credentials say so, rather than leave it unstated. */
export const noSecurity: Record<string, string[]>[] = [];

export const Timestamp = Type.String({ format: 'date-time' });

/** A shared schema with the description its response shows (instead of "Default Response"). */
export const described = <T extends TSchema>(schema: T, description: string): T => ({ ...schema, description });
