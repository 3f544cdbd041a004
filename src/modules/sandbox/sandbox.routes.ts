import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../context.js';
import { principalOf, requireAuth } from '../../http/auth.js';
import { AUTH_ERRORS, bearerSecurity, errors } from '../../http/schemas.js';
import type { App } from '../../http/types.js';
import { DepositBody, KycStatusSchema } from '../wallet/wallet.schemas.js';
import { sandboxCrypto, sandboxDeposit } from './sandbox.service.js';
import { setKycStatus } from '../wallet/wallet.service.js';

/** D26: helpers that exist only in sandbox mode, to make money arrive and to play KYC outcomes. */
export function sandboxRoutes(app: App, ctx: AppContext): void {
  if (!ctx.config.sandbox) return;
  const auth = requireAuth(ctx);
  const tags = ['sandbox'];

  app.post(
    '/v1/sandbox/deposits',
    {
      onRequest: auth,
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
        response: { 201: DepositBody, ...errors(...AUTH_ERRORS, 'INVALID_JSON', 'INVALID_REQUEST', 'ONBOARDING_INCOMPLETE') },
      },
    },
    async (request, reply) => reply.status(201).send(await sandboxDeposit(ctx, principalOf(request).userId, request.body)),
  );

  app.post(
    '/v1/sandbox/crypto',
    {
      onRequest: auth,
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
          ...errors(...AUTH_ERRORS, 'INVALID_JSON', 'INVALID_REQUEST', 'ONBOARDING_INCOMPLETE'),
        },
      },
    },
    async (request, reply) => reply.status(201).send(await sandboxCrypto(ctx, principalOf(request).userId, request.body)),
  );

  app.post(
    '/v1/sandbox/kyc',
    {
      onRequest: auth,
      schema: {
        tags,
        security: bearerSecurity,
        summary: "Set the caller's KYC status",
        body: Type.Object({ status: KycStatusSchema }, { additionalProperties: false }),
        response: { 200: Type.Object({ kyc_status: KycStatusSchema }), ...errors(...AUTH_ERRORS, 'INVALID_REQUEST', 'ONBOARDING_INCOMPLETE') },
      },
    },
    async (request) => setKycStatus(ctx, principalOf(request).userId, request.body.status),
  );
}
