import { Type } from '@sinclair/typebox';
import { DestinationKindSchema } from '../payouts/payouts.schemas.js';

export const ResolveBody = Type.Object(
  {
    destination: Type.String({ minLength: 1, maxLength: 64, description: 'CBU, CVU or alias' }),
    destination_kind: Type.Optional({
      ...DestinationKindSchema,
      description: 'when omitted: 22 digits starting with 000 are a CVU, other 22 digits a CBU, anything else an alias',
    }),
  },
  { additionalProperties: false },
);

export const ResolvedDestination = Type.Object(
  {
    destination_kind: DestinationKindSchema,
    account: Type.String({ description: 'the 22-digit account (an alias resolved)' }),
    holder_name: Type.String(),
    holder_legal_id: Type.String({ description: "the holder's CUIT/CUIL, all but its last 3 digits masked (`********783`)" }),
    bank_name: Type.Union([Type.String(), Type.Null()], { description: 'the bank or provider, when known' }),
  },
  { description: 'The account behind the destination', additionalProperties: false },
);
