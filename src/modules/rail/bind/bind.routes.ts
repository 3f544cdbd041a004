import { createHash, timingSafeEqual } from 'node:crypto';
import { BlockList, isIP } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { BindConfig } from '../../../config.js';
import { AppError } from '../../../shared/errors.js';
import type { BindInbox } from './bind-inbox.js';
import { creditOf, unreadableCredit } from './bind-inbox.js';
import { CVU_RECEIVED_EVENT, parseBindJson, type BindCvuReceivedNotice } from './bind-wire.js';

/** Where BIND posts its notices; the last segment is the secret token (D43). Logs show it redacted. */
export const BIND_WEBHOOK_PREFIX = '/v1/rails/bind/webhook/';

/** `/v1/rails/bind/webhook/<token>` → `/v1/rails/bind/webhook/[redacted]`, for every log line that carries a URL. */
export function redactWebhookUrl(url: string): string {
  return url.startsWith(BIND_WEBHOOK_PREFIX) ? `${BIND_WEBHOOK_PREFIX}[redacted]` : url;
}

/**
 * D43: BIND's "Aviso de Transferencia Entrante en CVU" (`transfer.cvu.received`). BIND signs nothing, so the
 * URL carries a secret token (compared in constant time) and, when configured, only BIND's addresses may call.
 * The notice goes to the inbox keyed by BIND's id (a repeat is a no-op) and the answer is 200 at once: BIND
 * retries anything else. Other events and other states are answered 200 and ignored.
 */
export async function bindWebhookRoutes(app: FastifyInstance, bind: BindConfig, inbox: BindInbox): Promise<void> {
  const want = createHash('sha256').update(bind.webhookToken).digest();
  const allowed = allowList(bind.webhookAllowedIps);
  await app.register(async (child) => {
    // The raw text, so that amounts reach centavos without passing through a float (bind-wire.ts).
    child.removeContentTypeParser('application/json');
    child.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => done(null, body));
    child.post<{ Params: { token: string }; Body: string }>(
      `${BIND_WEBHOOK_PREFIX}:token`,
      {
        config: { access: 'own-credential', rateLimit: false },
        schema: { hide: true },
        onRequest: async (request) => {
          const have = createHash('sha256').update(String((request.params as { token?: string }).token ?? '')).digest();
          if (!timingSafeEqual(want, have)) throw new AppError('NOT_FOUND', 'Not found');
          if (allowed && !allowed.check(request.ip, isIP(request.ip) === 6 ? 'ipv6' : 'ipv4')) throw new AppError('NOT_FOUND', 'Not found');
        },
      },
      async (request) => {
        let notice: BindCvuReceivedNotice;
        try {
          notice = parseBindJson<BindCvuReceivedNotice>(request.body);
        } catch {
          throw new AppError('INVALID_JSON', 'Body is not valid JSON');
        }
        if (notice?.type !== CVU_RECEIVED_EVENT || notice.data?.status !== 'COMPLETED') return { received: true };
        const at = notice.created ?? new Date().toISOString();
        const credit = creditOf(notice.data, at);
        if (!credit) {
          const why = unreadableCredit(notice.data, at);
          request.log.warn({ bindId: notice.data?.id, why }, why ? 'BIND notice without a usable credit; kept as failed' : 'BIND notice without a usable credit; ignored');
          if (why) await inbox.insertUnreadable(notice.data, why, 'webhook');
          return { received: true };
        }
        await inbox.insert(credit, 'webhook');
        return { received: true };
      },
    );
  });
}

function allowList(entries: string[]): BlockList | null {
  if (entries.length === 0) return null;
  const list = new BlockList();
  for (const e of entries) {
    const [addr, bits] = e.split('/');
    const type = isIP(addr!) === 6 ? 'ipv6' : 'ipv4';
    if (bits === undefined) list.addAddress(addr!, type);
    else list.addSubnet(addr!, Number(bits), type);
  }
  return list;
}
