import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface GraphCall {
  method: string;
  path: string;
  auth: string | undefined;
  body: Record<string, unknown>;
  /** The message id answered for a send. */
  wamid?: string;
}

export const BUSINESS_NUMBER = '5491150000000';

/**
 * A local stand-in for the WhatsApp Cloud API (Graph API): the business number, sending messages. It records
 * every call and can be told to fail as the real one does: unreachable (502), a number that cannot receive
 * (131026) or a refused template (132001).
 */
export async function startFakeWhatsApp(phoneNumberId: string) {
  const calls: GraphCall[] = [];
  let failing = false;
  let templateError = false;
  const undeliverable = new Set<string>();
  let next = 1;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://x');
      const raw = Buffer.concat(chunks).toString('utf8');
      const body = raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
      const send = (status: number, payload: unknown) => {
        res.statusCode = status;
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify(payload));
      };
      const graphError = (code: number, message: string) => send(400, { error: { message, type: 'OAuthException', code, error_data: { messaging_product: 'whatsapp', details: message }, fbtrace_id: 'fake' } });
      calls.push({ method: req.method ?? '', path: url.pathname, auth: req.headers.authorization, body });
      if (failing) return send(502, { error: { message: 'Bad Gateway', code: 2 } });
      if (req.method === 'GET' && url.pathname === `/v21.0/${phoneNumberId}`) {
        return send(200, { display_phone_number: '+54 9 11 5000-0000', id: phoneNumberId });
      }
      if (req.method === 'POST' && url.pathname === `/v21.0/${phoneNumberId}/messages`) {
        const to = String(body.to);
        if (undeliverable.has(to)) return graphError(131026, 'Message undeliverable');
        if (body.type === 'template' && templateError) return graphError(132001, 'Template name does not exist in the translation');
        const wamid = `wamid.FAKE${next++}`;
        calls.at(-1)!.wamid = wamid;
        return send(200, { messaging_product: 'whatsapp', contacts: [{ input: to, wa_id: to }], messages: [{ id: wamid }] });
      }
      return send(404, { error: { message: 'Unknown path', code: 100 } });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const sends = () => calls.filter((c) => c.method === 'POST');
  return {
    apiRoot: `http://127.0.0.1:${port}/v21.0`,
    calls,
    templates: () => sends().filter((c) => c.body.type === 'template'),
    texts: () => sends().filter((c) => c.body.type === 'text'),
    lastWamid: () => `wamid.FAKE${next - 1}`,
    setFailing: (f: boolean) => void (failing = f),
    setTemplateError: (f: boolean) => void (templateError = f),
    setUndeliverable: (waId: string, f: boolean) => void (f ? undeliverable.add(waId) : undeliverable.delete(waId)),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A webhook delivery as Meta sends it: the JSON text and its `X-Hub-Signature-256` with the app secret. */
export function signedDelivery(appSecret: string, value: Record<string, unknown>): { payload: string; signature: string } {
  const payload = JSON.stringify({
    object: 'whatsapp_business_account',
    entry: [{ id: '102290129340398', changes: [{ field: 'messages', value: { messaging_product: 'whatsapp', metadata: { display_phone_number: BUSINESS_NUMBER, phone_number_id: 'x' }, ...value } }] }],
  });
  return { payload, signature: `sha256=${createHmac('sha256', appSecret).update(payload).digest('hex')}` };
}

/** An inbound text message from `from`. */
export const textMessage = (from: string, id: string, body: string) => ({
  contacts: [{ profile: { name: 'Ana' }, wa_id: from }],
  messages: [{ from, id, timestamp: '1739321024', type: 'text', text: { body } }],
});

/** A quick-reply press on template `context` with the payload we sent, and the label the owner saw on it. */
export const buttonPress = (from: string, id: string, payload: string, context = 'wamid.FAKE1', text = payload.startsWith('a:') ? 'Aprobar' : 'Rechazar') => ({
  contacts: [{ profile: { name: 'Ana' }, wa_id: from }],
  messages: [{ context: { from: BUSINESS_NUMBER, id: context }, from, id, timestamp: '1739321024', type: 'button', button: { payload, text } }],
});

/** A status callback; `code` makes it a failure with that Cloud API error. */
export const statusUpdate = (wamid: string, recipient: string, status: string, code?: number) => ({
  statuses: [
    {
      id: wamid,
      status,
      timestamp: '1739321024',
      recipient_id: recipient,
      ...(code ? { errors: [{ code, title: code === 131026 ? 'Message undeliverable' : 'Template error', message: 'failed', error_data: { details: 'from the fake' } }] } : {}),
    },
  ],
});
