import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../context.js';
import { principalOf } from '../../http/auth.js';
import { bearerSecurity, errors, OWNER_ERRORS, Timestamp } from '../../http/schemas.js';
import type { App } from '../../http/types.js';
import { ACTIVITY_MAX, listActivity } from './audit.service.js';

const Entry = Type.Object({
  id: Type.String(),
  action: Type.String({ description: 'what happened, e.g. payout.requested, payout.denied, approval.approve, mcp.request_payout' }),
  subject_id: Type.Union([Type.String(), Type.Null()]),
  actor: Type.Union([Type.Literal('owner'), Type.Literal('agent')], { description: 'agent: through an API key; owner: the owner session' }),
  api_key_id: Type.Union([Type.String(), Type.Null()]),
  api_key_name: Type.Union([Type.String(), Type.Null()]),
  data: Type.Unknown({ description: 'details of the action (JSON)' }),
  created_at: Timestamp,
});

/**
 * The activity screen of the dashboard: the user's audit log (who did what, with which key). Owner only: it
 * shows what every agent did, which one agent has no business reading (D13 spirit, D33).
 */
export function auditRoutes(app: App, ctx: AppContext): void {
  app.get(
    '/v1/activity',
    {
      config: { access: 'owner' },
      schema: {
        tags: ['activity'],
        security: bearerSecurity,
        operationId: 'listActivity',
        summary: 'The audit log (owner session)',
        description: 'Who did what, newest first: the owner or an agent through its key. Page with `limit` and `cursor` (`next_cursor`).',
        querystring: Type.Object(
          {
            limit: Type.Optional(Type.Integer({ minimum: 1, maximum: ACTIVITY_MAX, default: 50 })),
            cursor: Type.Optional(Type.String({ maxLength: 64 })),
          },
          { additionalProperties: false },
        ),
        response: {
          200: Type.Object({ entries: Type.Array(Entry), next_cursor: Type.Union([Type.String(), Type.Null()]) }, { description: 'One page of the log' }),
          ...errors(...OWNER_ERRORS, 'INVALID_REQUEST'),
        },
      },
    },
    async (request) => listActivity(ctx.store.db, principalOf(request).userId, request.query),
  );
}
