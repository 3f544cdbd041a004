import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../context.js';
import { principalOf, requireAuth, requireOwner } from '../../http/auth.js';
import { AUTH_ERRORS, bearerSecurity, errors } from '../../http/schemas.js';
import type { App } from '../../http/types.js';
import { DepositBody, KycStatusSchema } from '../wallet/wallet.schemas.js';
import { sandboxCrypto, sandboxDeposit } from './sandbox.service.js';
import { setKycStatus } from '../wallet/wallet.service.js';

/**
 * D26: helpers that exist only in sandbox mode, to make money arrive and to play KYC outcomes. D28: only the
 * owner plays them; an agent that could fund its own wallet or clear its KYC would test nothing.
 */
export function sandboxRoutes(app: App, ctx: AppContext): void {
  if (!ctx.config.sandbox) return;
  const ownerOnly = [requireAuth(ctx), requireOwner];
  const tags = ['sandbox'];

  app.post(
    '/v1/sandbox/deposits',
    {
      onRequest: ownerOnly,
      schema: {
        tags,
        security: bearerSecurity,
        summary: "Credit the caller's CVU from an account at another bank",
        body: Type.Object(
          {
            amount_ars: Type.Number({ exclusiveMinimum: 0, maximum: 1e11 }),
            from_cbu: Type.Optional(Type.String({ minLength: 22, maxLength: 22 })),
            from_name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
            from_legal_id: Type.Optional(Type.String({ minLength: 11, maxLength: 13 })),
          },
          { additionalProperties: false },
        ),
        response: { 201: DepositBody, ...errors(...AUTH_ERRORS, 'OWNER_SESSION_REQUIRED', 'INVALID_JSON', 'INVALID_REQUEST', 'ONBOARDING_INCOMPLETE') },
      },
    },
    async (request, reply) => reply.status(201).send(await sandboxDeposit(ctx, principalOf(request).userId, request.body)),
  );

  app.post(
    '/v1/sandbox/crypto',
    {
      onRequest: ownerOnly,
      schema: {
        tags,
        security: bearerSecurity,
        summary: 'Simulate an incoming crypto deposit and its off-ramp to ARS (credits the wallet, or fails with fail: true)',
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
          201: Type.Object({
            crypto_deposit_id: Type.String(),
            offramp_id: Type.String(),
            status: Type.Union([Type.Literal('completed'), Type.Literal('failed')]),
            amount_ars: Type.Union([Type.String(), Type.Null()]),
          }),
          ...errors(...AUTH_ERRORS, 'OWNER_SESSION_REQUIRED', 'INVALID_JSON', 'INVALID_REQUEST', 'ONBOARDING_INCOMPLETE'),
        },
      },
    },
    async (request, reply) => reply.status(201).send(await sandboxCrypto(ctx, principalOf(request).userId, request.body)),
  );

  app.post(
    '/v1/sandbox/kyc',
    {
      onRequest: ownerOnly,
      schema: {
        tags,
        security: bearerSecurity,
        summary: "Set the caller's KYC status",
        body: Type.Object({ status: KycStatusSchema }, { additionalProperties: false }),
        response: { 200: Type.Object({ kyc_status: KycStatusSchema }), ...errors(...AUTH_ERRORS, 'OWNER_SESSION_REQUIRED', 'INVALID_REQUEST', 'ONBOARDING_INCOMPLETE') },
      },
    },
    async (request) => setKycStatus(ctx, principalOf(request).userId, request.body.status),
  );
}
