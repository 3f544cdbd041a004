import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.js';
import { isAllowedHost } from '../../http/allowed-hosts.js';
import { bearerToken } from '../../http/auth.js';
import { RETRY_AFTER_SECONDS, sendError } from '../../http/errors.js';
import { chargeFailedRequest } from '../../http/rate-limit.js';
import type { App } from '../../http/types.js';
import { AppError } from '../../shared/errors.js';
import { authenticateApiKey, EXPIRED_KEY, hasScope, type Principal } from '../auth/auth.service.js';
import { SCOPES } from '../keys/key-controls.js';
import { looksLikeApiKey } from '../keys/keys.service.js';
import type { OAuthServer } from '../oauth/oauth.provider.js';
import { authenticateAccessToken } from '../oauth/oauth.service.js';
import { buildMcpServer } from './mcp.server.js';
import { TOOLS } from './mcp.tools.js';

const JWT_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

/** Why a bearer was refused, in words that say what to send instead. */
function refusal(token: string | null, found: 'expired' | null): string {
  if (!token) return 'Send Authorization: Bearer <API key or OAuth access token>';
  if (found === 'expired') return EXPIRED_KEY;
  // A REST session token is the most common mistake (our OAuth access tokens are opaque, never this shape).
  if (JWT_SHAPE.test(token)) return 'MCP takes the raw API key (svc_…) or an OAuth access token issued for /mcp as the bearer, not a REST token from /v1/auth/token or /v1/login';
  return 'Unknown, deleted or revoked API key or access token';
}

/**
 * Contract, Authentication 2: the raw `svc_` key is the bearer on MCP; D44: so is an OAuth access token issued for
 * this resource. Anything else is 401 with the resource's metadata URL (RFC 9728), where a host discovers how to
 * get a token, and the scopes it may ask for.
 */
function mcpAuth(ctx: AppContext, oauth: OAuthServer) {
  return async function (request: FastifyRequest, reply: FastifyReply) {
    const token = bearerToken(request);
    const principal = !token ? null : looksLikeApiKey(token) ? await authenticateApiKey(ctx, token) : await authenticateAccessToken(ctx, oauth, token);
    if (!principal || principal === 'expired') {
      const scope = SCOPES.join(' ');
      reply.header(
        'www-authenticate',
        token
          ? `Bearer resource_metadata="${oauth.resourceMetadataUrl}", scope="${scope}", error="invalid_token", error_description="Unknown, expired or revoked credentials"`
          : `Bearer resource_metadata="${oauth.resourceMetadataUrl}", scope="${scope}"`,
      );
      throw new AppError('unauthorized', refusal(token, principal));
    }
    request.principal = principal;
  };
}

/**
 * D44, MCP authorization "Scope Challenge Handling": a valid OAuth token calling a tool outside its scopes is HTTP
 * 403 with an `insufficient_scope` challenge, so the host can ask the owner again for more (step-up). The scope
 * named is what the agent holds plus what the tool needs, so a host that replaces its scopes with the challenge's
 * loses none. A raw key cannot step up: it keeps the tool's `INSUFFICIENT_SCOPE` result (mcp.server.ts).
 */
function scopeChallenge(oauth: OAuthServer, who: Principal, body: unknown, reply: FastifyReply): void {
  if (who.via !== 'oauth' || typeof body !== 'object' || body === null) return;
  const { method, params } = body as { method?: unknown; params?: { name?: unknown } };
  if (method !== 'tools/call') return;
  const tool = TOOLS.find((t) => t.name === params?.name);
  if (!tool || hasScope(who, tool.scope)) return;
  const scope = SCOPES.filter((s) => s === tool.scope || hasScope(who, s)).join(' ');
  reply.header(
    'www-authenticate',
    `Bearer error="insufficient_scope", scope="${scope}", resource_metadata="${oauth.resourceMetadataUrl}", error_description="The tool ${tool.name} needs the scope ${tool.scope}"`,
  );
  throw new AppError('INSUFFICIENT_SCOPE', `This app's access lacks the scope ${tool.scope} that ${tool.name} needs; authorize it again asking for it, and the owner decides`);
}

/**
 * MCP Streamable HTTP (security warning): servers must validate Origin against DNS rebinding. D41: the Host must
 * be one of ALLOWED_HOSTS, so a page of a name rebound to this address (foreign Host, matching Origin) is refused.
 * A browser page of another site sends its Origin; agents on servers send none. Only the service's own host (host
 * and port, as the client addressed it) is allowed: the dashboard uses REST, so no browser origin needs /mcp.
 */
