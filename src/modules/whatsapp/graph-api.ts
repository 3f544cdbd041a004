/**
 * The few WhatsApp Cloud API calls the channel needs (D45), over plain `fetch`: reading the business number
 * (for the wa.me link), sending a template and sending a text. A client library would wrap the same three
 * requests; keeping them here keeps the API root configurable for the tests' fake Graph API and adds no
 * dependency.
 */
export class GraphApiError extends Error {
  constructor(
    readonly status: number,
    /** The Cloud API's error code (e.g. 131026 undeliverable, 132001 template missing); 0 when none answered. */
    readonly code: number,
    message: string,
  ) {
    super(message);
    this.name = 'GraphApiError';
  }
}

/** Graph calls answer within this or count as failed (the notice stays owed and is retried). */
const TIMEOUT_MS = 10_000;

export interface TemplateSend {
  to: string;
  name: string;
  language: string;
  body: string[];
  /** One payload per quick-reply button, in the template's button order. */
  buttons: string[];
}

export class GraphApi {
  constructor(private readonly opts: { apiRoot: string; token: string; phoneNumberId: string }) {}

  private async call<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
    let res: Response;
    try {
      res = await fetch(`${this.opts.apiRoot}/${path}`, {
        method,
        headers: { authorization: `Bearer ${this.opts.token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
    } catch (e) {
      throw new GraphApiError(0, 0, `WhatsApp Cloud API unreachable: ${(e as Error).message}`);
    }
    const json = (await res.json().catch(() => ({}))) as { error?: { code?: number; message?: string; error_data?: { details?: string } } } & T;
    if (!res.ok || json.error) {
      const e = json.error ?? {};
      throw new GraphApiError(res.status, Number(e.code ?? 0), [e.message, e.error_data?.details].filter(Boolean).join(': ') || `HTTP ${res.status}`);
    }
    return json;
  }

  /** The business number's digits, for `https://wa.me/<digits>`. */
  async displayNumber(): Promise<string> {
    const r = await this.call<{ display_phone_number?: string }>('GET', `${this.opts.phoneNumberId}?fields=display_phone_number`);
    return (r.display_phone_number ?? '').replace(/\D/g, '');
  }

  /** Sends an approved template; answers the message id (`wamid.…`). */
  async sendTemplate(t: TemplateSend): Promise<string> {
    const components = [
      { type: 'body', parameters: t.body.map((text) => ({ type: 'text', text })) },
      ...t.buttons.map((payload, index) => ({ type: 'button', sub_type: 'quick_reply', index: String(index), parameters: [{ type: 'payload', payload }] })),
    ];
    return this.messageId(
      await this.call('POST', `${this.opts.phoneNumberId}/messages`, {
        messaging_product: 'whatsapp',
        recipient_type: 'individual',
        to: t.to,
        type: 'template',
        template: { name: t.name, language: { code: t.language }, components },
      }),
    );
  }

  /** A free-form text: allowed only within 24 h of the owner's last message, as an answer to a press is. */
  async sendText(to: string, text: string, replyTo?: string): Promise<string> {
    return this.messageId(
      await this.call('POST', `${this.opts.phoneNumberId}/messages`, {
        messaging_product: 'whatsapp',
        recipient_type: 'individual',
        to,
        type: 'text',
        text: { body: text, preview_url: false },
        ...(replyTo ? { context: { message_id: replyTo } } : {}),
      }),
    );
  }

  private messageId(r: unknown): string {
    const id = (r as { messages?: { id?: string }[] }).messages?.[0]?.id;
    if (!id) throw new GraphApiError(200, 0, 'the Cloud API answered without a message id');
    return id;
  }
}

/** Template and parameter errors (the 132xxx family): the template is missing, paused or does not match. */
export const isTemplateError = (code: number): boolean => code >= 132000 && code < 133000;
/** The number cannot receive messages (not on WhatsApp, blocked us, old app, terms not accepted). */
export const isUndeliverable = (code: number): boolean => code === 131026;
