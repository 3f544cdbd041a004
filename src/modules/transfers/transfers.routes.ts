import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../context.js';
import { principalOf, requireAuth, requireScope } from '../../http/auth.js';
import { AUTH_ERRORS, bearerSecurity, errors } from '../../http/schemas.js';
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
  const auth = requireAuth(ctx);
  const tags = ['transfers (older surface)'];
  const security = bearerSecurity;

  app.post(
    '/v1/transfers',
    {
      onRequest: [auth, requireScope('transfer:write')],
      schema: {
        tags,
        security,
        summary: 'Transfer and wait for the outcome: answers once the bank completed it; one that needs approval is held open up to 5 minutes',
        headers: Type.Object({ 'idempotency-key': Type.Optional(Type.String()) }),
        body: Type.Object(
          {
            amount: Type.Number({ minimum: 1, maximum: 1e11, description: 'ARS, at most 2 decimals' }),
            destination: Type.String({ minLength: 1, maxLength: 64, description: 'CVU or CBU (22 digits) or alias' }),
            description: Type.Optional(Type.String({ maxLength: 140 })),
          },
          { additionalProperties: false },
        ),
        response: {
          201: TransferBody,
          ...errors(
            ...AUTH_ERRORS,
            'INSUFFICIENT_SCOPE',
            'MISSING_IDEMPOTENCY_KEY',
            'INVALID_JSON',
            'INVALID_REQUEST',
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
      const res = await createTransfer(ctx, principalOf(request), request.body as TransferInput, request.headers['idempotency-key'], gone.signal);
      if (res.replayed) reply.header('idempotent-replayed', 'true');
      return reply.status(201).send(res.body);
    },
  );

  app.get(
    '/v1/transfers/:id',
    {
      onRequest: [auth, requireScope('transactions:read')],
      schema: {
        tags,
        security,
        summary: 'One transfer, in the same shape as the POST answer',
        params: Type.Object({ id: Type.String({ maxLength: 64 }) }),
        response: { 200: TransferBody, ...errors(...AUTH_ERRORS, 'INSUFFICIENT_SCOPE', 'NOT_FOUND') },
      },
    },
    async (request) => getTransfer(ctx, principalOf(request).userId, request.params.id),
  );
}
