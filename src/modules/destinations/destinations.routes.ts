import type { AppContext } from '../../context.js';
import { AUTH_ERRORS, BODY_ERRORS, bearerSecurity, errors } from '../../http/schemas.js';
import type { App } from '../../http/types.js';
import { ResolveBody, ResolvedDestination } from './destinations.schemas.js';
import { resolveDestination } from './destinations.service.js';

export function destinationsRoutes(app: App, ctx: AppContext): void {
  app.post(
    '/v1/destinations/resolve',
    {
      config: { access: { scope: 'payouts:read' } },
      schema: {
        tags: ['payouts'],
        security: bearerSecurity,
        operationId: 'resolveDestination',
        summary: 'Who is behind a CBU, CVU or alias',
        description:
          'Asks the bank who holds the account, before paying it. Nothing is written. A destination the bank does not know, ' +
          'or one that is not a well-formed CBU, CVU or alias, is 404 `DESTINATION_NOT_FOUND`.',
        body: ResolveBody,
        response: {
          200: ResolvedDestination,
          ...errors('INSUFFICIENT_SCOPE', ...AUTH_ERRORS, ...BODY_ERRORS, 'DESTINATION_NOT_FOUND', 'RAIL_UNAVAILABLE'),
        },
      },
    },
    async (request) => resolveDestination(ctx, request.body),
  );
}
