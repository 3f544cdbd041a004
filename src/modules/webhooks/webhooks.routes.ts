import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../context.js';
import { principalOf, requireAuth, requireOwner } from '../../http/auth.js';
import { AUTH_ERRORS, bearerSecurity, errors, Timestamp } from '../../http/schemas.js';
import type { App } from '../../http/types.js';
import { sendTestEvent } from './webhook-test.service.js';
import { deleteWebhook, getWebhook, listDeliveries, putWebhook, redeliver } from './webhooks.service.js';

const Webhook = Type.Object({
  id: Type.String(),
  url: Type.String(),
  active: Type.Boolean(),
  created_at: Timestamp,
  updated_at: Timestamp,
});
const Nullable = <T extends ReturnType<typeof Type.String> | ReturnType<typeof Type.Integer>>(t: T) => Type.Union([t, Type.Null()]);
const Delivery = Type.Object({
  id: Type.String(),
  event_id: Type.String(),
  event_type: Type.String(),
  status: Type.String({ description: 'pending, delivered or failed' }),
  attempt_count: Type.Integer(),
  created_at: Timestamp,
  last_attempt_at: Nullable(Type.String()),
  next_attempt_at: Nullable(Type.String()),
  last_response_status: Nullable(Type.Integer()),
  last_error: Nullable(Type.String()),
});

export function webhooksRoutes(app: App, ctx: AppContext): void {
  const auth = requireAuth(ctx);
  const tags = ['webhooks'];
  const security = bearerSecurity;

  app.get(
    '/v1/webhook',
    { onRequest: auth, schema: { tags, security, summary: 'The webhook (one per user), or null', response: { 200: Type.Object({ webhook: Type.Union([Webhook, Type.Null()]) }), ...errors(...AUTH_ERRORS) } } },
    async (request) => ({ webhook: await getWebhook(ctx, principalOf(request).userId) }),
  );

  app.put(
    '/v1/webhook',
    {
      onRequest: [auth, requireOwner],
      schema: {
        tags,
        security,
        summary: 'Create or replace the webhook (owner session). The secret is write-only (≥ 16 characters)',
        body: Type.Object(
          { url: Type.Optional(Type.String({ maxLength: 2048 })), secret: Type.Optional(Type.String({ maxLength: 256 })), active: Type.Optional(Type.Boolean()) },
          { additionalProperties: false },
        ),
        response: {
          200: Type.Object({ webhook: Webhook }),
          ...errors(...AUTH_ERRORS, 'OWNER_SESSION_REQUIRED', 'INVALID_JSON', 'INVALID_REQUEST', 'MISSING_URL', 'INVALID_URL', 'SECRET_TOO_SHORT'),
        },
      },
    },
    async (request) => ({ webhook: await putWebhook(ctx, principalOf(request).userId, request.body) }),
  );

  app.delete(
    '/v1/webhook',
    { onRequest: [auth, requireOwner], schema: { tags, security, summary: 'Remove the webhook (owner session)', response: { 204: Type.Null(), ...errors(...AUTH_ERRORS, 'OWNER_SESSION_REQUIRED') } } },
    async (request, reply) => {
      await deleteWebhook(ctx, principalOf(request).userId);
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/v1/webhook/deliveries',
    {
      onRequest: auth,
      schema: { tags, security, summary: 'The 50 most recent delivery attempts, failures included', response: { 200: Type.Object({ deliveries: Type.Array(Delivery) }), ...errors(...AUTH_ERRORS) } },
    },
    async (request) => ({ deliveries: await listDeliveries(ctx, principalOf(request).userId) }),
  );

  app.post(
    '/v1/webhook/deliveries/:id/redeliver',
    {
      onRequest: auth,
      schema: {
        tags,
        security,
        summary: 'Send an event again as a new delivery (for receivers that were down)',
        params: Type.Object({ id: Type.String({ maxLength: 64 }) }),
        response: { 202: Delivery, ...errors(...AUTH_ERRORS, 'NOT_FOUND') },
      },
    },
    async (request, reply) => reply.status(202).send(await redeliver(ctx, principalOf(request).userId, request.params.id)),
  );

  app.post(
    '/v1/webhook/test',
    {
      onRequest: auth,
      schema: {
        tags,
        security,
        summary: 'Send a signed `webhook.test` event now and report the attempt',
        response: { 200: Delivery, ...errors(...AUTH_ERRORS, 'NOT_FOUND') },
      },
    },
    async (request) => sendTestEvent(ctx, principalOf(request).userId),
  );
}
