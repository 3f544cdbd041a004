import { readFileSync } from 'node:fs';
import { Agent, request, type Dispatcher } from 'undici';
import type { BindConfig } from '../../../config.js';
import { parseBindJson, stringifyBindJson } from './bind-wire.js';

/** What became of one call to BIND. `unanswered`: no answer came (timeout, reset, refused): it may have acted. */
export type BindResult<T> =
  | { kind: 'ok'; status: number; body: T }
  /** `retryAfterMs`: BIND (429, 503) said when to ask again (`Retry-After`), bounded by `MAX_RETRY_AFTER_MS`. */
  | { kind: 'error'; status: number; message: string; retryAfterMs?: number }
  | { kind: 'unanswered'; message: string };

/** A token is renewed this long before BIND says it expires, so no call goes out with one about to lapse. */
const RENEW_BEFORE_MS = 60_000;
/**
 * The largest answer read from BIND. Its largest is a listing page of 100 transfers (about 100 KB); a bigger one is
 * not BIND's answer to us (a misrouted download, a broken gateway) and is not kept in memory: the call is unanswered.
 */
export const MAX_ANSWER_BYTES = 2 * 1024 * 1024;
/** A Retry-After longer than this is read as this: a wrong header must not park payouts for days. */
export const MAX_RETRY_AFTER_MS = 15 * 60_000;

/**
 * The HTTP client for BIND's PSP API (undici, one connection pool, optional mutual TLS). It keeps the OAuth2
 * client-credentials token ("Autenticación": a Bearer token of 3600 s) and renews it before it expires; a 401
 * renews it once and repeats the call, which is safe because BIND refused the call before acting on it. Nothing
 * else is repeated here: whether another try is safe depends on the call, so the adapter decides.
 */
export class BindClient {
  private readonly agent: Agent;
  private token: { value: string; renewAt: number } | null = null;
  private pendingToken: Promise<string> | null = null;

  constructor(
    private readonly config: BindConfig,
    private readonly now: () => number = Date.now,
  ) {
    const tls = {
      ...(config.clientCertFile ? { cert: readFileSync(config.clientCertFile), key: readFileSync(config.clientKeyFile) } : {}),
      ...(config.caFile ? { ca: readFileSync(config.caFile) } : {}),
    };
    this.agent = new Agent({ connections: 16, keepAliveTimeout: 10_000, connect: { timeout: config.timeoutMs, ...tls } });
  }

  async call<T>(method: 'GET' | 'POST', path: string, opts: { body?: unknown; headers?: Record<string, string>; query?: Record<string, string> } = {}): Promise<BindResult<T>> {
    let token: string;
    try {
      token = await this.accessToken();
    } catch (e) {
      // No token, no call: BIND was never asked, so the outcome is known to be "nothing happened".
      return { kind: 'error', status: 0, message: `BIND token: ${(e as Error).message}` };
    }
    const first = await this.send<T>(method, path, token, opts);
    if (first.kind !== 'error' || first.status !== 401) return first;
    // Only the token BIND refused is dropped: in a burst the other calls sent with it meet their 401 after one of
    // them already renewed it, and dropping the new token would renew once per call (a stampede on the token URL).
    if (this.token?.value === token) this.token = null;
    try {
      token = await this.accessToken();
    } catch (e) {
      return { kind: 'error', status: 0, message: `BIND token: ${(e as Error).message}` };
    }
    return this.send<T>(method, path, token, opts);
  }

  async close(): Promise<void> {
    await this.agent.close();
  }

