import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../context.js';
import { principalOf } from '../../http/auth.js';
import { AUTH_ERRORS, BODY_ERRORS, bearerSecurity, described, errors, OWNER_ERRORS, StringEnum } from '../../http/schemas.js';
import type { App } from '../../http/types.js';
import { decideApproval, getApproval, listApprovals } from './approvals.service.js';

const Approval = Type.Object({
  id: Type.String({ description: '`apr_…`' }),
  kind: Type.Union([Type.Literal('payout'), Type.Literal('threshold_change')]),
  status: Type.String({ description: 'pending, approved, rejected or expired' }),
  created_at: Type.String(),
  expires_at: Type.String(),
  expires_in: Type.Integer({ description: 'seconds left to decide; 0 once decided or expired' }),
  decided_at: Type.Union([Type.String(), Type.Null()]),
  decided_via: Type.Union([Type.String(), Type.Null()], { description: 'dashboard, telegram, expiry, or policy when a re-check refused it' }),
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
  threshold_change: Type.Union(
    [
      Type.Object({
        current: Type.Record(Type.String(), Type.Unknown()),
        proposed: Type.Record(Type.String(), Type.Unknown()),
        limits_changed: Type.Boolean({
          description:
            'Pending, and the owner changed since the proposal a limit it shows as before, or the trusted list it changes: approving it is refused (422 `PAYOUT_DENIED`, reason `limits_changed`); the agent may propose again',
        }),
      }),
      Type.Null(),
    ],
    {
      description:
        'An agent\'s proposal. Pending: `current` is the limits in force now and `proposed` the fields approving would change ' +
        'now. Decided: `current` is the limits it was made on and `proposed` the fields it set',
    },
  ),
});

/** D23 `dashboard` channel: the owner sees what is asked and decides it. */
export function approvalsRoutes(app: App, ctx: AppContext): void {
  const tags = ['approvals'];
  const security = bearerSecurity;
  const Params = Type.Object({ id: Type.String({ maxLength: 64, description: 'the approval id (`apr_…`)' }) });

  app.get(
    '/v1/approvals',
    {
      config: { access: { scope: 'payouts:read' } },
      schema: {
        tags,
        security,
        operationId: 'listApprovals',
        summary: 'List approvals, newest first',
        description: 'Filter by `status` (e.g. `pending` for what waits for the owner); pass `next_cursor` as `cursor` for the next page.',
        querystring: Type.Object(
          {
            // An enum, not a union of literals: a wrong value is then answered with the values it takes.
            status: Type.Optional(StringEnum(['pending', 'approved', 'rejected', 'expired'] as const)),
            limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 50 })),
            cursor: Type.Optional(Type.String({ maxLength: 64 })),
          },
          { additionalProperties: false },
        ),
        response: {
          200: Type.Object(
            { approvals: Type.Array(Approval), next_cursor: Type.Union([Type.String(), Type.Null()], { description: 'null on the last page' }) },
            { description: 'A page of approvals' },
          ),
          ...errors('INSUFFICIENT_SCOPE', ...AUTH_ERRORS, 'INVALID_REQUEST'),
        },
      },
    },
    async (request) =>
      listApprovals(ctx, principalOf(request).userId, request.query as { status?: 'pending'; limit?: number; cursor?: string }),
  );

  app.get(
    '/v1/approvals/:id',
    {
      config: { access: { scope: 'payouts:read' } },
      schema: {
        tags,
        security,
        operationId: 'getApproval',
        summary: 'Get an approval',
        params: Params,
        response: { 200: described(Approval, 'The approval'), ...errors('INSUFFICIENT_SCOPE', ...AUTH_ERRORS, 'INVALID_REQUEST', 'NOT_FOUND') },
      },
    },
    async (request) => getApproval(ctx, principalOf(request).userId, request.params.id),
  );

  for (const verdict of ['approve', 'reject'] as const) {
    app.post(
      `/v1/approvals/:id/${verdict}`,
      {
        config: { access: 'owner', safetyAction: true },
        schema: {
          tags,
          security,
          operationId: verdict === 'approve' ? 'approveApproval' : 'rejectApproval',
          summary: `${verdict === 'approve' ? 'Approve' : 'Reject'} a pending request (owner session)`,
          description:
            verdict === 'approve'
              ? 'An approved payout is submitted to the bank rail at once. Approving re-checks what would deny the payout (KYC, the absolute cap, the destination): if any now applies, the request ends and the answer is 422 `PAYOUT_DENIED` with `reasons`. Exactly one decision wins; deciding after the window is 409 `APPROVAL_EXPIRED`.'
              : 'The payout or threshold change is not carried out. Exactly one decision wins; deciding after the window is 409 `APPROVAL_EXPIRED`.',
          params: Params,
          response: {
            200: described(Approval, 'The approval as decided'),
            ...errors(
              ...OWNER_ERRORS,
              ...BODY_ERRORS,
              'NOT_FOUND',
              'APPROVAL_EXPIRED',
              'APPROVAL_ALREADY_DECIDED',
              // Only approving re-checks the payout, at the rail too.
              ...(verdict === 'approve' ? (['PAYOUT_DENIED', 'RAIL_UNAVAILABLE'] as const) : []),
            ),
          },
        },
      },
      async (request) => decideApproval(ctx, principalOf(request), request.params.id, verdict, 'dashboard'),
    );
  }
}
