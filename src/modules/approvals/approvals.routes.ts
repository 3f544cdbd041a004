import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../context.js';
import { principalOf, requireAuth, requireOwner, requireScope } from '../../http/auth.js';
import { AUTH_ERRORS, bearerSecurity, errors } from '../../http/schemas.js';
import type { App } from '../../http/types.js';
import { decideApproval, getApproval, listApprovals } from './approvals.service.js';

const Approval = Type.Object({
  id: Type.String(),
  kind: Type.Union([Type.Literal('payout'), Type.Literal('threshold_change')]),
  status: Type.String(),
  created_at: Type.String(),
  expires_at: Type.String(),
  expires_in: Type.Integer(),
  decided_at: Type.Union([Type.String(), Type.Null()]),
  decided_via: Type.Union([Type.String(), Type.Null()]),
  api_key_id: Type.Union([Type.String(), Type.Null()]),
  api_key_name: Type.Union([Type.String(), Type.Null()]),
  payout: Type.Union([
    Type.Object({
      id: Type.String(),
      amount_ars: Type.Number(),
      destination: Type.String(),
      destination_kind: Type.String(),
      recipient_name: Type.Union([Type.String(), Type.Null()]),
      reasons: Type.Array(Type.String()),
      note: Type.Union([Type.String(), Type.Null()]),
      status: Type.String(),
    }),
    Type.Null(),
  ]),
  threshold_change: Type.Union([
    Type.Object({ current: Type.Record(Type.String(), Type.Unknown()), proposed: Type.Record(Type.String(), Type.Unknown()) }),
    Type.Null(),
  ]),
});

/** D23 `dashboard` channel: the owner sees what is asked and decides it. */
export function approvalsRoutes(app: App, ctx: AppContext): void {
  const auth = requireAuth(ctx);
  const tags = ['approvals'];
  const security = bearerSecurity;
  const Params = Type.Object({ id: Type.String({ maxLength: 64 }) });

  app.get(
    '/v1/approvals',
    {
      onRequest: [auth, requireScope('payouts:read')],
      schema: {
        tags,
        security,
        summary: 'Approvals, newest first; filter by status and page with limit and cursor (next_cursor)',
        querystring: Type.Object(
          {
            status: Type.Optional(Type.Union(['pending', 'approved', 'rejected', 'expired'].map((s) => Type.Literal(s)))),
            limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 50 })),
            cursor: Type.Optional(Type.String({ maxLength: 64 })),
          },
          { additionalProperties: false },
        ),
        response: {
          200: Type.Object({ approvals: Type.Array(Approval), next_cursor: Type.Union([Type.String(), Type.Null()]) }),
          ...errors(...AUTH_ERRORS, 'INVALID_REQUEST'),
        },
      },
    },
    async (request) =>
      listApprovals(ctx, principalOf(request).userId, request.query as { status?: 'pending'; limit?: number; cursor?: string }),
  );

  app.get(
    '/v1/approvals/:id',
    {
      onRequest: [auth, requireScope('payouts:read')],
      schema: { tags, security, summary: 'One approval', params: Params, response: { 200: Approval, ...errors(...AUTH_ERRORS, 'NOT_FOUND') } },
    },
    async (request) => getApproval(ctx, principalOf(request).userId, request.params.id),
  );

  for (const verdict of ['approve', 'reject'] as const) {
    app.post(
      `/v1/approvals/:id/${verdict}`,
      {
        onRequest: [auth, requireOwner],
        schema: {
          tags,
          security,
          summary: `${verdict === 'approve' ? 'Approve' : 'Reject'} a pending request (owner session only, D13)`,
          params: Params,
          response: {
            200: Approval,
            ...errors(
              ...AUTH_ERRORS,
              'OWNER_SESSION_REQUIRED',
              'NOT_FOUND',
              'APPROVAL_EXPIRED',
              'APPROVAL_ALREADY_DECIDED',
              'PAYOUT_DENIED',
              'RAIL_UNAVAILABLE',
            ),
          },
        },
      },
      async (request) => decideApproval(ctx, principalOf(request), request.params.id, verdict, 'dashboard'),
    );
  }
}
