import { Type } from '@sinclair/typebox';
import { Timestamp } from '../../http/schemas.js';

export const ApiKeyBody = Type.Object({ id: Type.String(), name: Type.String(), created_at: Timestamp });

export const NewApiKeyBody = Type.Object({
  id: Type.String(),
  name: Type.String(),
  key: Type.String({ description: 'the secret; shown only in this response' }),
  created_at: Timestamp,
});

export const CreateApiKeyBody = Type.Object(
  { name: Type.String({ minLength: 1, maxLength: 100 }) },
  { additionalProperties: false },
);
