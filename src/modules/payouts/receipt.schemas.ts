import { Type, type Static } from '@sinclair/typebox';
import { StringEnum, Timestamp } from '../../http/schemas.js';
import { PayoutStatusSchema } from './payouts.schemas.js';
import type { Receipt } from './receipt.service.js';

const S = Type.String();
const Nullable = <T extends ReturnType<typeof Type.String>>(t: T) => Type.Union([t, Type.Null()]);

/** The JSON form of a receipt (the data the HTML voucher and the PDF print). */
export const ReceiptBody = Type.Object({
  payout_id: Type.String({ description: '`wd_…`' }),
  status: PayoutStatusSchema,
  title: Type.String({ description: 'in Spanish, e.g. "Comprobante de transferencia" once confirmed' }),
  status_text: Type.String({ description: 'in Spanish' }),
  amount_ars: Type.Number(),
  currency: Type.Literal('ARS'),
  origin: Type.Object({ cvu: S, alias: Nullable(S), holder_name: S, holder_legal_id: S }),
  destination: Type.Object({
    value: Type.String({ description: 'as requested' }),
    kind: S,
    account: Nullable(Type.String({ description: 'the 22-digit account paid (an alias resolved), when known' })),
    account_masked: Nullable(S),
    account_type: Type.Union([StringEnum(['CBU', 'CVU']), Type.Null()]),
    bank_code: Nullable(S),
    bank_name: Nullable(S),
    psp_code: Nullable(S),
    institution: Nullable(S),
    recipient_name: Nullable(S),
    recipient_legal_id: Nullable(S),
  }),
  provider_transfer_id: Nullable(S),
  coelsa_id: Nullable(Type.String({ description: "the transfer's Coelsa id, when the rail gives one: the reference banks use for claims" })),
  operation_id: Nullable(Type.String({ description: "the rail's operation number as vouchers print it" })),
  reference: Type.String({ description: 'our reference at the rail' }),
  api_key_name: Nullable(S),
  note: Nullable(S),
  decision: S,
  decision_reasons: Type.Array(S),
  created_at: Timestamp,
  approved_at: Nullable(Timestamp),
  submitted_at: Nullable(Timestamp),
  resolved_at: Nullable(Timestamp),
  approved_by: Type.Union([
    Type.Object({ by: StringEnum(['policy', 'owner']), via: Nullable(Type.String({ description: 'the channel the owner used' })) }),
    Type.Null(),
  ]),
  approval: Type.Union([
    Type.Object({
      id: S,
      status: StringEnum(['pending', 'approved', 'rejected', 'expired']),
      expires_at: Timestamp,
      decided_at: Nullable(Timestamp),
      decided_via: Nullable(S),
    }),
    Type.Null(),
  ]),
  failure_reason: Nullable(S),
  failure_reason_text: Nullable(Type.String({ description: 'in Spanish' })),
});

// The serializer drops what the schema does not name, so the schema and the receipt must have the same fields.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const _receiptSchemaMatches: Same<Static<typeof ReceiptBody>, Receipt> = true;
