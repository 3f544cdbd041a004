import { Type } from '@sinclair/typebox';
import { OwnerText } from '../../http/owner-text.js';
import type { AppContext } from '../../context.js';
import { principalOf } from '../../http/auth.js';
import { AUTH_ERRORS, BODY_ERRORS, bearerSecurity, described, errors } from '../../http/schemas.js';
import { MAX_IDEMPOTENCY_KEY_LENGTH } from '../idempotency/idempotency.service.js';
import type { App } from '../../http/types.js';
import { checkIdempotencyKey } from '../payouts/payout.request.js';
import { createTransfer, getTransfer, type TransferInput } from './transfers.service.js';

const Nullable = <T extends ReturnType<typeof Type.String>>(t: T) => Type.Union([t, Type.Null()]);
const TransferBody = Type.Object({
  id: Type.String(),
  status: Type.String({ description: '`completed`, or `approved` when completed through the owner’s approval; while not final: `pending_approval` or `processing`' }),
  amount: Type.Number(),
  destination: Type.String(),
  description: Nullable(Type.String()),
  created_at: Type.String({ format: 'date-time' }),
  approved_at: Type.Optional(Nullable(Type.String({ format: 'date-time' }))),
  completed_at: Nullable(Type.String({ format: 'date-time' })),
  failure_reason: Type.Optional(Nullable(Type.String())),
});

/** The contract's older transfer surface (D32): a view of the same payout engine, with its own codes. */
export function transfersRoutes(app: App, ctx: AppContext): void {
  const tags = ['transfers'];
  const security = bearerSecurity;

  app.post(
    '/v1/transfers',
    {
      config: { access: { scope: 'transfer:write' } },
      schema: {
        tags,
        security,
        operationId: 'createTransfer',
        summary: 'Send a transfer and wait for its outcome',
        description:
          'The older surface over the same payout engine. Answers once the bank completed the transfer. At or above the approval threshold the request is held open while the owner decides, at most 5 minutes. Send an `Idempotency-Key` and reuse it on retries: a retry answers the same transfer.',
        headers: Type.Object(
          { 'idempotency-key': Type.String({ minLength: 1, maxLength: MAX_IDEMPOTENCY_KEY_LENGTH, description: 'unique per intended transfer; reuse it on retries' }) },
        ),
        body: Type.Object(
          {
            amount: Type.Number({ minimum: 1, maximum: 1e11, description: 'ARS, at most 2 decimals' }),
            destination: Type.String({ minLength: 1, maxLength: 64, description: 'CVU or CBU (22 digits) or alias' }),
            description: Type.Optional(OwnerText({ maxLength: 140 })),
          },
          { additionalProperties: false },
        ),
        response: {
          201: described(TransferBody, 'Completed (or, held for approval, approved and completed)'),
          ...errors(
            ...AUTH_ERRORS,
            ...BODY_ERRORS,
            'INSUFFICIENT_SCOPE',
            'MISSING_IDEMPOTENCY_KEY',
            'IDEMPOTENCY_KEY_IN_USE',
            'IDEMPOTENCY_KEY_REUSED',
            'ONBOARDING_INCOMPLETE',
            'insufficient_balance',
            'rejected',
            'expired',
            'invalid_destination',
            'allowlist_violation',
            'APPROVAL_NOT_CONFIGURED',
            'RAIL_UNAVAILABLE',
          ),
        },
      },
      preValidation: async (request) => checkIdempotencyKey(request.headers['idempotency-key'] as string | undefined),
    },
    async (request, reply) => {
      const gone = new AbortController();
      reply.raw.on('close', () => {
        if (!reply.raw.writableFinished) gone.abort();
      });
      // Set before the answer is known: a replayed 402 or 408 is thrown, and goes out through the error handler.
      const res = await createTransfer(ctx, principalOf(request), request.body as TransferInput, request.headers['idempotency-key'], gone.signal, () =>
        reply.header('idempotent-replayed', 'true'),
      );
      return reply.status(201).send(res.body);
    },
  );

  app.get(
    '/v1/transfers/:id',
    {
      config: { access: { scope: 'transactions:read' } },
      schema: {
        tags,
        security,
        operationId: 'getTransfer',
        summary: 'Get a transfer',
        description: 'The same shape as the answer of `POST /v1/transfers`; while not final, `status` is `pending_approval` or `processing`.',
        params: Type.Object({ id: Type.String({ maxLength: 64 }) }),
        response: { 200: described(TransferBody, 'The transfer'), ...errors(...AUTH_ERRORS, 'INSUFFICIENT_SCOPE', 'INVALID_REQUEST', 'NOT_FOUND') },
      },
    },
    async (request) => getTransfer(ctx, principalOf(request).userId, request.params.id),
  );
}
