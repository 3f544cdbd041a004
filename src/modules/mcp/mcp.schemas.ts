import { errorBody, errors } from '../../http/schemas.js';
import type { ErrorCode } from '../../shared/errors.js';

/**
 * The OpenAPI description of `POST /mcp`. It is written out here rather than derived from the route's schema:
 * the MCP SDK parses and answers JSON-RPC itself on the raw response, so a Fastify body schema would refuse
 * messages with our envelope where the SDK answers with JSON-RPC errors, and no Fastify serializer ever runs.
 */

const jsonRpcId = { anyOf: [{ type: 'string' }, { type: 'integer' }], description: 'echoed in the answer' };

const JsonRpcRequest = {
  type: 'object',
  required: ['jsonrpc', 'method'],
  properties: {
    jsonrpc: { type: 'string', enum: ['2.0'] },
    id: jsonRpcId,
    method: {
      type: 'string',
      description: '`initialize`, `tools/list`, `tools/call`, `ping`, or a notification such as `notifications/initialized` (no `id`)',
    },
    params: { type: 'object', additionalProperties: true },
  },
  additionalProperties: true,
};

const JsonRpcError = {
  type: 'object',
  required: ['jsonrpc', 'error'],
  properties: {
    jsonrpc: { type: 'string', enum: ['2.0'] },
    id: { anyOf: [jsonRpcId, { type: 'null' }] },
    error: {
      type: 'object',
      required: ['code', 'message'],
      properties: {
        code: { type: 'integer', description: '-32700 parse error, -32600 invalid request, -32601 unknown method, -32602 invalid params' },
        message: { type: 'string' },
        data: {},
      },
    },
  },
};

const JsonRpcResult = {
  type: 'object',
  required: ['jsonrpc', 'id', 'result'],
  properties: {
    jsonrpc: { type: 'string', enum: ['2.0'] },
    id: jsonRpcId,
    result: {
      type: 'object',
      additionalProperties: true,
      description: 'for `tools/call`: `content` (a text item holding the JSON answer), `structuredContent`, and `isError` for tool errors',
    },
  },
};

const json = (schema: object) => ({ 'application/json': { schema } });

/** Our envelope errors as plain OpenAPI responses (the TypeBox schemas are plain JSON Schema objects). */
function envelope(...codes: ErrorCode[]) {
  return Object.fromEntries(
    Object.entries(errors(...codes)).map(([status, s]) => {
      const { description, headers, ...schema } = s as { description: string; headers?: Record<string, { description: string }> };
      const hdrs = headers
        ? { headers: Object.fromEntries(Object.entries(headers).map(([n, { description: d, ...h }]) => [n, { description: d, schema: h }])) }
        : {};
      return [status, { description, ...hdrs, content: json(schema) }];
    }),
  );
}

const mcpErrors = envelope('unauthorized', 'FORBIDDEN', 'INSUFFICIENT_SCOPE', 'PAYLOAD_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE', 'RATE_LIMIT_EXCEEDED');

export const mcpSecurityScheme = {
  type: 'http',
  scheme: 'bearer',
  bearerFormat: 'API key (svc_…)',
  description: 'MCP only: the raw API key is the bearer. REST takes a JWT instead (see bearerAuth).',
};

export const mcpPath = {
  post: {
    operationId: 'callMcp',
    tags: ['mcp'],
    summary: 'Send one MCP JSON-RPC message (Streamable HTTP, stateless)',
    description: [
      'The Model Context Protocol endpoint for agents, revision 2025-06-18, in stateless JSON mode: one JSON-RPC',
      'message per request, answered as `application/json` (no session id, no SSE stream). Send',
      '`Accept: application/json, text/event-stream` and the raw API key as `Authorization: Bearer svc_…`.',
      '',
      'Tools: `request_payout` (takes an `idempotency_key`), `simulate_payout` and `resolve_destination` (look before',
      'paying; they write nothing), `get_payout`, `list_payouts`, `get_receipt`, `get_balance`, `get_cvu`,',
      '`list_recent_deposits`, `list_transactions`, `get_thresholds` and `propose_threshold_change` (the owner confirms',
      'it). A tool that fails answers 200 with `isError: true` in the result; with an OAuth access token, a tool outside',
      'its scopes answers 403 `INSUFFICIENT_SCOPE` with `WWW-Authenticate: Bearer error="insufficient_scope", scope=…`.',
      '',
      'Batches (JSON arrays) are refused with a JSON-RPC error: that revision removed them. Requests from a browser',
      'page of another origin are refused (403).',
    ].join('\n'),
    security: [{ mcpApiKey: [] }],
    requestBody: {
      required: true,
      content: {
        'application/json': {
          schema: JsonRpcRequest,
          examples: {
            listTools: { summary: 'List the tools', value: { jsonrpc: '2.0', id: 1, method: 'tools/list' } },
            requestPayout: {
              summary: 'Call request_payout',
              value: {
                jsonrpc: '2.0',
                id: 2,
                method: 'tools/call',
                params: {
                  name: 'request_payout',
                  arguments: { amount_ars: 1500, destination: 'mi.alias.ejemplo', destination_kind: 'ALIAS', idempotency_key: 'order-4711' },
                },
              },
            },
          },
        },
      },
    },
    responses: {
      200: { description: 'The JSON-RPC answer: a result, or a JSON-RPC error', content: json({ anyOf: [JsonRpcResult, JsonRpcError] }) },
      202: { description: 'A notification (a message without `id`) was accepted; no body' },
      400: {
        description: 'Not valid JSON (-32700) or a batch (-32600), as a JSON-RPC error; or INVALID_REQUEST in the envelope',
        content: json({ anyOf: [JsonRpcError, errorBody(['INVALID_REQUEST'])] }),
      },
      406: { description: '`Accept` must list both application/json and text/event-stream (JSON-RPC error)', content: json(JsonRpcError) },
      ...mcpErrors,
    },
  },
};
