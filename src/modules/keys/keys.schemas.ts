import { Type } from '@sinclair/typebox';
import { Timestamp } from '../../http/schemas.js';

export const ApiKeyBody = Type.Object({
  id: Type.String({ description: '`key_…`' }),
  name: Type.String(),
  created_at: Timestamp,
});

export const NewApiKeyBody = Type.Object({
  id: Type.String({ description: '`key_…`' }),
  name: Type.String(),
  key: Type.String({ description: 'the secret, `svc_…`; shown only in this response' }),
  created_at: Timestamp,
});

export const CreateApiKeyBody = Type.Object(
  { name: Type.String({ minLength: 1, maxLength: 100, description: 'a label, e.g. the name of the agent' }) },
  { additionalProperties: false },
);
