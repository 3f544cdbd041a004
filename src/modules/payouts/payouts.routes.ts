import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../context.js';
import { principalOf } from '../../http/auth.js';
import { AUTH_ERRORS, BODY_ERRORS, bearerSecurity, described, errors, OWNER_ERRORS } from '../../http/schemas.js';
import type { App } from '../../http/types.js';
import { MAX_IDEMPOTENCY_KEY_LENGTH } from '../idempotency/idempotency.service.js';
import { cancelPayout } from './payout.cancel.js';
import { checkIdempotencyKey, requestPayout } from './payout.request.js';
import { simulatePayout } from './payout.simulate.js';
import { getPayout, listPayouts } from './payout.view.js';
import { CreatedBody, ListQuery, PayoutRecord, PendingBody, SimulationBody, WithdrawBody } from './payouts.schemas.js';
import { receiptRoute } from './receipt.routes.js';

const REPLAYED = {
  'idempotent-replayed': { type: 'string', enum: ['true'], description: 'present when this is the stored answer to an earlier request with the same key' },
};

export function payoutsRoutes(app: App, ctx: AppContext): void {
  const tags = ['payouts'];
  const security = bearerSecurity;

  app.post(
    '/v1/withdraws',
    {
      config: { access: { scope: 'payouts:write' } },
      schema: {
        tags,
        security,
        operationId: 'requestPayout',
        summary: 'Request a payout',
        description: [
          'Answers at once. 201: allowed and submitted to the bank rail. 202: held for the owner\'s approval (`approval_id`,',
          '`expires_in`); follow it with `GET /v1/withdraws/{id}` or webhooks. 422 `PAYOUT_DENIED` carries the policy `reasons`',
          'and creates no payout. To see beforehand what a payout would get, without creating anything, use',
          '`POST /v1/withdraws/simulate`.',
          '',
          'Send an `Idempotency-Key` and reuse it when you retry: the same key with the same body replays the first answer',
          'for 24 hours, with `Idempotent-Replayed: true`; with a different body it is 422 `IDEMPOTENCY_KEY_REUSED`; while',
          'the first request is still running it is 409 `IDEMPOTENCY_KEY_IN_USE`.',
        ].join('\n'),
        headers: Type.Object({
          'idempotency-key': Type.String({
            maxLength: MAX_IDEMPOTENCY_KEY_LENGTH,
            description: 'your unique id for this payout, e.g. an order id; missing or blank is 400 MISSING_IDEMPOTENCY_KEY',
          }),
        }),
        body: WithdrawBody,
        response: {
          201: { ...CreatedBody, headers: REPLAYED },
          202: { ...PendingBody, headers: REPLAYED },
          ...errors('INSUFFICIENT_SCOPE', 
            ...AUTH_ERRORS,
            ...BODY_ERRORS,
            'MISSING_IDEMPOTENCY_KEY',
            'IDEMPOTENCY_KEY_IN_USE',
            'IDEMPOTENCY_KEY_REUSED',
            'ONBOARDING_INCOMPLETE',
            'PAYOUT_DENIED',
            'WITHDRAW_FAILED',
            'RAIL_UNAVAILABLE',
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
      // A replayed 502 (D37) is sent as stored, through the route's 502 error schema.
      return reply.status(res.status as 201).send(res.body as never);
    },
  );

  app.post(
    '/v1/withdraws/simulate',
    {
      config: { access: { scope: 'payouts:read' } },
      schema: {
        tags,
        security,
        operationId: 'simulatePayout',
        summary: 'Check a payout before requesting it',
        description: [
          'The same body as `POST /v1/withdraws`, no `Idempotency-Key`. Answers the decision a payout would get now',
          '(`allow`, `require_approval` or `deny`, with the same `reasons`), what is left of each limit, and who is behind',
          'the destination. Nothing is created or counted. Where a payout would answer an error instead of a decision',
          '(no wallet, approval needed but no approval channel, the rail not answering), this answers the same error.',
          'It is a snapshot: a payout sent afterwards is decided again.',
        ].join('\n'),
        body: WithdrawBody,
        response: {
          200: SimulationBody,
          ...errors('INSUFFICIENT_SCOPE', ...AUTH_ERRORS, ...BODY_ERRORS, 'ONBOARDING_INCOMPLETE', 'RAIL_UNAVAILABLE', 'APPROVAL_NOT_CONFIGURED'),
        },
      },
    },
    async (request) => simulatePayout(ctx, principalOf(request), request.body),
  );

  app.get(
    '/v1/withdraws',
    {
      config: { access: { scope: 'payouts:read' } },
      schema: {
        tags,
        security,
        operationId: 'listPayouts',
        summary: 'List payouts, newest first',
        description: 'At most 100 per page; pass `next_cursor` as `cursor` for the next page.',
        querystring: ListQuery,
        response: {
          200: Type.Object(
            {
              withdraws: Type.Array(PayoutRecord),
              next_cursor: Type.Union([Type.String(), Type.Null()], { description: 'null on the last page' }),
            },
            { description: 'A page of payouts' },
          ),
          ...errors('INSUFFICIENT_SCOPE', ...AUTH_ERRORS, 'INVALID_REQUEST'),
        },
      },
    },
    async (request) => listPayouts(ctx, principalOf(request).userId, request.query),
  );

  app.get(
    '/v1/withdraws/:id',
    {
      config: { access: { scope: 'payouts:read' } },
      schema: {
        tags,
        security,
        operationId: 'getPayout',
        summary: 'Get a payout',
        description: "Another user's payout is 404.",
        params: Type.Object({ id: Type.String({ maxLength: 64, description: 'the payout id (`wd_…`)' }) }),
        response: { 200: described(PayoutRecord, 'The payout'), ...errors('INSUFFICIENT_SCOPE', ...AUTH_ERRORS, 'INVALID_REQUEST', 'NOT_FOUND') },
      },
    },
    async (request) => getPayout(ctx, principalOf(request).userId, request.params.id),
  );

  app.post(
    '/v1/withdraws/:id/cancel',
    {
      config: { access: 'owner', safetyAction: true },
      schema: {
        tags,
        security,
        operationId: 'cancelPayout',
        summary: 'Cancel a payout held by the emergency stop (owner session)',
        description:
          'A payout left `approved` while payouts are paused waits to be sent (`waiting_for_resume`). Canceling it ends it ' +
          '`failed` with `failure_reason: "canceled_by_owner"` and gives its amount back to the limits. Its idempotency key ' +
          'keeps answering what its request was told (a request not answered yet is told of the failure). A payout ' +
          'already on its way to the bank, or in any other state, answers 409.',
        params: Type.Object({ id: Type.String({ maxLength: 64, description: 'the payout id (`wd_…`)' }) }),
        response: { 200: described(PayoutRecord, 'The canceled payout'), ...errors(...OWNER_ERRORS, ...BODY_ERRORS, 'NOT_FOUND', 'PAYOUT_NOT_CANCELABLE') },
      },
    },
    async (request) => cancelPayout(ctx, principalOf(request), request.params.id),
  );

  receiptRoute(app, ctx);
}