function originGuard(ctx: AppContext) {
  return async function (request: FastifyRequest) {
    const host = request.host as string | undefined;
    if (!isAllowedHost(ctx.config.allowedHosts, host)) {
      throw new AppError('FORBIDDEN', `Host ${String(host ?? '').slice(0, 100)} is not one this MCP endpoint answers to (ALLOWED_HOSTS)`);
    }
    checkOrigin(request);
  };
}

function checkOrigin(request: FastifyRequest) {
  const origin = request.headers.origin;
  if (origin === undefined) return;
  let host: string | null = null;
  try {
    host = new URL(origin).host;
  } catch {
    // `null` (sandboxed frames, file:) and garbage are foreign.
  }
  if (host === null || host !== request.host.toLowerCase()) {
    throw new AppError('FORBIDDEN', `Origin ${origin.slice(0, 100)} may not call this MCP endpoint`);
  }
}

const jsonRpcError = (code: number, message: string, id: string | number | null = null) => ({ jsonrpc: '2.0' as const, id, error: { code, message } });

/**
 * JSON-RPC: a `tools/call` whose params are not `{name: string, arguments?: object}` is invalid params (-32602). The
 * SDK parses them before its own check and answers -32603 (internal error, which invites a retry) with its parser's
 * dump; answered here instead, naming the field. Null for anything else, which the SDK answers.
 */
function malformedToolCall(body: unknown): { id: string | number; message: string } | null {
  if (typeof body !== 'object' || body === null) return null;
  const { method, id, params } = body as { method?: unknown; id?: unknown; params?: unknown };
  if (method !== 'tools/call' || (typeof id !== 'string' && typeof id !== 'number')) return null;
  const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
  if (!isObject(params)) return { id, message: 'params: an object {name, arguments} is required' };
  if (typeof params.name !== 'string') return { id, message: 'params.name: the name of the tool to call (a string); tools/list names them' };
  if (params.arguments !== undefined && !isObject(params.arguments)) return { id, message: "params.arguments: an object of the tool's arguments" };
  return null;
}

/** Malformed JSON is a JSON-RPC parse error (-32700) here; every other refusal keeps our envelope. */
async function mcpErrorHandler(err: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  if (err.code !== 'FST_ERR_CTP_INVALID_JSON_BODY' && err.code !== 'FST_ERR_CTP_EMPTY_JSON_BODY') return sendError(err, request, reply);
  const overLimit = await chargeFailedRequest(request, reply);
  if (overLimit) return sendError(overLimit, request, reply);
  return reply.status(400).send(jsonRpcError(-32700, 'Parse error: the body is not valid JSON'));
}

export function mcpRoutes(app: App, ctx: AppContext, oauth: OAuthServer): void {
  // Hidden from the generated paths: mcp.schemas.ts describes it, because the SDK rather than Fastify reads and answers it.
  app.post('/mcp', { config: { access: 'own-credential' }, onRequest: [originGuard(ctx), mcpAuth(ctx, oauth)], errorHandler: mcpErrorHandler, schema: { hide: true } }, async (request, reply) => {
    // D30: MCP 2025-06-18 removed JSON-RPC batching; one HTTP request is one call, so the rate limit counts calls.
    if (Array.isArray(request.body)) {
      return reply.status(400).send(jsonRpcError(-32600, 'JSON-RPC batches are not supported (MCP 2025-06-18): send one message per request'));
    }
    const malformed = malformedToolCall(request.body);
    if (malformed) return reply.status(200).send(jsonRpcError(-32602, malformed.message, malformed.id));
    scopeChallenge(oauth, request.principal!, request.body, reply);
    // The SDK writes the answer after the call has run: a "not now" sets Retry-After on it first (D42).
    const server = buildMcpServer(ctx, request.principal!, () => reply.raw.setHeader('retry-after', RETRY_AFTER_SECONDS));
    // Stateless: no session id, JSON answers instead of SSE streams.
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    reply.raw.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    // The SDK writes the raw response: carry over what hooks set (X-Request-Id, RateLimit-*).
    for (const [name, value] of Object.entries(reply.getHeaders())) if (value !== undefined) reply.raw.setHeader(name, value);
    reply.hijack();
    await transport.handleRequest(request.raw, reply.raw, request.body);
  });

  const notAllowed = async (_request: FastifyRequest, reply: FastifyReply) => {
    reply.header('allow', 'POST');
    throw new AppError('METHOD_NOT_ALLOWED', 'This MCP endpoint is stateless: POST JSON-RPC requests only');
  };
  app.get('/mcp', { config: { access: 'public' }, schema: { hide: true } }, notAllowed);
  app.delete('/mcp', { config: { access: 'public' }, schema: { hide: true } }, notAllowed);
}
