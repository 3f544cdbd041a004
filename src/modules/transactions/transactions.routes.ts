import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../context.js';
import { principalOf } from '../../http/auth.js';
import { AUTH_ERRORS, bearerSecurity, errors } from '../../http/schemas.js';
import type { App } from '../../http/types.js';
import { listTransactions, TRANSACTIONS_PAGE_DEFAULT, TRANSACTIONS_PAGE_MAX } from './transactions.service.js';

const Nullable = <T extends ReturnType<typeof Type.String>>(t: T) => Type.Union([t, Type.Null()]);
export const TransactionBody = Type.Object({
  id: Type.String(),
  type: Type.Union([Type.Literal('debit'), Type.Literal('credit')]),
  amount: Type.Number({ description: 'ARS' }),
  destination: Type.Optional(Type.String({ description: 'debits: where the money went' })),
  origin: Type.Optional(Type.String({ description: 'credits: where the money came from' })),
  counterparty_name: Nullable(Type.String()),
  description: Type.String(),
  status: Type.Union([Type.Literal('pending'), Type.Literal('completed'), Type.Literal('failed')]),
  created_at: Type.String({ format: 'date-time' }),
  payout_id: Type.Optional(Type.String({ description: 'debits: the payout attempt' })),
});

/** The wallet's history of money moved (D34). */
export function transactionsRoutes(app: App, ctx: AppContext): void {
  app.get(
    '/v1/transactions',
    {
      config: { access: { scope: 'transactions:read' } },
      schema: {
        tags: ['transactions'],
        security: bearerSecurity,
        operationId: 'listTransactions',
        summary: 'List wallet transactions',
        description: 'Money in and out of the wallet, newest first: a debit per payout that reached the bank, a credit per incoming deposit. While `has_more` is true, pass `next_cursor` as `cursor`; pages neither skip nor repeat entries while new ones arrive.',
        querystring: Type.Object(
          {
            limit: Type.Optional(Type.Integer({ minimum: 1, maximum: TRANSACTIONS_PAGE_MAX, default: TRANSACTIONS_PAGE_DEFAULT })),
            cursor: Type.Optional(Type.String({ maxLength: 64 })),
          },
          { additionalProperties: false },
        ),
        response: {
          200: Type.Object(
            { transactions: Type.Array(TransactionBody), next_cursor: Nullable(Type.String()), has_more: Type.Boolean() },
            { description: 'One page of the history' },
          ),
          ...errors(...AUTH_ERRORS, 'INSUFFICIENT_SCOPE', 'INVALID_REQUEST'),
        },
      },
    },
    async (request) => listTransactions(ctx, principalOf(request).userId, request.query as { limit?: number; cursor?: string }),
  );
}
