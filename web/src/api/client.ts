import createClient, { type Middleware } from 'openapi-fetch';
import { endSession, getToken } from '../lib/session';
import type { paths } from './schema';

export type { paths };

/** An API error in the service's envelope `{error, message}` (D8), or NETWORK when nothing answered. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly reasons: string[] = [],
    readonly retryAfter: number | null = null,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

const SESSION_ENDED = new Set(['TOKEN_EXPIRED', 'INVALID_TOKEN', 'USER_NOT_FOUND', 'UNAUTHENTICATED']);

/** Sends the owner's token; a 401 on it ends the session, and the app sends the owner back to log in. */
const auth: Middleware = {
  onRequest({ request }) {
    const token = getToken();
    if (token) request.headers.set('authorization', `Bearer ${token}`);
    return request;
  },
  async onResponse({ request, response }) {
    if (response.status === 401 && request.headers.has('authorization')) {
      const body = (await response.clone().json().catch(() => ({}))) as { error?: string };
      if (SESSION_ENDED.has(body.error ?? '')) endSession(body.error === 'TOKEN_EXPIRED' ? 'expired' : 'revoked');
    }
    return response;
  },
};

/** The typed client of the public REST API, generated from /openapi.json (`npm run gen:api`). */
export const api = createClient<paths>({ baseUrl: typeof window === 'undefined' ? 'http://localhost' : window.location.origin });
api.use(auth);

async function errorOf(response: Response, body: unknown): Promise<ApiError> {
  const b = (body ?? {}) as { error?: string; message?: string; reasons?: string[] };
  const retry = Number(response.headers.get('retry-after'));
  return new ApiError(response.status, b.error ?? `HTTP_${response.status}`, b.message ?? response.statusText, b.reasons ?? [], Number.isFinite(retry) && retry > 0 ? retry : null);
}

/** The data of a typed call, or an ApiError. */
export async function unwrap<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  let res: { data?: T; error?: unknown; response: Response };
  try {
    res = await call;
  } catch (e) {
    throw new ApiError(0, 'NETWORK', e instanceof Error ? e.message : String(e));
  }
  if (res.error !== undefined || !res.response.ok) throw await errorOf(res.response, res.error);
  return res.data as T;
}

/**
 * Calls the typed client has no types for yet: the receipt's JSON form (documented by its route only as a
 * negotiated document) and the per-agent controls and emergency stop being added by D31. Same token, same errors.
 */
export async function rawCall<T>(method: string, path: string, opts: { body?: unknown; accept?: string } = {}): Promise<T> {
  const headers = new Headers({ accept: opts.accept ?? 'application/json' });
  const token = getToken();
  if (token) headers.set('authorization', `Bearer ${token}`);
  if (opts.body !== undefined) headers.set('content-type', 'application/json');
  let response: Response;
  try {
    response = await fetch(path, { method, headers, body: opts.body === undefined ? undefined : JSON.stringify(opts.body) });
  } catch (e) {
    throw new ApiError(0, 'NETWORK', e instanceof Error ? e.message : String(e));
  }
  await auth.onResponse!({ request: new Request(path, { headers }), response } as never);
  if (!response.ok) throw await errorOf(response, await response.json().catch(() => ({})));
  if (response.status === 204) return undefined as T;
  return (opts.accept && opts.accept !== 'application/json' ? await response.blob() : await response.json()) as T;
}
