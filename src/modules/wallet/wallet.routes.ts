import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../context.js';
import { principalOf, requireAuth, requireScope } from '../../http/auth.js';
import { AUTH_ERRORS, bearerSecurity, errors } from '../../http/schemas.js';
import type { App } from '../../http/types.js';
import { BalanceBody, CvuBody, DepositBody, OnboardingBody, OnboardingResult } from './wallet.schemas.js';
import { getBalance, getCvu, listDeposits, onboard } from './wallet.service.js';

export function walletRoutes(app: App, ctx: AppContext): void {
  const auth = requireAuth(ctx);
  const tags = ['wallet'];
  const security = bearerSecurity;

  app.post(
    '/v1/onboarding',
    {
      onRequest: auth,
      schema: {
        tags,
        security,
        summary: 'Register the legal identity; the rail issues the CVU and an alias (D10)',
        body: OnboardingBody,
        response: { 200: OnboardingResult, ...errors(...AUTH_ERRORS, 'INVALID_JSON', 'INVALID_REQUEST', 'ALREADY_ONBOARDED') },
      },
    },
    async (request) => onboard(ctx, principalOf(request).userId, request.body),
  );

  app.get(
    '/v1/balance',
    {
      onRequest: [auth, requireScope('wallet:read')],
      schema: { tags, security, summary: 'Available balance', response: { 200: BalanceBody, ...errors(...AUTH_ERRORS, 'ONBOARDING_INCOMPLETE') } },
    },
    async (request) => getBalance(ctx, principalOf(request).userId),
  );

  app.get(
    '/v1/cvu',
    {
      onRequest: [auth, requireScope('wallet:read')],
      schema: { tags, security, summary: 'The CVU and alias to receive money', response: { 200: CvuBody, ...errors(...AUTH_ERRORS, 'ONBOARDING_INCOMPLETE') } },
    },
    async (request) => getCvu(ctx, principalOf(request).userId),
  );

  app.get(
    '/v1/deposits',
    {
      onRequest: [auth, requireScope('wallet:read')],
      schema: {
        tags,
        security,
        summary: 'Up to the 100 most recent transfer legs to and from the CVU, both directions: check `direction`',
        response: { 200: Type.Object({ deposits: Type.Array(DepositBody) }), ...errors(...AUTH_ERRORS) },
      },
    },
    async (request) => ({ deposits: await listDeposits(ctx, principalOf(request).userId) }),
  );
}
