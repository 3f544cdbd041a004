import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';

export interface BotCall {
  method: string;
  body: Record<string, unknown>;
}

/**
 * A local stand-in for the Telegram Bot API: answers the methods the service uses, records every call, and can
 * be told to fail (as if Telegram were unreachable) or to refuse a chat as Telegram does when the user blocked
 * the bot (403).
 */
export async function startFakeTelegram(token: string) {
  const calls: BotCall[] = [];
  let failing = false;
  // While hanging, every call is held unanswered (Telegram slow, or a connection that never answers) until released.
  let hanging = false;
  const held: (() => void)[] = [];
  const blocked = new Set<string>();
  // The owner deleted the bot's messages: edits answer as the Bot API does then.
  let editsGone = false;
  let nextMessageId = 100;
  const answered = new Set<string>();
  // Flood control: every call answered 429 with this `retry_after` (seconds), while set.
  let floodWait = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    const answer = () => {
      const m = new RegExp(`^/bot${token}/(\\w+)$`).exec(req.url ?? '');
      const raw = Buffer.concat(chunks).toString('utf8');
      const body = raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
      const send = (status: number, payload: unknown) => {
        res.statusCode = status;
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify(payload));
      };
      if (!m) return send(404, { ok: false, error_code: 404, description: 'Not Found' });
      const method = m[1]!;
      calls.push({ method, body });
      if (failing) return send(502, { ok: false, error_code: 502, description: 'Bad Gateway' });
      if (floodWait > 0) {
        return send(429, { ok: false, error_code: 429, description: `Too Many Requests: retry after ${floodWait}`, parameters: { retry_after: floodWait } });
      }
      if (body.chat_id !== undefined && blocked.has(String(body.chat_id))) {
        return send(403, { ok: false, error_code: 403, description: 'Forbidden: bot was blocked by the user' });
      }
      switch (method) {
        case 'getMe':
          return send(200, { ok: true, result: { id: 42, is_bot: true, first_name: 'ARS Wallet', username: 'ars_wallet_test_bot' } });
        case 'sendMessage':
          // As the Bot API does: a text is 1–4096 characters after entity parsing, else 400.
          if ([...String(body.text ?? '')].length > 4096) return send(400, { ok: false, error_code: 400, description: 'Bad Request: message is too long' });
          return send(200, { ok: true, result: { message_id: nextMessageId++, date: 0, chat: { id: Number(body.chat_id), type: 'private' }, text: body.text } });
        case 'editMessageText':
          if (editsGone) return send(400, { ok: false, error_code: 400, description: 'Bad Request: message to edit not found' });
          if ([...String(body.text ?? '')].length > 4096) return send(400, { ok: false, error_code: 400, description: 'Bad Request: MESSAGE_TOO_LONG' });
          return send(200, { ok: true, result: { message_id: body.message_id, date: 0, chat: { id: Number(body.chat_id), type: 'private' }, text: body.text } });
        case 'answerCallbackQuery':
          // As the Bot API does: a press is answered once (and only within a few seconds).
          if (answered.has(String(body.callback_query_id))) {
            return send(400, { ok: false, error_code: 400, description: 'Bad Request: query is too old and response timeout expired or query ID is invalid' });
          }
          answered.add(String(body.callback_query_id));
          return send(200, { ok: true, result: true });
        default:
          return send(400, { ok: false, error_code: 400, description: `unsupported method ${method}` });
      }
    };
    req.on('end', () => (hanging ? held.push(answer) : answer()));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    apiRoot: `http://127.0.0.1:${port}`,
    calls,
    of: (method: string) => calls.filter((c) => c.method === method),
    setFailing: (f: boolean) => {
      failing = f;
    },
    /** Holds every call unanswered; `false` answers the held ones. */
    setHanging: (h: boolean) => {
      hanging = h;
      if (!h) for (const release of held.splice(0)) release();
    },
    /** Answers every call 429 with `retry_after` of this many seconds; 0 stops. */
    setFloodWait: (seconds: number) => {
      floodWait = seconds;
    },
    setEditsGone: (g: boolean) => {
      editsGone = g;
    },
    /** How many calls are held unanswered now. */
    heldCount: () => held.length,
    /** Answers the calls held so far and keeps holding the next ones. */
    releaseHeld: () => {
      for (const release of held.splice(0)) release();
    },
    setBlocked: (chatId: number | string, b: boolean) => void (b ? blocked.add(String(chatId)) : blocked.delete(String(chatId))),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * The updates Telegram posts to the service's webhook, each with the next `update_id` (or the one given, to post
 * the same update twice as Telegram's redelivery does), and the post itself with the webhook's secret header.
 */
export function telegramWebhook(app: () => { inject: FastifyInstance['inject'] }, secret: string, firstUpdateId = 1000) {
  let updateId = firstUpdateId;
  const nextId = () => ++updateId;
  const post = (update: object, headers: Record<string, string> = { 'x-telegram-bot-api-secret-token': secret }) =>
    app().inject({ method: 'POST', url: '/v1/channels/telegram/webhook', headers, payload: update });
  /** A press of one of a message's buttons (`a:<approval>` approves, `r:` rejects). */
  const pressUpdate = (data: string, chatId: number, opts: { messageId?: number; id?: number } = {}) => {
    const id = opts.id ?? nextId();
    return { update_id: id, callback_query: { id: `cb${id}`, data, from: { id: chatId }, message: { message_id: opts.messageId ?? 1, chat: { id: chatId } } } };
  };
  /** `/start <code>` in a private chat: the deep link's linking code. */
  const startUpdate = (code: string, chatId: number, username?: string) => ({
    update_id: nextId(),
    message: { message_id: 1, chat: { id: chatId, type: 'private' }, from: { id: chatId, ...(username ? { username } : {}) }, text: `/start ${code}` },
  });
  return {
    nextId,
    post,
    pressUpdate,
    press: (data: string, chatId: number, opts?: { messageId?: number; id?: number }) => post(pressUpdate(data, chatId, opts)),
    start: (code: string, chatId: number, username?: string) => post(startUpdate(code, chatId, username)),
  };
}
