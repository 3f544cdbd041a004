import type { AppContext } from '../../context.js';
import { principalOf } from '../../http/auth.js';
import { AUTH_ERRORS, BODY_ERRORS, bearerSecurity, described, errors, OWNER_ERRORS } from '../../http/schemas.js';
import type { App } from '../../http/types.js';
import { Type } from '@sinclair/typebox';
import { PutThresholdsBody, ThresholdsBody } from './thresholds.schemas.js';
import { getThresholds, replaceThresholds } from './thresholds.service.js';

export function thresholdsRoutes(app: App, ctx: AppContext): void {
  const tags = ['thresholds'];
  app.get(
    '/v1/thresholds',
    {
      config: { access: { scope: 'thresholds:read' } },
      schema: {
        tags,
        security: bearerSecurity,
        operationId: 'getThresholds',
        summary: 'The policy limits',
        description: 'The server defaults until the owner sets them.',
        response: { 200: described(ThresholdsBody, 'The limits in force'), ...errors('INSUFFICIENT_SCOPE', ...AUTH_ERRORS) },
      },
    },
    async (request) => getThresholds(ctx, principalOf(request).userId),
  );
  app.put(
    '/v1/thresholds',
    {
      config: { access: 'owner' },
      schema: {
        tags,
        security: bearerSecurity,
        operationId: 'replaceThresholds',
        summary: 'Replace the policy limits (owner session)',
        description:
          'Takes effect at once for every key of the user. Omitted numeric fields are written as 0, which disables that limit. Agents cannot change limits; through MCP they may propose a change that the owner confirms.',
        body: PutThresholdsBody,
        response: { 204: Type.Null({ description: 'Replaced' }), ...errors(...OWNER_ERRORS, ...BODY_ERRORS) },
      },
    },
    async (request, reply) => {
      await replaceThresholds(ctx, principalOf(request), request.body);
      return reply.status(204).send(null);
    },
  );
}
