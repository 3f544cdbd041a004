import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../context.js';
import { principalOf, requireAuth, requireOwner } from '../../http/auth.js';
import { AUTH_ERRORS, bearerSecurity, errors } from '../../http/schemas.js';
import type { App } from '../../http/types.js';
import { checkWebhookSecret, createLinkCode, handleUpdate, listChannels, unlinkTelegram } from './telegram.service.js';

export function telegramRoutes(app: App, ctx: AppContext): void {
  const auth = requireAuth(ctx);
  const tags = ['approval channels'];
  const security = bearerSecurity;

  app.get(
    '/v1/approval-channels',
    {
      onRequest: auth,
      schema: {
        tags,
        security,
        summary: 'The approval channels of this server and whether each reaches the user',
        response: {
          200: Type.Object({
            channels: Type.Array(
              Type.Object({
                name: Type.String(),
                linked: Type.Boolean(),
                linked_at: Type.Union([Type.String(), Type.Null()]),
                username: Type.Union([Type.String(), Type.Null()]),
              }),
            ),
          }),
          ...errors(...AUTH_ERRORS),
        },
      },
    },
    async (request) => ({ channels: await listChannels(ctx, principalOf(request).userId) }),
  );

  app.post(
    '/v1/approval-channels/telegram',
    {
      onRequest: [auth, requireOwner],
      schema: {
        tags,
        security,
        summary: 'A one-time code and t.me deep link (15 minutes) that links the owner’s Telegram chat',
        response: {
          201: Type.Object({ code: Type.String(), link: Type.String(), expires_at: Type.String(), expires_in: Type.Integer() }),
          ...errors(...AUTH_ERRORS, 'OWNER_SESSION_REQUIRED', 'NOT_FOUND', 'SERVICE_UNAVAILABLE'),
        },
      },
    },
    async (request, reply) => reply.status(201).send(await createLinkCode(ctx, principalOf(request).userId)),
  );

  app.delete(
    '/v1/approval-channels/telegram',
    {
      onRequest: [auth, requireOwner],
      schema: { tags, security, summary: 'Unlink Telegram', response: { 204: Type.Null(), ...errors(...AUTH_ERRORS, 'OWNER_SESSION_REQUIRED', 'NOT_FOUND') } },
    },
    async (request, reply) => {
      await unlinkTelegram(ctx, principalOf(request).userId);
      return reply.status(204).send(null);
    },
  );

  // Telegram's webhook: authenticated by the secret token Telegram echoes, and not rate limited (all updates
  // come from Telegram's few addresses). Always 200 once authenticated, so Telegram does not redeliver.
  app.post(
    '/v1/channels/telegram/webhook',
    {
      config: { rateLimit: false },
      schema: { hide: true },
      onRequest: async (request) => checkWebhookSecret(ctx, request.headers['x-telegram-bot-api-secret-token'] as string | undefined),
    },
    async (request) => {
      await handleUpdate(ctx, request.body as Parameters<typeof handleUpdate>[1]);
      return { ok: true };
    },
  );
}
