import type { AppContext } from '../../context.js';
import { BODY_ERRORS, described, errors, noSecurity } from '../../http/schemas.js';
import type { App } from '../../http/types.js';
import { CreatedUserBody, CreateUserBody } from './users.schemas.js';
import { createUser } from './users.service.js';

export function usersRoutes(app: App, ctx: AppContext): void {
  app.post(
    '/v1/users',
    {
      config: { access: 'public' },
      schema: {
        tags: ['users'],
        operationId: 'createUser',
        summary: 'Sign up',
        description:
          'Creates the user and its first API key, `default`, whose secret is in `default_api_key.key`: store it now, it is never shown again. Next: log in, then complete onboarding.',
        security: noSecurity,
        body: CreateUserBody,
        response: { 201: described(CreatedUserBody, 'The user and its first API key'), ...errors(...BODY_ERRORS, 'EMAIL_TAKEN', 'RATE_LIMIT_EXCEEDED') },
      },
    },
    async (request, reply) => {
      const { user, defaultKey } = await createUser(ctx, request.body);
      return reply.status(201).send({ ...user, onboarding_status: 'pending', default_api_key: defaultKey });
    },
  );
}
