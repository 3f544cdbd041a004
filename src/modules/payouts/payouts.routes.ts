import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../context.js';
import { principalOf, requireAuth, requireScope } from '../../http/auth.js';
import { AUTH_ERRORS, bearerSecurity, errors } from '../../http/schemas.js';
import type { App } from '../../http/types.js';
import { checkIdempotencyKey, requestPayout } from './payout.request.js';
import { getPayout, listPayouts } from './payout.view.js';
import { CreatedBody, ListQuery, PayoutRecord, PendingBody, WithdrawBody } from './payouts.schemas.js';
import { receiptRoute } from './receipt.routes.js';

export function payoutsRoutes(app: App, ctx: AppContext): void {
  const auth = requireAuth(ctx);
  const tags = ['payouts'];
  const security = bearerSecurity;

  app.post(
    '/v1/withdraws',
    {
      onRequest: [auth, requireScope('payouts:write')],
      schema: {
        tags,
        security,
        summary: 'Request a payout. Send Idempotency-Key; reuse it on retries (replays answer Idempotent-Replayed: true)',
        headers: Type.Object({ 'idempotency-key': Type.Optional(Type.String()) }),
        body: WithdrawBody,
        response: {
          201: CreatedBody,
          202: PendingBody,
          ...errors(
            ...AUTH_ERRORS,
            'MISSING_IDEMPOTENCY_KEY',
            'INVALID_JSON',
            'INVALID_REQUEST',
            'IDEMPOTENCY_KEY_IN_USE',
            'ONBOARDING_INCOMPLETE',
            'PAYOUT_DENIED',
            'WITHDRAW_FAILED',
            'APPROVAL_NOT_CONFIGURED',
          ),
        },
      },
      // The missing key is the first thing a caller must fix, before body validation.
      preValidation: async (request) => checkIdempotencyKey(request.headers['idempotency-key'] as string | undefined),
    },
    async (request, reply) => {
      const res = await requestPayout(ctx, principalOf(request), request.body, request.headers['idempotency-key']);
      if (res.replayed) reply.header('idempotent-replayed', 'true');
      return reply.status(res.status).send(res.body as never);
    },
  );

  app.get(
    '/v1/withdraws',
    {
      onRequest: [auth, requireScope('payouts:read')],
      schema: {
        tags,
        security,
        summary: 'Payout attempts, newest first (at most 100; `limit` and `cursor` page through more)',
        querystring: ListQuery,
        response: {
          200: Type.Object({ withdraws: Type.Array(PayoutRecord), next_cursor: Type.Union([Type.String(), Type.Null()]) }),
          ...errors(...AUTH_ERRORS, 'INVALID_REQUEST'),
        },
      },
    },
    async (request) => listPayouts(ctx, principalOf(request).userId, request.query),
  );

  app.get(
    '/v1/withdraws/:id',
    {
      onRequest: [auth, requireScope('payouts:read')],
      schema: {
        tags,
        security,
        summary: 'One payout attempt',
        params: Type.Object({ id: Type.String({ maxLength: 64 }) }),
        response: { 200: PayoutRecord, ...errors(...AUTH_ERRORS, 'NOT_FOUND') },
      },
    },
    async (request) => getPayout(ctx, principalOf(request).userId, request.params.id),
  );

  receiptRoute(app, ctx);
}
