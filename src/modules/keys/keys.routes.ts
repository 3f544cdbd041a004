import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../context.js';
import { principalOf, requireAuth, requireOwner } from '../../http/auth.js';
import { AUTH_ERRORS, bearerSecurity, errors } from '../../http/schemas.js';
import type { App } from '../../http/types.js';
import type { KeyControlsInput } from './key-controls.js';
import { ApiKeyBody, CreateApiKeyBody, NewApiKeyBody, UpdateApiKeyBody } from './keys.schemas.js';
import { createApiKey, deleteApiKey, listApiKeys, updateApiKey } from './keys.service.js';

export function keysRoutes(app: App, ctx: AppContext): void {
  const auth = requireAuth(ctx);
  // D28: an agent must not mint itself new keys or remove the owner's; listing shows no secret, so agents may.
  const ownerOnly = [auth, requireOwner];
  const tags = ['api keys'];

  app.post(
    '/v1/api-keys',
    {
      onRequest: ownerOnly,
      schema: {
        tags,
        summary: 'Create an API key (owner session; one per agent is recommended); the secret is shown only here',
        security: bearerSecurity,
        body: CreateApiKeyBody,
        response: { 201: NewApiKeyBody, ...errors(...AUTH_ERRORS, 'OWNER_SESSION_REQUIRED', 'INVALID_JSON', 'INVALID_REQUEST') },
      },
    },
    async (request, reply) => {
      const { name, ...controls } = request.body as { name: string } & KeyControlsInput;
      const key = await createApiKey(ctx, ctx.store.db, principalOf(request).userId, name.trim(), controls);
      return reply.status(201).send(key);
    },
  );

  app.get(
    '/v1/api-keys',
    {
      onRequest: auth,
      schema: {
        tags,
        summary: 'List API keys (never their secrets)',
        security: bearerSecurity,
        response: { 200: Type.Object({ api_keys: Type.Array(ApiKeyBody) }), ...errors(...AUTH_ERRORS) },
      },
    },
    async (request) => ({ api_keys: await listApiKeys(ctx, principalOf(request).userId) }),
  );

  app.patch(
    '/v1/api-keys/:id',
    {
      onRequest: ownerOnly,
      schema: {
        tags,
        summary: "Change a key's name or controls (owner session): scopes, allowlist, its own limits, expiry",
        security: bearerSecurity,
        params: Type.Object({ id: Type.String({ maxLength: 64 }) }),
        body: UpdateApiKeyBody,
        response: { 200: ApiKeyBody, ...errors(...AUTH_ERRORS, 'OWNER_SESSION_REQUIRED', 'NOT_FOUND', 'INVALID_JSON', 'INVALID_REQUEST') },
      },
    },
    async (request) => updateApiKey(ctx, principalOf(request).userId, request.params.id, request.body as KeyControlsInput & { name?: string }),
  );

  app.delete(
    '/v1/api-keys/:id',
    {
      onRequest: ownerOnly,
      schema: {
        tags,
        summary: 'Delete an API key (owner session): MCP calls and tokens minted from it stop working at once (D12)',
        security: bearerSecurity,
        params: Type.Object({ id: Type.String({ maxLength: 64 }) }),
        response: { 204: Type.Null(), ...errors(...AUTH_ERRORS, 'OWNER_SESSION_REQUIRED', 'NOT_FOUND') },
      },
    },
    async (request, reply) => {
      await deleteApiKey(ctx, principalOf(request).userId, request.params.id);
      return reply.status(204).send(null);
    },
  );
}
