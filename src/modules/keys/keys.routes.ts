import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../context.js';
import { isStoreUnavailable } from '../../db/store-errors.js';
import { principalOf } from '../../http/auth.js';
import { BODY_ERRORS, bearerSecurity, described, errors, OWNER_ERRORS } from '../../http/schemas.js';
import type { App } from '../../http/types.js';
import type { KeyControlsInput } from './key-controls.js';
import { ApiKeyBody, CreateApiKeyBody, NewApiKeyBody, UpdateApiKeyBody } from './keys.schemas.js';
import { revokeGrant } from '../oauth/oauth.service.js';
import { createOwnerKey, deleteApiKey, listApiKeys, updateApiKey } from './keys.service.js';

export function keysRoutes(app: App, ctx: AppContext): void {
  // D28, D38: an agent must not mint itself new keys, remove the owner's, or read the list of the others.
  const tags = ['api keys'];

  app.post(
    '/v1/api-keys',
    {
      config: { access: 'owner' },
      schema: {
        tags,
        operationId: 'createApiKey',
        summary: 'Create an API key (owner session)',
        description: 'One key per agent is recommended, so that each payout shows which agent asked. The secret, `key`, is in this answer only.',
        security: bearerSecurity,
        body: CreateApiKeyBody,
        response: { 201: described(NewApiKeyBody, 'The new key, with its secret'), ...errors(...OWNER_ERRORS, ...BODY_ERRORS) },
      },
    },
    async (request, reply) => {
      const { name, ...controls } = request.body as { name: string } & KeyControlsInput;
      const key = await createOwnerKey(ctx, principalOf(request), name.trim(), controls);
      return reply.status(201).send(key);
    },
  );

  app.get(
    '/v1/api-keys',
    {
      config: { access: 'owner' },
      schema: {
        tags,
        operationId: 'listApiKeys',
        summary: 'List API keys (owner session)',
        description: 'Never shows the secrets.',
        security: bearerSecurity,
        response: { 200: Type.Object({ api_keys: Type.Array(ApiKeyBody) }, { description: 'The keys of the user' }), ...errors(...OWNER_ERRORS) },
      },
    },
    async (request) => ({ api_keys: await listApiKeys(ctx, principalOf(request).userId) }),
  );

  app.patch(
    '/v1/api-keys/:id',
    {
      config: { access: 'owner', safetyAction: true },
      schema: {
        tags,
        operationId: 'updateApiKey',
        summary: "Change a key's controls (owner session)",
        description: "Its name, scopes, allowlist, its own limits and its expiry; fields not sent keep their value. Takes effect on the key's next request.",
        security: bearerSecurity,
        params: Type.Object({ id: Type.String({ maxLength: 64, description: 'the key id (`key_…`)' }) }),
        body: UpdateApiKeyBody,
        response: { 200: described(ApiKeyBody, 'The key as it is now'), ...errors(...OWNER_ERRORS, ...BODY_ERRORS, 'NOT_FOUND') },
      },
    },
    async (request) => {
      const who = principalOf(request);
      return updateApiKey(ctx, who.userId, request.params.id, request.body as KeyControlsInput & { name?: string }, who);
    },
  );

  app.delete(
    '/v1/api-keys/:id',
    {
      config: { access: 'owner', safetyAction: true },
      schema: {
        tags,
        operationId: 'deleteApiKey',
        summary: 'Delete an API key (owner session)',
        description: 'MCP calls with the key, the JWTs minted from it and, for an app connected by OAuth, its access and refresh tokens stop working at once. Other keys are not affected.',
        security: bearerSecurity,
        params: Type.Object({ id: Type.String({ maxLength: 64, description: 'the key id (`key_…`)' }) }),
        response: { 204: Type.Null({ description: 'Deleted' }), ...errors(...OWNER_ERRORS, ...BODY_ERRORS, 'NOT_FOUND') },
      },
    },
    async (request, reply) => {
      const who = principalOf(request);
      const { oauthGrantId } = await deleteApiKey(ctx, who.userId, request.params.id, who);
      // D44: an app connected by OAuth loses its grant and every token under it now, not at their expiry.
      if (oauthGrantId) {
        try {
          await revokeGrant(ctx, oauthGrantId);
        } catch (err) {
          // D42: the delete has committed, so a 503 (nothing kept) would be wrong, and a retry would find no agent.
          // The app is cut off already: its tokens act only through a live agent, so the records left are inert.
          if (!isStoreUnavailable(err)) throw err;
          request.log.warn({ err, grant: oauthGrantId }, 'the agent was deleted but its OAuth grant records could not be removed now');
        }
      }
      return reply.status(204).send(null);
    },
  );
}
