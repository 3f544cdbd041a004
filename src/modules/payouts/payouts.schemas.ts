import { Type, type TSchema } from '@sinclair/typebox';
import { OwnerText } from '../../http/owner-text.js';
import { StringEnum, Timestamp } from '../../http/schemas.js';

const Nullable = <T extends ReturnType<typeof Type.String>>(t: T) => Type.Union([t, Type.Null()]);

export const DestinationKindSchema = Type.Union([Type.Literal('CBU'), Type.Literal('CVU'), Type.Literal('ALIAS')]);

const PAYOUT_STATUSES = ['pending_approval', 'approved', 'rejected', 'expired', 'submitted', 'confirmed', 'failed'] as const;
export const PayoutStatusSchema = StringEnum(PAYOUT_STATUSES, {
  description: 'pending_approval → approved → submitted → confirmed; or rejected, expired, failed',
});

export const WithdrawBody = Type.Object(
  {
    amount_ars: Type.Number({ description: 'ARS, at most 2 decimals' }),
    destination: Type.String({ minLength: 1, maxLength: 64, description: 'CBU, CVU or alias' }),
    destination_kind: Type.Optional({ ...DestinationKindSchema, description: 'Omitted: inferred from destination (22 digits starting 000 = CVU, other 22 digits = CBU, anything else = alias)' }),
    note: Type.Optional(OwnerText({ maxLength: 140, description: 'free text; shown on the receipt' })),
  },
  { additionalProperties: false },
);

export const CreatedBody = Type.Object(
  {
    id: Type.String({ description: '`wd_…`' }),
    status: StringEnum(['submitted', 'approved', 'confirmed'], {
      description: '`submitted`; `approved` while the rail outcome is being reconciled (never resubmit: follow the id)',
    }),
    decision: Type.Literal('allow'),
  },
  { description: 'Allowed and submitted to the bank rail' },
);

export const PendingBody = Type.Object(
  {
    id: Type.String({ description: '`wd_…`' }),
    status: Type.Literal('pending_approval'),
    decision: Type.Literal('require_approval'),
    reasons: Type.Array(Type.String(), { description: 'why approval is needed, e.g. `above_approval_threshold`' }),
    approval_id: Type.String({ description: '`apr_…`' }),
    expires_in: Type.Integer({ description: 'seconds the owner has to decide; then the payout expires' }),
  },
  { description: "Held for the owner's approval; the call does not wait for it" },
);

// The record's view types status and decision as plain strings; the document still lists their values.
const asString = <T extends TSchema>(schema: T) => Type.Unsafe<string>({ ...schema });

export const PayoutRecord = Type.Object({
  id: Type.String({ description: '`wd_…`' }),
  amount_ars: Type.Number(),
  destination: Type.String(),
  destination_kind: DestinationKindSchema,
  status: asString(PayoutStatusSchema),
  decision: asString(StringEnum(['allow', 'require_approval'])),
  decision_reasons: Type.Array(Type.String()),
  idempotency_key: Type.String(),
  created_at: Timestamp,
  resolved_at: Nullable(Timestamp),
  provider_transfer_id: Nullable(Type.String({ description: "the rail's transfer id, once submitted" })),
  coelsa_id: Nullable(Type.String({ description: "the transfer's Coelsa id, when the rail gives one (BIND): the reference banks use for claims" })),
  api_key_id: Nullable(Type.String({ description: 'the key that asked; null for the owner' })),
  api_key_name: Nullable(Type.String()),
  note: Nullable(Type.String()),
  failure_reason: Nullable(Type.String()),
  approval_id: Nullable(Type.String()),
  recipient_name: Nullable(Type.String({ description: 'the account holder, as the rail resolved the destination' })),
  recipient_legal_id: Nullable(Type.String()),
  updated_at: Timestamp,
  waiting_for_resume: Type.Boolean({
    description: 'approved, and held back by the emergency stop: it is sent once payouts are resumed, and the owner may cancel it meanwhile',
  }),
});

export const ListQuery = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, description: 'page size, at most 100 (the default)' })),
  cursor: Type.Optional(Type.String({ maxLength: 64, description: '`next_cursor` of the previous page' })),
});

const Limit = Type.Object(
  {
    limit: Type.Number({ description: 'ARS; 0 means no limit' }),
    used: Type.Number({ description: 'ARS already committed today (daily) or this month (monthly), not counting this payout; 0 for a per-payout limit' }),
    remaining: Type.Union([Type.Number(), Type.Null()], { description: 'ARS left before the limit holds a payout for approval; null when there is no limit' }),
  },
  { additionalProperties: false },
);
const KeyLimit = Type.Union([Limit, Type.Null()], { description: "the agent key's own limit; null for the owner's session" });

export const SimulationBody = Type.Object(
  {
    decision: StringEnum(['allow', 'require_approval', 'deny'], { description: 'what the payout would get now' }),
    reasons: Type.Array(Type.String(), { description: 'the policy reasons, as a payout would carry them (empty when allowed)' }),
    limits: Type.Object(
      {
        per_tx: Limit,
        daily: Limit,
        monthly: Limit,
        key_per_tx: KeyLimit,
        key_daily: KeyLimit,
        key_monthly: KeyLimit,
      },
      { additionalProperties: false },
    ),
    destination: Type.Object(
      {
        kind: DestinationKindSchema,
        account: Nullable(Type.String({ description: 'the 22-digit account (an alias resolved); null when the bank knows no such account' })),
        holder_name: Nullable(Type.String()),
        bank_name: Nullable(Type.String()),
      },
      { additionalProperties: false },
    ),
  },
  { description: 'What a payout with this body would get now; nothing was created', additionalProperties: false },
);
