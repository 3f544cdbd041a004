/**
 * The one error type and the one code → HTTP status table (contract "Errors", D8). Routes and services throw
 * `AppError`; the HTTP error handler is the only place that turns it into a response.
 */
export const ERROR_STATUS = {
  INVALID_JSON: 400,
  INVALID_REQUEST: 400,
  MISSING_IDEMPOTENCY_KEY: 400,
  MISSING_URL: 400,
  INVALID_URL: 400,
  SECRET_TOO_SHORT: 400,
  UNAUTHENTICATED: 401,
  TOKEN_EXPIRED: 401,
  INVALID_TOKEN: 401,
  INVALID_API_KEY: 401,
  INVALID_CREDENTIALS: 401,
  /** MCP's 401, spelled as the contract gives it. */
  unauthorized: 401,
  OWNER_SESSION_REQUIRED: 403,
  INSUFFICIENT_SCOPE: 403,
  FORBIDDEN: 403,
  SANDBOX_ONLY: 403,
  NOT_FOUND: 404,
  USER_NOT_FOUND: 404,
  /** No account answers to that CBU, CVU or alias (or it is not a well-formed one). */
  DESTINATION_NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  EMAIL_TAKEN: 409,
  ALREADY_ONBOARDED: 409,
  IDEMPOTENCY_KEY_IN_USE: 409,
  APPROVAL_EXPIRED: 409,
  APPROVAL_ALREADY_DECIDED: 409,
  PAYOUTS_PAUSED: 409,
  PAYOUT_NOT_CANCELABLE: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  NOT_ACCEPTABLE: 406,
  ONBOARDING_INCOMPLETE: 422,
  IDEMPOTENCY_KEY_REUSED: 422,
  PAYOUT_DENIED: 422,
  INSUFFICIENT_FUNDS: 422,
  RATE_LIMIT_EXCEEDED: 429,
  /** The older transfer surface's codes, spelled as the contract gives them (D32). */
  insufficient_balance: 402,
  rejected: 402,
  expired: 408,
  invalid_destination: 422,
  allowlist_violation: 422,
  INTERNAL_ERROR: 500,
  WITHDRAW_FAILED: 502,
  RAIL_UNAVAILABLE: 503,
  APPROVAL_NOT_CONFIGURED: 503,
  SERVICE_UNAVAILABLE: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly statusCode: number;
  /** Extra machine-readable fields merged into the envelope, e.g. `reasons` of a denial. */
  readonly details?: Record<string, unknown>;

  constructor(code: ErrorCode, message: string, details?: Record<string, unknown>) {
    super(message);
    this.name = 'AppError';
    this.code = code;
    this.statusCode = ERROR_STATUS[code];
    this.details = details;
  }

  toBody(): { error: ErrorCode; message: string } & Record<string, unknown> {
    return { error: this.code, message: this.message, ...this.details };
  }
}

export const isAppError = (e: unknown): e is AppError => e instanceof AppError;
