import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../context.js';
import { principalOf } from '../../http/auth.js';
import { AUTH_ERRORS, BODY_ERRORS, bearerSecurity, described, errors, OWNER_ERRORS } from '../../http/schemas.js';
import type { App } from '../../http/types.js';
import { BalanceBody, CvuBody, DepositBody, OnboardingBody, OnboardingResult } from './wallet.schemas.js';
import { getBalance, getCvu, listDeposits, onboard } from './wallet.service.js';

export function walletRoutes(app: App, ctx: AppContext): void {
  const tags = ['wallet'];
  const security = bearerSecurity;

  app.post(
    '/v1/onboarding',
    {
      config: { access: 'owner' },
      schema: {
        tags,
        security,
        operationId: 'completeOnboarding',
        summary: 'Complete onboarding: register the legal identity and get a CVU (owner session)',
        description:
          'The bank rail issues the CVU and a three-word alias. Until this is done, balance, CVU and payouts answer 422 `ONBOARDING_INCOMPLETE`. In the sandbox KYC is `verified` at once, except for the documented test legal ids.',
        body: OnboardingBody,
        response: { 200: described(OnboardingResult, 'The wallet is ready'), ...errors(...OWNER_ERRORS, ...BODY_ERRORS, 'ALREADY_ONBOARDED', 'RAIL_UNAVAILABLE') },
      },
    },
    async (request) => onboard(ctx, principalOf(request).userId, request.body),
  );

  app.get(
    '/v1/balance',
    {
      config: { access: { scope: 'wallet:read' } },
      schema: {
        tags,
        security,
        operationId: 'getBalance',
        summary: 'Available balance',
        response: { 200: described(BalanceBody, 'The balance'), ...errors('INSUFFICIENT_SCOPE', ...AUTH_ERRORS, 'ONBOARDING_INCOMPLETE', 'RAIL_UNAVAILABLE') },
      },
    },
    async (request) => getBalance(ctx, principalOf(request).userId),
  );

  app.get(
    '/v1/cvu',
    {
      config: { access: { scope: 'wallet:read' } },
      schema: {
        tags,
        security,
        operationId: 'getCvu',
        summary: 'The CVU and alias to receive money',
        response: { 200: described(CvuBody, 'Where to send money to this wallet'), ...errors('INSUFFICIENT_SCOPE', ...AUTH_ERRORS, 'ONBOARDING_INCOMPLETE') },
      },
    },
    async (request) => getCvu(ctx, principalOf(request).userId),
  );

  app.get(
    '/v1/deposits',
    {
      config: { access: { scope: 'wallet:read' } },
      schema: {
        tags,
        security,
        operationId: 'listDeposits',
        summary: 'Recent transfers to and from the CVU',
        description:
          'Up to the 100 most recent transfer legs, read live from the bank rail. Outgoing legs are listed too: check `direction` (`credit` is incoming). Empty, not an error, before onboarding.',
        response: {
          200: Type.Object({ deposits: Type.Array(DepositBody) }, { description: 'The transfer legs, both directions' }),
          ...errors('INSUFFICIENT_SCOPE', ...AUTH_ERRORS, 'RAIL_UNAVAILABLE'),
        },
      },
    },
    async (request) => ({ deposits: await listDeposits(ctx, principalOf(request).userId) }),
  );
}
