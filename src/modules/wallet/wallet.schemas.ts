import { Type } from '@sinclair/typebox';
import { OwnerText } from '../../http/owner-text.js';

export const OnboardingBody = Type.Object(
  {
    legal_id: Type.String({ minLength: 11, maxLength: 13, description: 'CUIT/CUIL, 11 digits (dashes allowed)' }),
    legal_name: OwnerText({ minLength: 1, maxLength: 200, description: 'the name on the tax record' }),
  },
  { additionalProperties: false },
);

export const KycStatusSchema = Type.Union([Type.Literal('pending'), Type.Literal('verified'), Type.Literal('rejected')]);

export const CvuBody = Type.Object({
  cvu: Type.String({ description: '22 digits' }),
  alias: Type.String({ description: 'may be empty' }),
  asset: Type.Literal('ARS'),
});

export const OnboardingResult = Type.Intersect([CvuBody, Type.Object({ kyc_status: KycStatusSchema })]);

export const BalanceBody = Type.Object({
  asset: Type.Literal('ARS'),
  available: Type.String({ description: 'decimal with 2 decimals, e.g. "1500.00"' }),
});

export const DepositBody = Type.Object({
  id: Type.String(),
  from: Type.String({ description: 'CBU or CVU of the sender' }),
  to: Type.String({ description: 'CBU or CVU of the receiver' }),
  fromLegalId: Type.String(),
  toLegalId: Type.String(),
  fromName: Type.String(),
  toName: Type.String(),
  amount: Type.String({ description: 'decimal' }),
  currency: Type.String(),
  status: Type.String(),
  creationTime: Type.String({ format: 'date-time' }),
  direction: Type.Union([Type.Literal('credit'), Type.Literal('debit')], { description: '`credit` is money in' }),
});
