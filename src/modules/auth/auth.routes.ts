import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../context.js';
import { errors } from '../../http/schemas.js';
import type { App } from '../../http/types.js';
import { exchangeApiKey, loginOwner } from './auth.service.js';

const TokenBody = Type.Object({
  token: Type.String(),
  expires_in: Type.Integer({ description: 'seconds' }),
});

export function authRoutes(app: App, ctx: AppContext): void {
  const tags = ['auth'];
  app.post(
    '/v1/auth/token',
    {
      schema: {
        tags,
        summary: 'Exchange an API key for a JWT (agent session)',
        body: Type.Object({ api_key: Type.String({ minLength: 1, maxLength: 200 }) }, { additionalProperties: false }),
        response: { 200: TokenBody, ...errors('INVALID_JSON', 'INVALID_REQUEST', 'INVALID_API_KEY', 'RATE_LIMIT_EXCEEDED') },
      },
    },
    async (request) => exchangeApiKey(ctx, request.body.api_key),
  );

  app.post(
    '/v1/login',
    {
      schema: {
        tags,
        summary: "Log in with email and password (the owner's dashboard session)",
        body: Type.Object(
          { email: Type.String({ minLength: 1, maxLength: 254 }), password: Type.String({ minLength: 1, maxLength: 256 }) },
          { additionalProperties: false },
        ),
        response: {
          200: TokenBody,
          ...errors('INVALID_JSON', 'INVALID_REQUEST', 'INVALID_CREDENTIALS', 'RATE_LIMIT_EXCEEDED'),
        },
      },
    },
    async (request) => loginOwner(ctx, request.body.email, request.body.password),
  );
}
