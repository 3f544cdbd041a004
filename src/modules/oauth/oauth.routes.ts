import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.js';
import { isStoreUnavailable, storeFailureKind } from '../../db/store-errors.js';
import { principalOf } from '../../http/auth.js';
import { RETRY_AFTER_SECONDS } from '../../http/errors.js';
import { EVERY_RESPONSE_HEADERS } from '../../http/web.js';
import { BODY_ERRORS, bearerSecurity, described, errors, OWNER_ERRORS } from '../../http/schemas.js';
import type { App } from '../../http/types.js';
import type { KeyControlsInput } from '../keys/key-controls.js';
import { ApprovedBody, ApproveBody, DeniedBody, InteractionBody, InteractionParams } from './oauth.schemas.js';
import { OAUTH_PREFIX, type OAuthServer } from './oauth.provider.js';
import { approveInteraction, denyInteraction, getInteraction } from './oauth.service.js';
import { releaseUse } from './oauth.adapter.js';

/**
 * D44: `/mcp` as an OAuth 2.1 protected resource and the service as its authorization server. The protocol is
 * oidc-provider's, mounted under /oauth (and its metadata under /.well-known); it answers OAuth's own error
 * format there, while our routes keep our envelope. The owner's consent goes through the /v1 routes below.
 */
export async function oauthRoutes(app: App, ctx: AppContext, oauth: OAuthServer): Promise<void> {
  const hidden = { schema: { hide: true } } as const;

  // RFC 9728: the resource's metadata, at the root and path-suffixed for /mcp; public, readable from browsers.
  const resourceMetadata = async (_request: FastifyRequest, reply: FastifyReply) =>
    reply.header('access-control-allow-origin', '*').header('cache-control', 'public, max-age=300').send(oauth.resourceMetadata());
  app.get('/.well-known/oauth-protected-resource', hidden, resourceMetadata);
  app.get('/.well-known/oauth-protected-resource/mcp', hidden, resourceMetadata);

  const provider = () => oauth.provider();
  let logged = false;
  const handOver = async (request: FastifyRequest, reply: FastifyReply) => {
    const p = provider();
    if (!logged) {
      logged = true;
      // The codes and refresh tokens a request has used (the library's own instances, emitted once the use is stored).
      const usedHere = new WeakSet<object>();
      // Tried for a few seconds: the store has just failed, and the host retries after Retry-After (1 s).
      const giveBack = async (model: string, id: string) => {
        for (let attempt = 1; ; attempt++) {
          try {
            return await releaseUse(ctx.store, model, id);
          } catch (err) {
            if (attempt === 5) return ctx.log.warn({ err }, 'a code or refresh token used by a failed request could not be given back');
            await new Promise((r) => setTimeout(r, 250 * attempt));
          }
        }
      };
      p.on('authorization_code.consumed', (code: object) => usedHere.add(code));
      p.on('refresh_token.consumed', (token: object) => usedHere.add(token));
      p.on('server_error', (kctx, err) => {
        // D42: a database that cannot serve now is "retry shortly", in OAuth's words (RFC 6749's
        // temporarily_unavailable), with 503 and Retry-After as on every other surface; the library's 500
        // server_error told a host its request had failed for good. Emitted before the answer is sent.
        if (isStoreUnavailable(err)) {
          ctx.metrics.storeUnavailable(storeFailureKind(err));
          ctx.log.warn({ err }, 'oauth request failed: the database cannot serve it now');
          kctx.status = 503;
          kctx.set('retry-after', String(RETRY_AFTER_SECONDS));
          // A 503 invites the retry, so the code or refresh token this request used and got nothing for is given
          // back: the retry would otherwise be its second use, and end the agent's grant (D44). Only a use this
          // request made is given back, never one an earlier request made. If the store cannot take it back now,
          // the retry ends the grant and the owner connects the app again.
          const { AuthorizationCode, RotatedRefreshToken } = kctx.oidc?.entities ?? {};
          for (const used of [AuthorizationCode, RotatedRefreshToken]) {
            if (used && usedHere.has(used)) {
              void giveBack(used.kind, used.jti);
            }
          }
          if (kctx.body && typeof kctx.body === 'object' && !Buffer.isBuffer(kctx.body)) {
            kctx.body = { error: 'temporarily_unavailable', error_description: 'The service cannot reach its database right now; retry shortly' };
          }
          return;
        }
        ctx.log.error({ err }, 'oauth server error');
      });
    }
    // RFC 8414 names the metadata /.well-known/oauth-authorization-server; the library serves it under OIDC's name.
    if (request.raw.url?.startsWith('/.well-known/oauth-authorization-server')) {
      request.raw.url = '/.well-known/openid-configuration' + request.raw.url.slice('/.well-known/oauth-authorization-server'.length);
    }
    // The library names its endpoints after the request's host and scheme: pinned to PUBLIC_URL (its issuer), so a
    // Host or X-Forwarded-* header a caller chose never reaches the metadata, and https holds behind a proxy that
    // terminates TLS. Its idea of the caller's address is the one Fastify settled under TRUST_PROXY.
    const publicUrl = new URL(oauth.issuer);
    const headers = request.raw.headers;
    headers.host = headers['x-forwarded-host'] = publicUrl.host;
    headers['x-forwarded-proto'] = publicUrl.protocol.slice(0, -1);
    headers['x-forwarded-for'] = request.ip;
    delete headers.forwarded;
    for (const [name, value] of Object.entries(reply.getHeaders())) if (value !== undefined) reply.raw.setHeader(name, value);
    // Hijacked, the reply skips the onSend hook that sets these on every other response; the library's pages need them too.
    for (const [name, value] of Object.entries(EVERY_RESPONSE_HEADERS)) reply.raw.setHeader(name, value);
    reply.hijack();
    await p.callback()(request.raw, reply.raw);
  };

  // The library reads its own bodies (form-encoded and JSON): nothing here parses them first.
  await (app as unknown as FastifyInstance).register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, _payload, done) => done(null, undefined));
    const methods = ['GET', 'POST', 'OPTIONS'] as const;
    scope.route({ method: [...methods], url: `${OAUTH_PREFIX}/*`, ...hidden, handler: handOver });
    scope.route({ method: ['GET', 'OPTIONS'], url: '/.well-known/oauth-authorization-server', ...hidden, handler: handOver });
    scope.route({ method: ['GET', 'OPTIONS'], url: '/.well-known/openid-configuration', ...hidden, handler: handOver });
  });

  const tags = ['oauth'];

  app.get(
    '/v1/oauth/interactions/:uid',
    {
      config: { access: 'owner' },
      schema: {
        tags,
        operationId: 'getOAuthInteraction',
        summary: 'An app asking to connect (owner session)',
        description:
          'Which app asks, for which scopes, and where the answer goes; `agent` is the agent it already is for this owner, if any, which approving updates ' +
          '(the consent page starts from its controls). The dashboard shows it on its consent page. Only in the browser the ' +
          'authorization sent there (it carries the cookie set then): elsewhere, as for these decisions, 404 `NOT_FOUND`.',
        security: bearerSecurity,
        params: InteractionParams,
        response: { 200: described(InteractionBody, 'The pending authorization'), ...errors(...OWNER_ERRORS, 'INVALID_REQUEST', 'NOT_FOUND') },
      },
    },
    async (request) => getInteraction(ctx, oauth, principalOf(request), request.params.uid, { cookie: request.headers.cookie }),
  );

  app.post(
    '/v1/oauth/interactions/:uid/approve',
    {
      // Its activity entry is written with the agent it makes or changes (approveInteraction).
      config: { access: 'owner' },
      schema: {
        tags,
        operationId: 'approveOAuthInteraction',
        summary: 'Let an app connect, with its own controls (owner session)',
        description:
          'The app becomes an agent in the keys list (kind `oauth`) with the scopes, limits, allowlist and expiry given here, ' +
          'exactly as a key. Open `redirect_to` in the browser that started the authorization to hand the app its code. ' +
          'An authorization is decided once: a second approval or refusal (another tab, a double click) is 409 `APPROVAL_ALREADY_DECIDED` and changes nothing.',
        security: bearerSecurity,
        params: InteractionParams,
        body: ApproveBody,
        response: { 200: described(ApprovedBody, 'Approved'), ...errors(...OWNER_ERRORS, ...BODY_ERRORS, 'NOT_FOUND', 'APPROVAL_ALREADY_DECIDED') },
      },
    },
    async (request) =>
      approveInteraction(ctx, oauth, principalOf(request), request.params.uid, { cookie: request.headers.cookie }, (request.body ?? {}) as KeyControlsInput & { name?: string }),
  );

  app.post(
    '/v1/oauth/interactions/:uid/deny',
    {
      config: { access: 'owner', audit: 'oauth.denied', safetyAction: true },
      schema: {
        tags,
        operationId: 'denyOAuthInteraction',
        summary: 'Refuse an app (owner session)',
        description: 'The app is told `access_denied`. Open `redirect_to` in the browser that started the authorization.',
        security: bearerSecurity,
        params: InteractionParams,
        response: { 200: described(DeniedBody, 'Refused'), ...errors(...OWNER_ERRORS, ...BODY_ERRORS, 'NOT_FOUND', 'APPROVAL_ALREADY_DECIDED') },
      },
    },
    async (request) => denyInteraction(ctx, oauth, request.params.uid, { cookie: request.headers.cookie }),
  );
}
