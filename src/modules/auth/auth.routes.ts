import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../context.js';
import { BODY_ERRORS, described, errors, noSecurity } from '../../http/schemas.js';
import type { App } from '../../http/types.js';
import { exchangeApiKey, loginOwner } from './auth.service.js';

const TokenBody = Type.Object({
  token: Type.String({ description: 'send as `Authorization: Bearer <token>`' }),
  expires_in: Type.Integer({ description: 'seconds until the token expires; get a new one the same way' }),
});

export function authRoutes(app: App, ctx: AppContext): void {
  const tags = ['auth'];
  app.post(
    '/v1/auth/token',
    {
      config: { access: 'public' },
      schema: {
        tags,
        operationId: 'exchangeApiKey',
        summary: 'Exchange an API key for a JWT (agent session)',
        description: 'The REST API does not take API keys directly. A deleted or expired key can no longer be exchanged.',
        security: noSecurity,
        body: Type.Object({ api_key: Type.String({ minLength: 1, maxLength: 200, description: 'the `svc_…` secret' }) }, { additionalProperties: false }),
        response: { 200: described(TokenBody, 'An agent session'), ...errors(...BODY_ERRORS, 'INVALID_API_KEY', 'RATE_LIMIT_EXCEEDED') },
      },
    },
    async (request) => exchangeApiKey(ctx, request.body.api_key),
  );

  app.post(
    '/v1/login',
    {
      config: { access: 'public', safetyAction: true, login: true },
      schema: {
        tags,
        operationId: 'login',
        summary: 'Log in as the owner (email and password)',
        description: "The owner's session, needed for the operations that only the owner may do.",
        security: noSecurity,
        body: Type.Object(
          { email: Type.String({ minLength: 1, maxLength: 254 }), password: Type.String({ minLength: 1, maxLength: 256 }) },
          { additionalProperties: false },
        ),
        response: {
          200: described(TokenBody, "The owner's session"),
          ...errors(...BODY_ERRORS, 'INVALID_CREDENTIALS', 'RATE_LIMIT_EXCEEDED'),
        },
      },
    },
    async (request) => loginOwner(ctx, request.body.email, request.body.password),
  );
}
