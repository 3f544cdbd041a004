import { Type } from '@sinclair/typebox';
import { Timestamp } from '../../http/schemas.js';

const Nullable = <T extends ReturnType<typeof Type.String>>(t: T) => Type.Union([t, Type.Null()]);

export const DestinationKindSchema = Type.Union([Type.Literal('CBU'), Type.Literal('CVU'), Type.Literal('ALIAS')]);

export const WithdrawBody = Type.Object(
  {
    amount_ars: Type.Number({ description: 'ARS, at most 2 decimals' }),
    destination: Type.String({ minLength: 1, maxLength: 64, description: 'CBU, CVU or alias' }),
    destination_kind: Type.Optional(DestinationKindSchema),
    note: Type.Optional(Type.String({ maxLength: 140 })),
  },
  { additionalProperties: false },
);

export const CreatedBody = Type.Object({
  id: Type.String(),
  status: Type.String({ description: '"submitted" (or "approved" while the rail outcome is being reconciled)' }),
  decision: Type.Literal('allow'),
});

export const PendingBody = Type.Object({
  id: Type.String(),
  status: Type.Literal('pending_approval'),
  decision: Type.Literal('require_approval'),
  reasons: Type.Array(Type.String()),
  approval_id: Type.String(),
  expires_in: Type.Integer({ description: 'seconds' }),
});

export const PayoutRecord = Type.Object({
  id: Type.String(),
  amount_ars: Type.Number(),
  destination: Type.String(),
  destination_kind: DestinationKindSchema,
  status: Type.String(),
  decision: Type.String(),
  decision_reasons: Type.Array(Type.String()),
  idempotency_key: Type.String(),
  created_at: Timestamp,
  resolved_at: Nullable(Timestamp),
  provider_transfer_id: Nullable(Type.String()),
  api_key_id: Nullable(Type.String()),
  api_key_name: Nullable(Type.String()),
  note: Nullable(Type.String()),
  failure_reason: Nullable(Type.String()),
  approval_id: Nullable(Type.String()),
  recipient_name: Nullable(Type.String()),
  recipient_legal_id: Nullable(Type.String()),
  updated_at: Timestamp,
});

export const ListQuery = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
  cursor: Type.Optional(Type.String({ maxLength: 64 })),
});
