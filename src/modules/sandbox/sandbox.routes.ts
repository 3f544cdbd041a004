import { Type } from '@sinclair/typebox';
import { OwnerText } from '../../http/owner-text.js';
import type { AppContext } from '../../context.js';
import { principalOf } from '../../http/auth.js';
import { BODY_ERRORS, bearerSecurity, described, errors, OWNER_ERRORS } from '../../http/schemas.js';
import type { App } from '../../http/types.js';
import { DepositBody, KycStatusSchema } from '../wallet/wallet.schemas.js';
import { SANDBOX_ARRIVAL_MAX_ARS, sandboxCrypto, sandboxDeposit } from './sandbox.service.js';
import { setKycStatus } from '../wallet/wallet.service.js';

/**
 * D26: helpers that exist only in sandbox mode, to make money arrive and to play KYC outcomes. D28: only the
 * owner plays them; an agent that could fund its own wallet or clear its KYC would test nothing.
 */
export function sandboxRoutes(app: App, ctx: AppContext): void {
  if (!ctx.config.sandbox) return;
  const tags = ['sandbox'];

  app.post(
    '/v1/sandbox/deposits',
    {
      // The activity entry commits with the money (sandbox.service), not after the answer.
      config: { access: 'owner' },
      schema: {
        tags,
        security: bearerSecurity,
        operationId: 'sandboxDeposit',
        summary: 'Fund the wallet from an account at another bank (sandbox, owner session)',
        description: 'The money arrives as any incoming transfer would: it shows in deposits and fires `deposit.detected`. The sender fields default to a fictitious outside account.',
        body: Type.Object(
          {
            amount_ars: Type.Number({ exclusiveMinimum: 0, maximum: SANDBOX_ARRIVAL_MAX_ARS, description: 'ARS, at most 2 decimals' }),
            from_cbu: Type.Optional(Type.String({ minLength: 22, maxLength: 22 })),
            from_name: Type.Optional(OwnerText({ minLength: 1, maxLength: 200 })),
            from_legal_id: Type.Optional(Type.String({ minLength: 11, maxLength: 13 })),
          },
          { additionalProperties: false },
        ),
        response: { 201: described(DepositBody, 'The incoming transfer leg'), ...errors(...OWNER_ERRORS, ...BODY_ERRORS, 'ONBOARDING_INCOMPLETE') },
      },
    },
    async (request, reply) => reply.status(201).send(await sandboxDeposit(ctx, principalOf(request), request.body)),
  );

  app.post(
    '/v1/sandbox/crypto',
    {
      config: { access: 'owner' },
      schema: {
        tags,
        security: bearerSecurity,
        operationId: 'sandboxCryptoDeposit',
        summary: 'Simulate a crypto deposit and its off-ramp to ARS (sandbox, owner session)',
        description: 'Credits the wallet with the converted amount, or fails the off-ramp when `fail` is true; fires the `crypto.*` events either way.',
        body: Type.Object(
          {
            asset: Type.Union([Type.Literal('USDT'), Type.Literal('USDC')]),
            amount: Type.Number({ exclusiveMinimum: 0, maximum: 1e7 }),
            ars_rate: Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: 1e7 })),
            fail: Type.Optional(Type.Boolean()),
          },
          { additionalProperties: false },
        ),
        response: {
          201: Type.Object(
            {
              crypto_deposit_id: Type.String(),
              offramp_id: Type.String(),
              status: Type.Union([Type.Literal('completed'), Type.Literal('failed')]),
              amount_ars: Type.Union([Type.String(), Type.Null()], { description: 'decimal; null when the off-ramp failed' }),
            },
            { description: 'The simulated deposit and its off-ramp' },
          ),
          ...errors(...OWNER_ERRORS, ...BODY_ERRORS, 'ONBOARDING_INCOMPLETE'),
        },
      },
    },
    async (request, reply) => reply.status(201).send(await sandboxCrypto(ctx, principalOf(request), request.body)),
  );

  app.post(
    '/v1/sandbox/kyc',
    {
      config: { access: 'owner', audit: 'sandbox.kyc' },
      schema: {
        tags,
        security: bearerSecurity,
        operationId: 'sandboxSetKyc',
        summary: 'Set the KYC status (sandbox, owner session)',
        description: 'Payouts of a user whose KYC is not `verified` are denied with reason `kyc_incomplete`.',
        body: Type.Object({ status: KycStatusSchema }, { additionalProperties: false }),
        response: {
          200: Type.Object({ kyc_status: KycStatusSchema }, { description: 'The status now' }),
          ...errors(...OWNER_ERRORS, ...BODY_ERRORS, 'ONBOARDING_INCOMPLETE'),
        },
      },
    },
    async (request) => setKycStatus(ctx, principalOf(request).userId, request.body.status),
  );
}
