import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../context.js';
import { principalOf } from '../../http/auth.js';
import { BODY_ERRORS, bearerSecurity, errors, OWNER_ERRORS } from '../../http/schemas.js';
import type { App } from '../../http/types.js';
import { AppError } from '../../shared/errors.js';
import { checkSignature, createLinkCode, handleWebhook, unlinkWhatsApp, verifySubscription, type WebhookBody } from './whatsapp.service.js';

/** D45: linking a WhatsApp number (owner session) and the Cloud API's webhook. */
export async function whatsappRoutes(app: App, ctx: AppContext): Promise<void> {
  const tags = ['approval channels'];
  const security = bearerSecurity;

  app.post(
    '/v1/approval-channels/whatsapp',
    {
      config: { access: 'owner' },
      schema: {
        tags,
        security,
        operationId: 'createWhatsAppLink',
        summary: 'Start linking WhatsApp (owner session)',
        description:
          "A one-time code and a wa.me link, valid 15 minutes. The owner sends the code (the link types it in) from their phone to the business number; that number is then linked and approvals are also asked there, as a template message with Aprobar and Rechazar buttons. Linking again replaces the number.",
        response: {
          201: Type.Object(
            {
              code: Type.String({ description: 'e.g. `K7QM-4TZP`' }),
              text: Type.String({ description: 'the message to send, with the code' }),
              link: Type.String({ description: 'https://wa.me/<business number>?text=… — opens WhatsApp with the message typed in' }),
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
    '/v1/approval-channels/whatsapp',
    {
      config: { access: 'owner' },
      schema: {
        tags,
        security,
        operationId: 'unlinkWhatsApp',
        summary: 'Unlink WhatsApp (owner session)',
        description: 'Approvals are no longer sent to the number; buttons pressed on earlier messages are refused.',
        response: { 204: Type.Null({ description: 'Unlinked' }), ...errors(...OWNER_ERRORS, ...BODY_ERRORS, 'NOT_FOUND') },
      },
    },
    async (request, reply) => {
      await unlinkWhatsApp(ctx, principalOf(request).userId);
      return reply.status(204).send(null);
    },
  );

  // The Cloud API's webhook: not rate limited (every delivery comes from Meta) and hidden from the API document.
  app.get('/v1/channels/whatsapp/webhook', { config: { access: 'own-credential', rateLimit: false }, schema: { hide: true } }, async (request, reply) =>
    reply.type('text/plain').send(verifySubscription(ctx, request.query as Record<string, string | undefined>)),
  );

  // The signature covers the raw bytes, so this one route keeps its body as a Buffer (a parser of its own,
  // encapsulated in this plugin) and parses the JSON only once the signature matched.
  await app.register(async (scoped) => {
    scoped.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
    scoped.post('/v1/channels/whatsapp/webhook', { config: { access: 'own-credential', rateLimit: false, alwaysAdmit: true }, schema: { hide: true } }, async (request) => {
      const raw = request.body as Buffer;
      checkSignature(ctx, raw, request.headers['x-hub-signature-256'] as string | undefined);
      let body: WebhookBody;
      try {
        body = JSON.parse(raw.toString('utf8')) as WebhookBody;
      } catch {
        throw new AppError('INVALID_JSON', 'Request body is not valid JSON');
      }
      await handleWebhook(ctx, body);
      return { ok: true };
    });
  });
}
