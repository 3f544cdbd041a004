import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../context.js';
import { principalOf } from '../../http/auth.js';
import { BODY_ERRORS, bearerSecurity, errors, OWNER_ERRORS } from '../../http/schemas.js';
import type { App } from '../../http/types.js';
import { checkWebhookSecret, createLinkCode, handleUpdate, listChannels, unlinkTelegram } from './telegram.service.js';

export function telegramRoutes(app: App, ctx: AppContext): void {
  const tags = ['approval channels'];
  const security = bearerSecurity;

  app.get(
    '/v1/approval-channels',
    {
      config: { access: 'owner' },
      schema: {
        tags,
        security,
        operationId: 'listApprovalChannels',
        summary: 'Approval channels and whether each reaches the owner (owner session)',
        description: 'The channels this server offers. With none that reaches the owner, payouts that need approval answer 503 `APPROVAL_NOT_CONFIGURED`.',
        response: {
          200: Type.Object(
            {
              channels: Type.Array(
                Type.Object({
                  name: Type.String({ description: 'dashboard, telegram or whatsapp' }),
                  linked: Type.Boolean({ description: 'whether the channel reaches the owner' }),
                  linked_at: Type.Union([Type.String(), Type.Null()]),
                  username: Type.Union([Type.String(), Type.Null()], { description: 'the linked Telegram username' }),
                  phone: Type.Union([Type.String(), Type.Null()], { description: 'the linked WhatsApp number, masked' }),
                  state: Type.Union([Type.String(), Type.Null()], {
                    description: '`active`; `undeliverable` (WhatsApp cannot deliver to the number, or Telegram to the chat, e.g. the bot was blocked: approvals do not go there until the owner writes from it or links again) or `template_error` (the approval template was refused); null when not linked',
                  }),
                  problem: Type.Union(
                    [Type.Object({ code: Type.Integer(), message: Type.String(), at: Type.String() }), Type.Null()],
                    { description: 'the last error the messaging service reported for this link' },
                  ),
                }),
              ),
            },
            { description: 'The channels' },
          ),
          ...errors(...OWNER_ERRORS),
        },
      },
    },
    async (request) => ({ channels: await listChannels(ctx, principalOf(request).userId) }),
  );

  app.post(
    '/v1/approval-channels/telegram',
    {
      config: { access: 'owner' },
      schema: {
        tags,
        security,
        operationId: 'createTelegramLink',
        summary: 'Start linking Telegram (owner session)',
        description:
          "A one-time code and a t.me deep link, valid 15 minutes. Opening the link in the owner's Telegram links the chat; approvals are then also asked there, with Approve and Reject buttons.",
        response: {
          201: Type.Object(
            {
              code: Type.String(),
              link: Type.String({ description: 'open it in Telegram' }),
              expires_at: Type.String(),
              expires_in: Type.Integer({ description: 'seconds' }),
            },
            { description: 'The code and link' },
          ),
          ...errors(...OWNER_ERRORS, ...BODY_ERRORS, 'NOT_FOUND', 'SERVICE_UNAVAILABLE'),
        },
      },
    },
    async (request, reply) => reply.status(201).send(await createLinkCode(ctx, principalOf(request).userId)),
  );

  app.delete(
    '/v1/approval-channels/telegram',
    {
      config: { access: 'owner' },
      schema: {
        tags,
        security,
        operationId: 'unlinkTelegram',
        summary: 'Unlink Telegram (owner session)',
        response: { 204: Type.Null({ description: 'Unlinked' }), ...errors(...OWNER_ERRORS, ...BODY_ERRORS, 'NOT_FOUND') },
      },
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
      config: { access: 'own-credential', rateLimit: false, alwaysAdmit: true },
      schema: { hide: true },
      onRequest: async (request) => checkWebhookSecret(ctx, request.headers['x-telegram-bot-api-secret-token'] as string | undefined),
    },
    async (request) => {
      await handleUpdate(ctx, request.body as Parameters<typeof handleUpdate>[1]);
      return { ok: true };
    },
  );
}