  private async send<T>(
    method: 'GET' | 'POST',
    path: string,
    token: string,
    opts: { body?: unknown; headers?: Record<string, string>; query?: Record<string, string> },
  ): Promise<BindResult<T>> {
    const url = new URL(`${this.config.apiUrl}${path}`);
    for (const [k, v] of Object.entries(opts.query ?? {})) url.searchParams.set(k, v);
    try {
      const res = await request(url, {
        method,
        dispatcher: this.agent as Dispatcher,
        headers: {
          authorization: `Bearer ${token}`,
          accept: 'application/json',
          ...(opts.body === undefined ? {} : { 'content-type': 'application/json' }),
          ...opts.headers,
        },
        body: opts.body === undefined ? undefined : stringifyBindJson(opts.body),
        signal: AbortSignal.timeout(this.config.timeoutMs),
      });
      const text = await boundedText(res.body, res.headers['content-length']);
      if (res.statusCode >= 200 && res.statusCode < 300) {
        return { kind: 'ok', status: res.statusCode, body: (text ? parseBindJson<T>(text) : null) as T };
      }
      const retryAfterMs = retryAfterOf(res.headers['retry-after'], this.now());
      return { kind: 'error', status: res.statusCode, message: messageOf(text) || `HTTP ${res.statusCode}`, ...(retryAfterMs === null ? {} : { retryAfterMs }) };
    } catch (e) {
      return { kind: 'unanswered', message: `BIND ${method} ${path}: ${(e as Error).name === 'TimeoutError' ? `no answer within ${this.config.timeoutMs} ms` : (e as Error).message}` };
    }
  }

  /** One token request at a time; concurrent callers wait for it. */
  private async accessToken(): Promise<string> {
    if (this.token && this.now() < this.token.renewAt) return this.token.value;
    this.pendingToken ??= this.fetchToken().finally(() => (this.pendingToken = null));
    return this.pendingToken;
  }

  private async fetchToken(): Promise<string> {
    const form = new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: this.config.clientId,
      client_secret: this.config.clientSecret,
      scope: this.config.scope,
    });
    const res = await request(this.config.tokenUrl, {
      method: 'POST',
      dispatcher: this.agent as Dispatcher,
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: form.toString(),
      signal: AbortSignal.timeout(this.config.timeoutMs),
    });
    const text = await boundedText(res.body, res.headers['content-length']);
    if (res.statusCode !== 200) throw new Error(`HTTP ${res.statusCode} ${messageOf(text)}`.trim());
    const body = JSON.parse(text) as { access_token?: string; expires_in?: number | string };
    if (!body.access_token) throw new Error('no access_token in the answer');
    const ttlMs = Math.max(0, Number(body.expires_in ?? 3600) * 1000);
    this.token = { value: body.access_token, renewAt: this.now() + Math.max(ttlMs - RENEW_BEFORE_MS, ttlMs / 2) };
    return body.access_token;
  }
}

/** The answer's text, refused past `MAX_ANSWER_BYTES` (by its declared length, or as it arrives) without reading the rest. */
async function boundedText(body: Dispatcher.ResponseData['body'], declared: string | string[] | undefined): Promise<string> {
  const tooLarge = () => {
    body.destroy();
    return new Error(`the answer is larger than ${MAX_ANSWER_BYTES} bytes`);
  };
  if (Number(Array.isArray(declared) ? declared[0] : declared) > MAX_ANSWER_BYTES) throw tooLarge();
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += (chunk as Buffer).length;
    if (size > MAX_ANSWER_BYTES) throw tooLarge();
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** `Retry-After` as delay-seconds or an HTTP date → milliseconds from now (bounded); null when absent or unreadable. */
function retryAfterOf(header: string | string[] | undefined, now: number): number | null {
  const v = (Array.isArray(header) ? header[0] : header)?.trim();
  if (!v) return null;
  const ms = /^\d+$/.test(v) ? Number(v) * 1000 : Date.parse(v) - now;
  return Number.isFinite(ms) ? Math.min(Math.max(ms, 0), MAX_RETRY_AFTER_MS) : null;
}

/** BIND documents no error body; take a `message` (or similar) when there is one, never the whole body. */
function messageOf(text: string): string {
  try {
    const b = JSON.parse(text) as Record<string, unknown>;
    const m = b.message ?? b.mensaje ?? b.error_description ?? b.error ?? b.title;
    return typeof m === 'string' ? m.slice(0, 300) : '';
  } catch {
    return text.slice(0, 120);
  }
}
