import { createHash, randomBytes } from 'node:crypto';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { bearer, type OnboardedUser } from './helpers.js';

/**
 * A host's side of the OAuth flow (D44), over HTTP and without a browser: the owner's consent goes through the
 * dashboard's REST calls. The apps under test run with PUBLIC_URL=ORIGIN.
 */
export const ORIGIN = 'http://localhost';
export const RESOURCE = `${ORIGIN}/mcp`;
export const REDIRECT = 'http://127.0.0.1:7777/callback';

export const form = (o: Record<string, string>) => new URLSearchParams(o).toString();
export const pkce = () => {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
};
/** The browser's cookie jar, reduced to what the flow needs. */
export const cookiesOf = (res: LightMyRequestResponse) => res.cookies.map((c) => `${c.name}=${c.value}`).join('; ');

export async function register(app: FastifyInstance, name = 'Claude Test Host'): Promise<string> {
  const res = await app.inject({
    method: 'POST',
    url: '/oauth/register',
    // Hosts register with the scopes the resource's metadata lists (the MCP SDK does).
    payload: { client_name: name, scope: 'payouts:write payouts:read wallet:read transfer:write transactions:read thresholds:read thresholds:propose', redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none', grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'] },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().client_id;
}

export async function startAuthorization(app: FastifyInstance, clientId: string, extra: Record<string, string> = {}) {
  const { verifier, challenge } = pkce();
  const query = form({
    client_id: clientId,
    redirect_uri: REDIRECT,
    response_type: 'code',
    scope: 'payouts:write payouts:read wallet:read',
    code_challenge: challenge,
    code_challenge_method: 'S256',
    state: 'st4te',
    resource: RESOURCE,
    ...extra,
  });
  const res = await app.inject({ method: 'GET', url: `/oauth/auth?${query}` });
  return { res, verifier, cookie: cookiesOf(res), uid: /^\/connect\/([^/?]+)$/.exec(res.headers.location ?? '')?.[1] };
}

/** The owner's approval, then the browser's return to the server and the code's exchange for tokens. */
export async function finishAuthorization(
  app: FastifyInstance,
  owner: OnboardedUser,
  clientId: string,
  started: { verifier: string; cookie: string; uid?: string },
  controls: Record<string, unknown> = {},
  redirectUri = REDIRECT,
) {
  expect(started.uid).toBeTruthy();
  // The owner decides in the browser the authorization sent to the consent page: its cookies go along.
  const approved = await app.inject({ method: 'POST', url: `/v1/oauth/interactions/${started.uid}/approve`, headers: { ...bearer(owner.ownerToken), cookie: started.cookie }, payload: controls });
  expect(approved.statusCode, approved.body).toBe(200);
  const resumed = await app.inject({ method: 'GET', url: new URL(approved.json().redirect_to).pathname, headers: { cookie: started.cookie } });
  const location = new URL(resumed.headers.location as string);
  expect(`${location.origin}${location.pathname}`).toBe(redirectUri);
  const code = location.searchParams.get('code')!;
  expect(code, resumed.headers.location as string).toBeTruthy();
  const tokenBody = { grant_type: 'authorization_code', code, redirect_uri: redirectUri, client_id: clientId, code_verifier: started.verifier, resource: RESOURCE };
  const token = await app.inject({ method: 'POST', url: '/oauth/token', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: form(tokenBody) });
  expect(token.statusCode, token.body).toBe(200);
  return { clientId, code, tokenBody, agent: approved.json().agent, ...(token.json() as { access_token: string; refresh_token: string; scope: string }) };
}

/** Registration, consent by the owner with `controls`, the code, the tokens. */
export async function connectApp(app: FastifyInstance, owner: OnboardedUser, controls: Record<string, unknown> = {}) {
  const clientId = await register(app);
  return finishAuthorization(app, owner, clientId, await startAuthorization(app, clientId), controls);
}

export const mcp = (app: FastifyInstance, token: string, method = 'tools/list', params: Record<string, unknown> = {}) =>
  app.inject({
    method: 'POST',
    url: '/mcp',
    headers: { ...bearer(token), accept: 'application/json, text/event-stream', 'content-type': 'application/json' },
    payload: { jsonrpc: '2.0', id: 1, method, params },
  });

/** The owner's agents (api keys), live ones only. */
export const agentsOf = async (app: FastifyInstance, owner: OnboardedUser) =>
  (await app.inject({ url: '/v1/api-keys', headers: bearer(owner.ownerToken) })).json().api_keys as { id: string; kind: string; name: string }[];
