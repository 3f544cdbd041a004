import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../context.js';
import { principalOf } from '../../http/auth.js';
import { BODY_ERRORS, bearerSecurity, described, errors, OWNER_ERRORS, Timestamp } from '../../http/schemas.js';
import type { App } from '../../http/types.js';
import { sendTestEvent } from './webhook-test.service.js';
import { deleteWebhook, getWebhook, listDeliveries, putWebhook, redeliver } from './webhooks.service.js';

const Webhook = Type.Object({
  id: Type.String({ description: '`whk_…`' }),
  url: Type.String(),
  active: Type.Boolean({ description: 'inactive webhooks receive nothing' }),
  created_at: Timestamp,
  updated_at: Timestamp,
});
const Nullable = <T extends ReturnType<typeof Type.String> | ReturnType<typeof Type.Integer>>(t: T) => Type.Union([t, Type.Null()]);
const Delivery = Type.Object({
  id: Type.String({ description: '`whd_…`' }),
  event_id: Type.String({ description: '`evt_…`, also sent as X-Svc-Event-Id' }),
  event_type: Type.String({ description: 'e.g. payout.submitted' }),
  status: Type.String({ description: 'pending, delivered or failed' }),
  attempt_count: Type.Integer({ description: 'at most 5' }),
  created_at: Timestamp,
  last_attempt_at: Nullable(Type.String()),
  next_attempt_at: Nullable(Type.String()),
  last_response_status: Nullable(Type.Integer()),
  last_error: Nullable(Type.String()),
});

export function webhooksRoutes(app: App, ctx: AppContext): void {
  const tags = ['webhooks'];
  const security = bearerSecurity;

  app.get(
    '/v1/webhook',
    {
      config: { access: 'owner' },
      schema: {
        tags,
        security,
        operationId: 'getWebhook',
        summary: 'Get the webhook (owner session)',
        description: 'One per user; `webhook` is null when none is set. The secret is never shown.',
        response: { 200: Type.Object({ webhook: Type.Union([Webhook, Type.Null()]) }, { description: 'The webhook, or null' }), ...errors(...OWNER_ERRORS) },
      },
    },
    async (request) => ({ webhook: await getWebhook(ctx, principalOf(request).userId) }),
  );

  app.put(
    '/v1/webhook',
    {
      config: { access: 'owner' },
      schema: {
        tags,
        security,
        operationId: 'putWebhook',
        summary: 'Create or replace the webhook (owner session)',
        description:
          'Events are POSTed to `url`, signed with `secret`: `X-Svc-Signature: sha256=<hex HMAC-SHA256 of the raw body>`. The secret is write-only and must be at least 16 characters. Private, loopback and reserved addresses are refused unless the server is configured for local development.',
        body: Type.Object(
          {
            url: Type.Optional(Type.String({ maxLength: 2048, description: 'http or https URL; required' })),
            secret: Type.Optional(Type.String({ maxLength: 256, description: 'at least 16 characters; required' })),
            active: Type.Optional(Type.Boolean({ description: 'default true' })),
          },
          { additionalProperties: false },
        ),
        response: {
          200: Type.Object({ webhook: Webhook }, { description: 'The webhook as stored' }),
          ...errors(...OWNER_ERRORS, ...BODY_ERRORS, 'MISSING_URL', 'INVALID_URL', 'SECRET_TOO_SHORT'),
        },
      },
    },
    async (request) => ({ webhook: await putWebhook(ctx, principalOf(request), request.body) }),
  );

  app.delete(
    '/v1/webhook',
    {
      config: { access: 'owner' },
      schema: {
        tags,
        security,
        operationId: 'deleteWebhook',
        summary: 'Remove the webhook (owner session)',
        response: { 204: Type.Null({ description: 'Removed (or there was none)' }), ...errors(...OWNER_ERRORS, ...BODY_ERRORS) },
      },
    },
    async (request, reply) => {
      await deleteWebhook(ctx, principalOf(request));
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/v1/webhook/deliveries',
    {
      config: { access: 'owner' },
      schema: {
        tags,
        security,
        operationId: 'listWebhookDeliveries',
        summary: 'Recent webhook deliveries (owner session)',
        description:
          'The 50 most recent, failures included; pass `next_cursor` as `cursor` for older ones (after a long outage, to find every failed delivery). Records are kept 7 days.',
        querystring: Type.Object({ cursor: Type.Optional(Type.String({ maxLength: 64, description: '`next_cursor` of the previous page' })) }),
        response: {
          200: Type.Object(
            {
              deliveries: Type.Array(Delivery),
              next_cursor: Type.Union([Type.String(), Type.Null()], { description: 'null on the last page' }),
            },
            { description: 'A page of deliveries' },
          ),
          ...errors(...OWNER_ERRORS, 'INVALID_REQUEST'),
        },
      },
    },
    async (request) => listDeliveries(ctx, principalOf(request).userId, request.query),
  );

  app.post(
    '/v1/webhook/deliveries/:id/redeliver',
    {
      config: { access: 'owner' },
      schema: {
        tags,
        security,
        operationId: 'redeliverWebhook',
        summary: 'Send a delivery again (owner session)',
        description: 'The event goes out again as a new delivery, for receivers that were down. Needs a webhook to be set.',
        params: Type.Object({ id: Type.String({ maxLength: 64, description: 'the delivery id (`whd_…`)' }) }),
        response: { 202: described(Delivery, 'Queued'), ...errors(...OWNER_ERRORS, ...BODY_ERRORS, 'NOT_FOUND') },
      },
    },
    async (request, reply) => reply.status(202).send(await redeliver(ctx, principalOf(request), request.params.id)),
  );

  app.post(
    '/v1/webhook/test',
    {
      config: { access: 'owner' },
      schema: {
        tags,
        security,
        operationId: 'testWebhook',
        summary: 'Send a test event now (owner session)',
        description: 'Sends a signed `webhook.test` event to the webhook and answers with the attempt, so you can check your receiver and its signature check. 404 when no webhook is set or it is inactive.',
        response: { 200: described(Delivery, 'The attempt'), ...errors(...OWNER_ERRORS, ...BODY_ERRORS, 'NOT_FOUND') },
      },
    },
    async (request) => sendTestEvent(ctx, principalOf(request).userId),
  );
}
