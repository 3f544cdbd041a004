import type { AppContext } from '../../context.js';
import { errors } from '../../http/schemas.js';
import type { App } from '../../http/types.js';
import { CreatedUserBody, CreateUserBody } from './users.schemas.js';
import { createUser } from './users.service.js';

export function usersRoutes(app: App, ctx: AppContext): void {
  app.post(
    '/v1/users',
    {
      schema: {
        tags: ['users'],
        summary: 'Create a user (and its first API key, `default`)',
        body: CreateUserBody,
        response: { 201: CreatedUserBody, ...errors('INVALID_JSON', 'INVALID_REQUEST', 'EMAIL_TAKEN', 'RATE_LIMIT_EXCEEDED') },
      },
    },
    async (request, reply) => {
      const { user, defaultKey } = await createUser(ctx, request.body);
      return reply.status(201).send({ ...user, onboarding_status: 'pending', default_api_key: defaultKey });
    },
  );
}
