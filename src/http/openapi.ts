import type { SwaggerOptions } from '@fastify/swagger';
import { mcpPath, mcpSecurityScheme } from '../modules/mcp/mcp.schemas.js';

/**
 * The parts of `/openapi.json` that no single route owns: what the service is, how to authenticate, what the
 * tags mean. OpenAPI 3.1 because its Schema Object is JSON Schema: the route schemas (TypeBox) go in as they are
 * validated, `exclusiveMinimum` and `type: "null"` included, with no lossy down-conversion.
 */
const DESCRIPTION = `Pay out Argentine pesos (ARS) from a wallet to any CBU, CVU or alias, within limits that the
wallet's owner sets. This is a sandbox: the bank rail is simulated and no real money moves.

## Sessions

- **Agent**: exchange an API key (\`svc_…\`) for a JWT at \`POST /v1/auth/token\`, then send
  \`Authorization: Bearer <jwt>\`. One key per agent is recommended; every payout records the key that asked.
- **Owner**: \`POST /v1/login\` with email and password. Managing keys, changing thresholds, deciding
  approvals, managing the webhook and the sandbox helpers need this session; an agent session gets 403
  \`OWNER_SESSION_REQUIRED\`.
- **MCP**: \`POST /mcp\` takes the raw API key as the bearer, with no exchange, or an OAuth access token the
  owner granted to a host (authorization server metadata at \`/.well-known/oauth-authorization-server\`).

Tokens last \`expires_in\` seconds (24 hours by default). There is no refresh: get a new one the same way.

## Payouts

\`POST /v1/withdraws\` needs an \`Idempotency-Key\` header. Retrying with the same key and the same body
replays the first answer for 24 hours (header \`Idempotent-Replayed: true\`); the same key with a different
body is 422 \`IDEMPOTENCY_KEY_REUSED\`. An allowed payout answers 201 \`submitted\`; one that needs the owner's
approval answers 202 \`pending_approval\` at once, with \`approval_id\` and \`expires_in\`. Follow it with
\`GET /v1/withdraws/{id}\` or with webhooks.

## Errors

Every error is \`{"error": CODE, "message": text}\`, and each operation lists, per status, the codes it can
answer. Branch on \`error\`, never on \`message\`. Every response carries \`X-Request-Id\`; quote it to support.

## Limits

60 requests per minute per user by default (429 \`RATE_LIMIT_EXCEEDED\` with \`Retry-After\`); calls without a
user are counted per client address. Request bodies are JSON, at most 64 KiB.`;

const TAGS = [
  { name: 'users', description: 'Sign up. A new user gets its first API key, `default`, in the same answer.' },
  { name: 'auth', description: 'Get a JWT for the REST API: agents exchange an API key, owners log in.' },
  { name: 'api keys', description: 'Keys for agents. The secret is shown once, at creation; lists never show it.' },
  {
    name: 'wallet',
    description: 'Onboarding (the bank rail issues a CVU and an alias), the balance, and the transfers to and from the CVU.',
  },
  {
    name: 'payouts',
    description:
      'Payouts from the wallet to a CBU, CVU or alias. Each passes the policy: allowed, held for the owner\'s approval, or denied. Receipts come as HTML, JSON or PDF.',
  },
  {
    name: 'transfers',
    description:
      'The older transfer surface over the same payout engine: one call that answers once the bank completed the transfer, held open while the owner decides.',
  },
  { name: 'transactions', description: "The wallet's history of money moved: debits for payouts that reached the bank, credits for deposits." },
  { name: 'thresholds', description: 'The limits the policy applies to every key of the user. A limit of 0 is disabled.' },
  { name: 'approvals', description: "Payouts and threshold changes waiting for the owner's decision." },
  { name: 'approval channels', description: 'Where the owner is asked: the dashboard always, Telegram or WhatsApp when linked.' },
  { name: 'live updates', description: "A server-sent event stream that tells the owner's dashboard when what it shows has changed." },
  {
    name: 'webhooks',
    description:
      'One webhook per user receives signed events. Verify `X-Svc-Signature: sha256=<hex>`, the HMAC-SHA256 of the raw body with your secret; answer 2xx within 30 seconds or the delivery is retried (5 attempts).',
  },
  { name: 'sandbox', description: 'Sandbox-only helpers for the owner: fund the wallet, simulate crypto deposits, play KYC outcomes.' },
  {
    name: 'oauth',
    description: "Apps that connect to the MCP endpoint by OAuth: the owner's consent. The protocol itself is at /oauth and /.well-known.",
  },
  { name: 'mcp', description: 'The Model Context Protocol endpoint: tools that mirror the REST API for agents.' },
  { name: 'activity', description: 'The audit log: who did what, the owner or an agent through its key.' },
  { name: 'health', description: 'Probes for operators and load balancers; no credentials, not rate limited.' },
];

export function openapiOptions(): SwaggerOptions {
  return {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'ARS wallet payouts', version: '1.0.0', description: DESCRIPTION },
      // Relative: the document is served by the server it describes, whatever host and port it listens on.
      servers: [{ url: '/', description: 'This server (sandbox)' }],
      tags: TAGS,
      components: {
        securitySchemes: {
          bearerAuth: {
            type: 'http',
            scheme: 'bearer',
            bearerFormat: 'JWT',
            description: 'A JWT from POST /v1/auth/token (agent) or POST /v1/login (owner).',
          },
          mcpApiKey: mcpSecurityScheme,
        },
      },
      // A fresh object per app: @fastify/swagger adds the routes' paths into it.
      paths: { '/mcp': mcpPath },
    },
  } as SwaggerOptions;
}
