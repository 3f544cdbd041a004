import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/**
 * D33: the owner's dashboard (the single-page app of `web/`, built by `npm run build` into dist/web) served at `/`
 * by the same process. The API keeps its paths: only GETs outside them that ask for HTML fall back to the app's
 * index.html, so an unknown `/v1/...` path still answers the JSON 404 envelope.
 */

/** dist/web of this checkout, from src/http (tsx) and from dist/http (compiled) alike. */
export const DEFAULT_WEB_ROOT = fileURLToPath(new URL('../../dist/web', import.meta.url));

/** Paths that belong to the API and its documentation, never to the dashboard. */
const API_PATHS = [/^\/v1(\/|$)/, /^\/oauth(\/|$)/, /^\/\.well-known(\/|$)/, /^\/mcp(\/|$)/, /^\/docs(\/|$)/, /^\/openapi\.json$/, /^\/healthz$/, /^\/readyz$/];

/**
 * Scripts and styles only from this origin, no inline script, nothing framed or framing. `blob:` styles and
 * images let the dashboard show a receipt's HTML (fetched with the bearer token) in a tab of its own.
 */
export const DASHBOARD_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' blob:",
  "img-src 'self' data: blob:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-src 'none'",
  "frame-ancestors 'none'",
].join('; ');

const pathOf = (request: FastifyRequest) => request.url.split('?')[0] ?? '/';
const acceptsHtml = (request: FastifyRequest) => /text\/html|\*\/\*/.test(request.headers.accept ?? '');

function dashboardHeaders(reply: FastifyReply): FastifyReply {
  return reply
    .header('content-security-policy', DASHBOARD_CSP)
    .header('referrer-policy', 'no-referrer')
    .header('cross-origin-opener-policy', 'same-origin')
    .header('permissions-policy', 'camera=(), microphone=(), geolocation=()');
}

/**
 * Every response, API included: never framed (clickjacking), never content-sniffed. Routes that hand the raw
 * response to a library (reply.hijack, which skips the onSend hook below) set these themselves.
 */
export const EVERY_RESPONSE_HEADERS = { 'x-frame-options': 'DENY', 'x-content-type-options': 'nosniff' } as const;

export async function registerWeb(app: FastifyInstance, root: string | null): Promise<void> {
  app.addHook('onSend', (_request, reply, payload, done) => {
    reply.headers(EVERY_RESPONSE_HEADERS);
    done(null, payload);
  });

  if (!root || !existsSync(path.join(root, 'index.html'))) {
    app.log.warn({ root }, 'dashboard not built (npm run build): / serves nothing');
    return;
  }
  // The top-level files of the build (favicon …); listed once, so a request path never reaches the file system.
  const topFiles = new Set(readdirSync(root).filter((f) => f !== 'index.html' && statSync(path.join(root, f)).isFile()));

  await app.register(fastifyStatic, { root, serve: false, index: false, wildcard: false, cacheControl: false, etag: true });

  // Static files are not API calls: they are not rate limited (the limiter counts what a client does, D30).
  const opts = { config: { rateLimit: false }, schema: { hide: true } } as const;

  // Hashed file names: cached for good.
  app.get('/assets/*', opts, (request, reply) => {
    const file = (request.params as { '*': string })['*'];
    return dashboardHeaders(reply).header('cache-control', 'public, max-age=31536000, immutable').sendFile(file, path.join(root, 'assets'));
  });

  app.get('/*', opts, (request, reply) => {
    const p = pathOf(request);
    if (API_PATHS.some((re) => re.test(p))) return reply.callNotFound();
    const top = p.slice(1);
    if (topFiles.has(top)) return dashboardHeaders(reply).header('cache-control', 'public, max-age=3600').sendFile(top);
    if (!acceptsHtml(request)) return reply.callNotFound();
    // Any other page of the app (a deep link, a reload): the app's shell, never cached so a new build shows.
    return dashboardHeaders(reply).header('cache-control', 'no-cache').sendFile('index.html');
  });
}
