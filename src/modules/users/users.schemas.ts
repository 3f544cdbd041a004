import { Type } from '@sinclair/typebox';
import { OwnerText } from '../../http/owner-text.js';
import { Timestamp } from '../../http/schemas.js';
import { NewApiKeyBody } from '../keys/keys.schemas.js';

export const CreateUserBody = Type.Object(
  {
    email: Type.String({ format: 'email', maxLength: 254 }),
    password: Type.String({ minLength: 10, maxLength: 256, description: 'at least 10 characters' }),
    name: OwnerText({ minLength: 1, maxLength: 200, description: 'how the owner is addressed' }),
  },
  { additionalProperties: false },
);

export const UserBody = Type.Object({
  id: Type.String(),
  email: Type.String(),
  name: Type.String(),
  created_at: Timestamp,
  onboarding_status: Type.Union([Type.Literal('pending'), Type.Literal('completed')]),
});

export const CreatedUserBody = Type.Intersect([UserBody, Type.Object({ default_api_key: NewApiKeyBody })]);
