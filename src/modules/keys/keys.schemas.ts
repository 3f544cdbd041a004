import { Type } from '@sinclair/typebox';
import { OwnerText } from '../../http/owner-text.js';
import { StringEnum, Timestamp } from '../../http/schemas.js';
import { SCOPES } from './key-controls.js';

const Scope = StringEnum(SCOPES);
const Limit = (what: string) =>
  Type.Number({ minimum: 0, maximum: 1e12, description: `${what} for this key alone, in ARS; 0 = no key limit (the user's limits still apply)` });

/** D31: what the owner may set on a key, at creation or later. */
const ControlFields = {
  scopes: Type.Array(Scope, { maxItems: SCOPES.length, description: 'What the key may do; omitted at creation = every scope' }),
  allowlist: Type.Array(Type.String({ minLength: 1, maxLength: 64 }), {
    maxItems: 100,
    description: 'Destinations (CBU, CVU or alias) this key may pay; empty = any',
  }),
  per_tx_limit_ars: Limit('Largest single payout'),
  daily_limit_ars: Limit('Daily total (Buenos Aires day)'),
  monthly_limit_ars: Limit('Monthly total (Buenos Aires month)'),
  expires_at: Type.Union([Timestamp, Type.Null()], { description: 'After this instant the key and its tokens stop working; null = never' }),
};

export const ApiKeyBody = Type.Object({
  id: Type.String({ description: '`key_…`' }),
  name: Type.String(),
  kind: Type.Union([Type.Literal('key'), Type.Literal('oauth')], {
    description: '`key`: an API key (`svc_…`); `oauth`: an app the owner connected by OAuth, acting through its tokens',
  }),
  created_at: Timestamp,
  last_used_at: Type.Union([Timestamp, Type.Null()], { description: 'Last use, to the minute' }),
  ...ControlFields,
});

export const NewApiKeyBody = Type.Object({
  ...ApiKeyBody.properties,
  key: Type.String({ description: 'the secret, `svc_…`; shown only in this response' }),
});

export const CreateApiKeyBody = Type.Object(
  {
    name: OwnerText({ minLength: 1, maxLength: 100, description: 'a label, e.g. the name of the agent' }),
    ...Object.fromEntries(Object.entries(ControlFields).map(([k, v]) => [k, Type.Optional(v)])),
  },
  { additionalProperties: false },
);

export const UpdateApiKeyBody = Type.Object(
  {
    name: Type.Optional(OwnerText({ minLength: 1, maxLength: 100 })),
    ...Object.fromEntries(Object.entries(ControlFields).map(([k, v]) => [k, Type.Optional(v)])),
  },
  { additionalProperties: false, minProperties: 1 },
);
