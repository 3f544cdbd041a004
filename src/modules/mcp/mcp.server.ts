import { createRequire } from 'node:module';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { Value } from '@sinclair/typebox/value';
import type { AppContext } from '../../context.js';
import { CONTROL_CHARACTER_MESSAGE, findControlCharacter } from '../../http/control-chars.js';
import { cleanOwnerText } from '../../http/owner-text.js';
import { isStoreUnavailable, storeFailureKind } from '../../db/store-errors.js';
import { ONE_OF_ALLOWED, toAppError } from '../../http/errors.js';
import { hasScope, type Principal } from '../auth/auth.service.js';
import { writeAudit } from '../audit/audit.service.js';
import { TOOLS } from './mcp.tools.js';

/** The package's version, read once at start: what `serverInfo.version` tells clients. src/ and dist/ sit alike under the root. */
const VERSION = (createRequire(import.meta.url)('../../../package.json') as { version: string }).version;

/**
 * A JSON-RPC error the SDK answers as `{code, message}`. Not McpError, whose message already carries the
 * "MCP error <code>:" prefix that clients add again.
 */
const rpcError = (code: number, message: string) => Object.assign(new Error(message), { code });

/**
 * A business failure: `{error, message, reasons?}` as JSON text. No `structuredContent`, which clients check
 * against the tool's success output schema.
 */
const toolError = (body: Record<string, unknown>) => ({
  content: [{ type: 'text' as const, text: JSON.stringify(body) }],
  isError: true,
});

/**
 * One MCP server per request (stateless), bound to the caller's key. Business failures are tool results with
 * `isError` and the REST error codes; an unknown tool stays a JSON-RPC error. `retryLater` is told when a call
 * answers a "not now" (SERVICE_UNAVAILABLE, RAIL_UNAVAILABLE), so the HTTP answer carries `Retry-After` as REST's does.
 */
export function buildMcpServer(ctx: AppContext, who: Principal, retryLater: () => void = () => undefined): Server {
  const server = new Server({ name: 'ars-wallet-payouts', version: VERSION }, { capabilities: { tools: {} } });

  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    // D31: a key sees only the tools its scopes allow.
    tools: TOOLS.filter((t) => hasScope(who, t.scope)).map((t) => ({
      name: t.name,
      title: t.title,
      description: t.description,
      inputSchema: t.input as unknown as { type: 'object' },
      outputSchema: t.output,
      annotations: { title: t.title, ...t.annotations },
    })),
  }));

  server.setRequestHandler(CallToolRequestSchema, async (req) => {
    const t = TOOLS.find((x) => x.name === req.params.name);
    if (!t) throw rpcError(ErrorCode.InvalidParams, `Unknown tool: ${req.params.name.slice(0, 100)}; tools/list names the tools this key may call`);
    if (!hasScope(who, t.scope)) {
      return toolError({ error: 'INSUFFICIENT_SCOPE', message: `This API key lacks the scope ${t.scope}; the owner can grant it` });
    }
    const args = Value.Default(t.input, structuredClone(req.params.arguments ?? {}));
    const invalid = (pointer: string | undefined, message: string) => {
      const field = pointer ? pointer.slice(1).replace(/\//g, '.') : '';
      return toolError({ error: 'INVALID_REQUEST', message: `${field ? `${field}: ` : ''}${message}` });
    };
    if (!Value.Check(t.input, args)) {
      const first = [...Value.Errors(t.input, args)][0];
      // A union of constants says which values it takes, as REST does (src/http/errors.ts).
      const listed = (first?.schema as { anyOf?: { const?: unknown }[] } | undefined)?.anyOf;
      if (listed?.length && listed.every((s) => 'const' in s)) {
        return invalid(first?.path, `${ONE_OF_ALLOWED} (one of ${listed.map((s) => String(s.const)).join(', ')})`);
      }
      return invalid(first?.path, first?.message ?? 'invalid arguments');
    }
    // D30: the same control-character rule as REST bodies (src/http/validation.ts).
    const controlAt = findControlCharacter(args);
    if (controlAt !== null) return invalid(controlAt, CONTROL_CHARACTER_MESSAGE);
    // D39: the same names-an-owner-reads rule as REST bodies.
    const text = cleanOwnerText(t.input, args);
    if (text !== null) return invalid(text.pointer, text.message);
    try {
      // Inside the mapping below: a database that cannot take the audit row is SERVICE_UNAVAILABLE like any other
      // step (D42), never a JSON-RPC error carrying the driver's message (D8); and then nothing runs.
      await writeAudit(ctx.store.db, ctx.clock, who, { action: `mcp.${t.name}` });
      const result = await t.run(ctx, who, args);
      return { content: [{ type: 'text' as const, text: JSON.stringify(result) }], structuredContent: result };
    } catch (e) {
      // The same codes as REST (a database that cannot serve now is SERVICE_UNAVAILABLE, D42), never internals.
      const err = toAppError(e);
      if (isStoreUnavailable(e)) ctx.metrics.storeUnavailable(storeFailureKind(e));
      if (err.code === 'INTERNAL_ERROR') ctx.log.error({ err: e, tool: t.name }, 'MCP tool failed');
      if (err.code === 'SERVICE_UNAVAILABLE' || err.code === 'RAIL_UNAVAILABLE') retryLater();
      return toolError(err.toBody());
    }
  });

  return server;
}
