import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createOnboardedUser, startTestApp, type OnboardedUser, type TestApp } from '../../../test/helpers.js';
import { finishAuthorization, mcp, ORIGIN, REDIRECT, startAuthorization } from '../../../test/oauth-flow.js';
import { selfSignedCertificate } from '../../../test/tls-cert.js';
import { pinnedFetch } from './metadata-fetch.js';

/** The host's name; the tests' DNS sends it to the loopback server below, which holds a certificate for it. */
const HOST = 'host.example.test';

/**
 * D44: a host may skip registration and use a client ID metadata document: its client_id is an https URL whose
 * JSON the server fetches. The host here is a local https server with a certificate made in the test, which the
 * metadata fetch port trusts (production trusts the system's CAs only).
 */
describe('OAuth with a client ID metadata document', () => {
  const { key, cert } = selfSignedCertificate([HOST]);
  const documents = new Map<string, Record<string, unknown>>();
  const fetched: string[] = [];
  const host = https.createServer({ key, cert }, (req, res) => {
    fetched.push(req.url ?? '');
    const doc = documents.get(req.url ?? '');
    if (!doc) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'max-age=60' }).end(JSON.stringify(doc));
  });
  let base = '';
  let t: TestApp;
  let owner: OnboardedUser;

  /** A document at `path`, describing the client `https://HOST:port<path>` unless told otherwise. */
  const publish = (path: string, fields: Record<string, unknown> = {}) => {
    const clientId = `${base}${path}`;
    documents.set(path, {
      client_id: clientId,
      client_name: 'Host by metadata document',
      client_uri: `https://${HOST}/`,
      redirect_uris: [REDIRECT],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      ...fields,
    });
    return clientId;
  };

  beforeAll(async () => {
    await new Promise<void>((r) => host.listen(0, '127.0.0.1', r));
    base = `https://${HOST}:${(host.address() as AddressInfo).port}`;
    // The tests allow loopback, as WEBHOOK_ALLOW_PRIVATE_NETWORKS=true does (metadata-fetch.test.ts covers the refusal).
    const metadataFetch = pinnedFetch({ allowPrivateNetworks: true, ca: [cert], resolve: async () => [{ address: '127.0.0.1', family: 4 }] });
    t = await startTestApp({ env: { PUBLIC_URL: ORIGIN }, deps: { metadataFetch } });
    owner = await createOnboardedUser(t.app);
  });
  afterAll(async () => {
    await t?.close();
    await new Promise((r) => host.close(r));
  });

  it('a good document lets the flow go on: the owner sees the app, approves, and its tokens work at /mcp', async () => {
    const clientId = publish('/oauth/client.json');
    const started = await startAuthorization(t.app, clientId);
    expect(started.uid, started.res.body).toBeTruthy();
    expect(fetched).toContain('/oauth/client.json');
    const view = await t.app.inject({ url: `/v1/oauth/interactions/${started.uid}`, headers: { ...bearer(owner.ownerToken), cookie: started.cookie } });
    expect(view.json()).toMatchObject({ client: { client_id: clientId, client_name: 'Host by metadata document', client_uri: `https://${HOST}/` }, redirect_uri: REDIRECT });
    const app = await finishAuthorization(t.app, owner, clientId, started);
    expect(app.agent).toMatchObject({ kind: 'oauth', name: 'Host by metadata document' });
    expect((await mcp(t.app, app.access_token)).statusCode).toBe(200);
  });

  it('refuses a document whose client_id is not its own URL, on the server\'s page', async () => {
    const clientId = `${base}/oauth/impostor.json`;
    publish('/oauth/impostor.json', { client_id: `${base}/oauth/client.json` });
    const started = await startAuthorization(t.app, clientId);
    expect(started.uid).toBeUndefined();
    expect(started.res.statusCode).toBe(400);
    expect(started.res.headers.location).toBeUndefined();
    expect(started.res.body).toContain('client_id does not match');
  });

  it('refuses a redirect_uri the document does not list, never redirecting there', async () => {
    const clientId = publish('/oauth/strict.json');
    const started = await startAuthorization(t.app, clientId, { redirect_uri: 'http://127.0.0.1:7777/elsewhere' });
    expect(started.uid).toBeUndefined();
    expect(started.res.statusCode).toBe(400);
    expect(started.res.headers.location).toBeUndefined();
    expect(started.res.body).toContain('invalid_redirect_uri');
  });

  it('refuses a document listing a plain http redirect to a routable host (MCP: localhost or https only)', async () => {
    const clientId = publish('/oauth/cleartext.json', { redirect_uris: ['http://attacker.example/cb'] });
    const started = await startAuthorization(t.app, clientId, { redirect_uri: 'http://attacker.example/cb' });
    expect(started.uid).toBeUndefined();
    expect(started.res.statusCode).toBe(400);
    expect(started.res.headers.location).toBeUndefined();
  });

  it('takes no client_id URL but https: a plain http one is an unknown client, and nothing is fetched', async () => {
    const path = '/oauth/plain.json';
    const clientId = publish(path).replace('https://', 'http://');
    fetched.length = 0;
    const started = await startAuthorization(t.app, clientId);
    expect(started.uid).toBeUndefined();
    expect(started.res.statusCode).toBe(400);
    expect(started.res.headers.location).toBeUndefined();
    expect(started.res.body).toContain('<code>invalid_client</code>');
    expect(fetched).toEqual([]);
  });
});
