import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.js';
import { bearerToken } from '../../http/auth.js';
import type { App } from '../../http/types.js';
import { AppError } from '../../shared/errors.js';
import { authenticateApiKey } from '../auth/auth.service.js';
import { buildMcpServer } from './mcp.server.js';

/** Contract, Authentication 2: the raw `svc_` key is the bearer on MCP; unknown or deleted keys are 401. */
function mcpAuth(ctx: AppContext) {
  return async function (request: FastifyRequest, reply: FastifyReply) {
    const token = bearerToken(request);
    const principal = token ? await authenticateApiKey(ctx, token) : null;
    if (!principal) {
      reply.header('www-authenticate', 'Bearer realm="mcp", error="invalid_token", error_description="Send an API key (svc_...) as the bearer"');
      throw new AppError('unauthorized', token ? 'Unknown or deleted API key' : 'Send Authorization: Bearer <API key>');
    }
    request.principal = principal;
  };
}

export function mcpRoutes(app: App, ctx: AppContext): void {
  app.post('/mcp', { onRequest: mcpAuth(ctx), schema: { hide: true } }, async (request, reply) => {
    const server = buildMcpServer(ctx, request.principal!);
    // Stateless: no session id, JSON answers instead of SSE streams.
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    reply.raw.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    reply.raw.setHeader('x-request-id', request.id);
    reply.hijack();
    await transport.handleRequest(request.raw, reply.raw, request.body);
  });

  const notAllowed = async (_request: FastifyRequest, reply: FastifyReply) => {
    reply.header('allow', 'POST');
    throw new AppError('METHOD_NOT_ALLOWED', 'This MCP endpoint is stateless: POST JSON-RPC requests only');
  };
  app.get('/mcp', { schema: { hide: true } }, notAllowed);
  app.delete('/mcp', { schema: { hide: true } }, notAllowed);
}
