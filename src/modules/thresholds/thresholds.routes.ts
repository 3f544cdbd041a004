import type { AppContext } from '../../context.js';
import { principalOf, requireAuth, requireOwner, requireScope } from '../../http/auth.js';
import { AUTH_ERRORS, bearerSecurity, errors } from '../../http/schemas.js';
import type { App } from '../../http/types.js';
import { Type } from '@sinclair/typebox';
import { PutThresholdsBody, ThresholdsBody } from './thresholds.schemas.js';
import { getThresholds, replaceThresholds } from './thresholds.service.js';

export function thresholdsRoutes(app: App, ctx: AppContext): void {
  const auth = requireAuth(ctx);
  const tags = ['thresholds'];
  app.get(
    '/v1/thresholds',
    {
      onRequest: [auth, requireScope('thresholds:read')],
      schema: {
        tags,
        security: bearerSecurity,
        summary: 'The policy limits of the user (server defaults when none are stored)',
        response: { 200: ThresholdsBody, ...errors(...AUTH_ERRORS) },
      },
    },
    async (request) => getThresholds(ctx, principalOf(request).userId),
  );
  app.put(
    '/v1/thresholds',
    {
      onRequest: [auth, requireOwner],
      schema: {
        tags,
        security: bearerSecurity,
        summary: 'Replace the limits (owner session, D13); omitted numeric fields are written as 0 (disabled)',
        body: PutThresholdsBody,
        response: { 204: Type.Null(), ...errors(...AUTH_ERRORS, 'OWNER_SESSION_REQUIRED', 'INVALID_JSON', 'INVALID_REQUEST') },
      },
    },
    async (request, reply) => {
      await replaceThresholds(ctx, principalOf(request).userId, request.body);
      return reply.status(204).send(null);
    },
  );
}
