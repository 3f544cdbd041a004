import { Type } from '@sinclair/typebox';
import { Timestamp } from '../../http/schemas.js';
import { ApiKeyBody, CreateApiKeyBody } from '../keys/keys.schemas.js';

export const InteractionParams = Type.Object({ uid: Type.String({ minLength: 1, maxLength: 64, description: 'the authorization waiting for consent' }) });

export const InteractionBody = Type.Object({
  uid: Type.String(),
  client: Type.Object({
    client_id: Type.String({ description: 'registered dynamically, or the URL of its metadata document' }),
    client_name: Type.Union([Type.String(), Type.Null()]),
    client_uri: Type.Union([Type.String(), Type.Null()]),
    logo_uri: Type.Union([Type.String(), Type.Null()]),
  }),
  redirect_uri: Type.String({ description: 'where the answer goes: the app receives the code there' }),
  requested_scopes: Type.Array(Type.String(), { description: 'what the app asked for; the owner may grant fewer' }),
  resource: Type.String({ description: 'the MCP endpoint the tokens are for' }),
  expires_at: Timestamp,
  agent: Type.Union([ApiKeyBody, Type.Null()], {
    description: 'the live agent this app already is for this owner, which approving updates (null when it is not connected yet)',
  }),
});

/** The same controls as creating a key (name optional: the app's own name by default). */
export const ApproveBody = Type.Object(
  { ...CreateApiKeyBody.properties, name: Type.Optional(CreateApiKeyBody.properties.name) },
  { additionalProperties: false },
);

export const ApprovedBody = Type.Object({
  redirect_to: Type.String({ description: 'open this in the browser that started the authorization to send the app its code' }),
  agent: ApiKeyBody,
});

export const DeniedBody = Type.Object({
  redirect_to: Type.String({ description: 'open this in the browser to tell the app it was refused' }),
});
