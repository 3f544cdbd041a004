import { Type, type TSchema } from '@sinclair/typebox';
import { ERROR_STATUS, type ErrorCode } from '../shared/errors.js';

export const ErrorBody = Type.Object(
  {
    error: Type.String({ description: 'machine-readable code' }),
    message: Type.String({ description: 'human-readable explanation' }),
  },
  { additionalProperties: true, title: 'Error envelope' },
);

/** Response schemas for a route's documented error codes, grouped by status, for the OpenAPI document. */
export function errors(...codes: ErrorCode[]): Record<number, TSchema> {
  const byStatus: Record<number, ErrorCode[]> = {};
  for (const c of codes) (byStatus[ERROR_STATUS[c]] ??= []).push(c);
  const out: Record<number, TSchema> = {};
  for (const [status, cs] of Object.entries(byStatus)) {
    out[Number(status)] = { ...ErrorBody, description: cs.join(', ') };
  }
  return out;
}

export const AUTH_ERRORS: ErrorCode[] = [
  'UNAUTHENTICATED',
  'TOKEN_EXPIRED',
  'INVALID_TOKEN',
  'USER_NOT_FOUND',
  'RATE_LIMIT_EXCEEDED',
];

export const bearerSecurity = [{ bearerAuth: [] }];

export const Timestamp = Type.String({ format: 'date-time' });
