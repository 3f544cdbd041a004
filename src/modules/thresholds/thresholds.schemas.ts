import { Type } from '@sinclair/typebox';

const Amount = (description: string) => Type.Number({ minimum: 0, maximum: 1e11, description: `${description}; 0 disables it` });

export const ThresholdFields = {
  per_tx_limit_ars: Amount('per-payout limit, ARS'),
  daily_limit_ars: Amount('daily limit (calendar day, Buenos Aires), ARS'),
  monthly_limit_ars: Amount('monthly limit (calendar month, Buenos Aires), ARS'),
  whitelist_cbus: Type.Array(Type.String({ minLength: 1, maxLength: 40 }), {
    maxItems: 100,
    description: 'CBU, CVU or alias; when non-empty, payouts to other destinations need approval',
  }),
  require_approval_above_ars: Amount('payouts above this need approval'),
};

export const ThresholdsBody = Type.Object(ThresholdFields);
export const PutThresholdsBody = Type.Partial(Type.Object(ThresholdFields), { additionalProperties: false });
