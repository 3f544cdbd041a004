import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { bearer, createOnboardedUser, EXTERNAL_CBU, expectError, startTestApp, type OnboardedUser, type TestApp } from '../../../test/helpers.js';
import { connectApp, finishAuthorization, form, mcp, ORIGIN, REDIRECT, register, RESOURCE, startAuthorization } from '../../../test/oauth-flow.js';

/**
 * D44, attacked from the host's side: codes, refresh tokens, PKCE, clients and tokens used where they do not belong.
 * Everything through the real HTTP surface and store.
 */
describe('OAuth: what a hostile host or a stolen credential cannot do', () => {
  let t: TestApp;
  let owner: OnboardedUser;
  let other: OnboardedUser;

  beforeAll(async () => {
    t = await startTestApp({ env: { PUBLIC_URL: ORIGIN } });
    owner = await createOnboardedUser(t.app, { fundArs: 10_000 });
    other = await createOnboardedUser(t.app, { name: 'Other Owner', fundArs: 10_000 });
  });
  afterAll(async () => t.close());

  const token = (body: Record<string, string>) =>
    t.app.inject({ method: 'POST', url: '/oauth/token', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: form(body) });
  const refresh = (a: { refresh_token: string; clientId: string }, extra: Record<string, string> = {}) =>
    token({ grant_type: 'refresh_token', refresh_token: a.refresh_token, client_id: a.clientId, resource: RESOURCE, ...extra });

  /** The owner approves; the browser comes back for the code. The code is not exchanged yet. */
  async function codeFor(o: OnboardedUser, clientId: string, controls: Record<string, unknown> = {}) {
    const started = await startAuthorization(t.app, clientId);
    const approved = await t.app.inject({ method: 'POST', url: `/v1/oauth/interactions/${started.uid}/approve`, headers: { ...bearer(o.ownerToken), cookie: started.cookie }, payload: controls });
    expect(approved.statusCode, approved.body).toBe(200);
    const resumed = await t.app.inject({ url: new URL(approved.json().redirect_to).pathname, headers: { cookie: started.cookie } });
    const location = new URL(resumed.headers.location as string);
    expect(location.searchParams.get('state')).toBe('st4te');
    const code = location.searchParams.get('code')!;
    expect(code).toBeTruthy();
    return { code, verifier: started.verifier, body: { grant_type: 'authorization_code', code, redirect_uri: REDIRECT, client_id: clientId, code_verifier: started.verifier, resource: RESOURCE } };
  }

  it('a code is refused with a wrong, missing or plain verifier, another redirect_uri or another client; it still works after', async () => {
    const clientId = await register(t.app);
    const intruder = await register(t.app, 'Intruder');
    const { body } = await codeFor(owner, clientId);
    const refused = [
      { ...body, code_verifier: 'x'.repeat(43) },
      { ...body, code_verifier: '' },
      { ...body, redirect_uri: 'http://127.0.0.1:7777/other' },
      { ...body, client_id: intruder },
    ];
    for (const bad of refused) {
      const res = await token(bad);
      expect(res.statusCode, JSON.stringify(bad)).toBe(400);
      expect(['invalid_grant', 'invalid_request']).toContain(res.json().error);
      expect(res.json().access_token).toBeUndefined();
    }
    const { code_verifier: _v, ...noVerifier } = body;
    const missing = await token(noVerifier);
    expect(missing.statusCode).toBe(400);
    const ok = await token(body);
    expect(ok.statusCode, ok.body).toBe(200);
  });

  it('a used refresh token replayed is refused and ends the whole family', async () => {
    const app = await connectApp(t.app, owner);
    const first = await refresh(app);
    expect(first.statusCode, first.body).toBe(200);
    const rotated = first.json() as { access_token: string; refresh_token: string };
    expect((await mcp(t.app, rotated.access_token)).statusCode).toBe(200);
    const replay = await refresh(app);
    expect(replay.statusCode).toBe(400);
    expect(replay.json().error).toBe('invalid_grant');
    // The thief or the host: whichever holds the rotated tokens loses them too.
    expect((await mcp(t.app, rotated.access_token)).statusCode).toBe(401);
    expect((await refresh({ refresh_token: rotated.refresh_token, clientId: app.clientId })).statusCode).toBe(400);
  });

  it('a refresh cannot widen the scope', async () => {
    const app = await connectApp(t.app, owner, { scopes: ['payouts:read'] });
    const wider = await refresh(app, { scope: 'payouts:read payouts:write' });
    expect(wider.statusCode).toBe(400);
    expect(wider.json().error).toBe('invalid_scope');
    const wallet = await refresh(app, { scope: 'wallet:read' });
    expect(wallet.statusCode).toBe(400);
    // Refused requests did not rotate it: the refresh token still works, with what was granted.
    const same = await refresh(app);
    expect(same.statusCode, same.body).toBe(200);
    expect(same.json().scope).toBe('payouts:read');
    const paid = await mcp(t.app, same.json().access_token, 'tools/call', {
      name: 'request_payout',
      arguments: { amount_ars: 10, destination: EXTERNAL_CBU, idempotency_key: 'adv-wider' },
    });
    expect(paid.statusCode).toBe(403);
  });

  it('a token does no more than its own scope, though its agent may do more: narrowed at refresh, or asked narrower than granted', async () => {
    const payout = (key: string) => ({ name: 'request_payout', arguments: { amount_ars: 10, destination: EXTERNAL_CBU, idempotency_key: key } });
    const paidWith = async (key: string) =>
      (await t.app.ctx.store.db.selectFrom('payouts').select('id').where('user_id', '=', owner.id).where('idempotency_key', '=', key).execute()).length;

    // The host narrows a token to wallet:read (say, for a helper it trusts less): the token says so, and /mcp holds it to that.
    const app = await connectApp(t.app, owner, { scopes: ['payouts:read', 'payouts:write', 'wallet:read'] });
    const narrowed = await refresh(app, { scope: 'wallet:read' });
    expect(narrowed.statusCode, narrowed.body).toBe(200);
    expect(narrowed.json().scope).toBe('wallet:read');
    const reader = narrowed.json().access_token as string;
    const tools = (await mcp(t.app, reader)).json().result.tools.map((x: { name: string }) => x.name).sort();
    expect(tools).toEqual(['get_balance', 'get_cvu', 'list_recent_deposits']);
    const refused = await mcp(t.app, reader, 'tools/call', payout('adv-narrowed'));
    expectError(refused, 403, 'INSUFFICIENT_SCOPE');
    expect(refused.headers['www-authenticate']).toContain('scope="payouts:write wallet:read"');
    expect(await paidWith('adv-narrowed')).toBe(0);
    expect((await mcp(t.app, reader, 'tools/call', { name: 'get_balance', arguments: {} })).json().result.isError).toBeFalsy();

    // The host asked for wallet:read only and the owner ticked payouts:write too: the token it got is for wallet:read.
    const clientId = await register(t.app);
    const asked = await finishAuthorization(t.app, owner, clientId, await startAuthorization(t.app, clientId, { scope: 'wallet:read' }), {
      scopes: ['wallet:read', 'payouts:write'],
    });
    expect(asked.scope).toBe('wallet:read');
    expectError(await mcp(t.app, asked.access_token, 'tools/call', payout('adv-asked')), 403, 'INSUFFICIENT_SCOPE');
    expect(await paidWith('adv-asked')).toBe(0);
  });

  it('a refresh token is not an access token, and another client cannot use it', async () => {
    const app = await connectApp(t.app, owner);
    expect((await mcp(t.app, app.refresh_token)).statusCode).toBe(401);
    const intruder = await register(t.app, 'Intruder');
    const stolen = await refresh({ refresh_token: app.refresh_token, clientId: intruder });
    expect(stolen.statusCode).toBe(400);
    expect(stolen.json().error).toBe('invalid_grant');
    // An access token is no refresh token either.
    expect((await refresh({ refresh_token: app.access_token, clientId: app.clientId })).statusCode).toBe(400);
    expect((await refresh(app)).statusCode).toBe(200);
  });

  it('an OAuth token is refused on REST, even on routes its scopes name', async () => {
    const app = await connectApp(t.app, owner, { scopes: ['payouts:read', 'payouts:write', 'wallet:read'] });
    expectError(await t.app.inject({ url: '/v1/withdraws', headers: bearer(app.access_token) }), 401, 'INVALID_TOKEN');
    expectError(
      await t.app.inject({ method: 'POST', url: '/v1/withdraws', headers: { ...bearer(app.access_token), 'idempotency-key': 'adv-rest' }, payload: { amount_ars: 10, destination: EXTERNAL_CBU } }),
      401,
      'INVALID_TOKEN',
    );
    expectError(await t.app.inject({ url: '/v1/api-keys', headers: bearer(app.access_token) }), 401, 'INVALID_TOKEN');
    // Nor can it buy a REST session with itself.
    const exchanged = await t.app.inject({ method: 'POST', url: '/v1/auth/token', payload: { api_key: app.access_token } });
    expect(exchanged.statusCode).toBeGreaterThanOrEqual(400);
  });

  it("a token of owner A reads and acts on nothing of owner B's: payouts, receipts", async () => {
    const mine = await connectApp(t.app, owner, { scopes: ['payouts:read', 'payouts:write'] });
    const theirs = await connectApp(t.app, other, { scopes: ['payouts:read', 'payouts:write'] });
    const paid = await mcp(t.app, theirs.access_token, 'tools/call', {
      name: 'request_payout',
      arguments: { amount_ars: 10, destination: EXTERNAL_CBU, idempotency_key: 'adv-cross' },
    });
    const theirPayout = paid.json().result.structuredContent.id as string;
    expect(theirPayout).toMatch(/^wd_/);
    for (const name of ['get_payout', 'get_receipt']) {
      const res = await mcp(t.app, mine.access_token, 'tools/call', { name, arguments: { payout_id: theirPayout } });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().result.isError, res.body).toBe(true);
      expect(JSON.parse(res.json().result.content[0].text).error, res.body).toBe('NOT_FOUND');
      expect(res.body).not.toContain(EXTERNAL_CBU);
    }
    const list = await mcp(t.app, mine.access_token, 'tools/call', { name: 'list_payouts', arguments: {} });
    expect(list.body).not.toContain(theirPayout);
    // The same idempotency key in A's namespace is a new payout of A, not B's answered back.
    const same = await mcp(t.app, mine.access_token, 'tools/call', {
      name: 'request_payout',
      arguments: { amount_ars: 10, destination: EXTERNAL_CBU, idempotency_key: 'adv-cross' },
    });
    expect(same.json().result.structuredContent.id).not.toBe(theirPayout);
  });

  it('revoking a token at /oauth/revoke ends it; another client cannot revoke it', async () => {
    const app = await connectApp(t.app, owner);
    const intruder = await register(t.app, 'Intruder');
    const revoke = (clientId: string, tok: string) =>
      t.app.inject({ method: 'POST', url: '/oauth/revoke', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: form({ token: tok, client_id: clientId }) });
    await revoke(intruder, app.access_token);
    expect((await mcp(t.app, app.access_token)).statusCode).toBe(200);
    const res = await revoke(app.clientId, app.access_token);
    expect(res.statusCode).toBe(200);
    expect((await mcp(t.app, app.access_token)).statusCode).toBe(401);
  });

  it('an authorization asking another resource, or no PKCE, never reaches the owner', async () => {
    const clientId = await register(t.app);
    for (const extra of <Record<string, string>[]>[{ resource: `${ORIGIN}/v1` }, { resource: `${ORIGIN}/mcp/` }, { code_challenge: '' }]) {
      const started = await startAuthorization(t.app, clientId, extra);
      expect(started.uid, JSON.stringify(extra)).toBeUndefined();
    }
  });

  it('an approval is bound to the owner who gave it: the token acts only on that owner', async () => {
    const clientId = await register(t.app);
    const started = await startAuthorization(t.app, clientId);
    const done = await finishAuthorization(t.app, other, clientId, started, { scopes: ['wallet:read'] });
    const bal = await mcp(t.app, done.access_token, 'tools/call', { name: 'get_balance', arguments: {} });
    const mine = await t.app.inject({ url: '/v1/balance', headers: bearer(other.agentToken) });
    expect(bal.json().result.structuredContent.available).toBe(mine.json().available);
  });

  it('an access token past its hour is refused at /mcp; its refresh token still gives a new one', async () => {
    const app = await connectApp(t.app, owner);
    expect((await mcp(t.app, app.access_token)).statusCode).toBe(200);
    // The library's clock is the wall clock (oauth.adapter.ts): move it, and only it.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 3_601_000 });
    try {
      const late = await mcp(t.app, app.access_token);
      expect(late.statusCode).toBe(401);
      expect(late.headers['www-authenticate']).toContain('error="invalid_token"');
      const renewed = await refresh(app);
      expect(renewed.statusCode, renewed.body).toBe(200);
      expect((await mcp(t.app, renewed.json().access_token)).statusCode).toBe(200);
    } finally {
      vi.useRealTimers();
    }
  });

  it('only an owner session decides a consent: not a raw key, nor an OAuth token', async () => {
    const app = await connectApp(t.app, owner);
    const clientId = await register(t.app);
    const { uid, cookie } = await startAuthorization(t.app, clientId);
    for (const credential of [owner.apiKey, app.access_token]) {
      for (const [method, url] of [['GET', `/v1/oauth/interactions/${uid}`], ['POST', `/v1/oauth/interactions/${uid}/approve`], ['POST', `/v1/oauth/interactions/${uid}/deny`]] as const) {
        const res = await t.app.inject({ method, url, headers: { ...bearer(credential), cookie }, ...(method === 'POST' ? { payload: {} } : {}) });
        expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(401);
      }
    }
    // Still waiting for the owner.
    expect((await t.app.inject({ url: `/v1/oauth/interactions/${uid}`, headers: { ...bearer(owner.ownerToken), cookie } })).statusCode).toBe(200);
  });

  it('a browser that went through a consent once gets no code silently afterwards (prompt=none)', async () => {
    const clientId = await register(t.app);
    const first = await startAuthorization(t.app, clientId);
    const approved = await t.app.inject({ method: 'POST', url: `/v1/oauth/interactions/${first.uid}/approve`, headers: { ...bearer(owner.ownerToken), cookie: first.cookie }, payload: {} });
    const resumed = await t.app.inject({ url: new URL(approved.json().redirect_to).pathname, headers: { cookie: first.cookie } });
    expect(new URL(resumed.headers.location as string).searchParams.get('code')).toBeTruthy();
    const jar = [first.cookie, resumed.cookies.map((c) => `${c.name}=${c.value}`).join('; ')].filter(Boolean).join('; ');
    for (const prompt of ['none', '']) {
      const query = new URLSearchParams({
        client_id: clientId,
        redirect_uri: REDIRECT,
        response_type: 'code',
        scope: 'payouts:read',
        code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
        code_challenge_method: 'S256',
        state: 's2',
        resource: RESOURCE,
        ...(prompt ? { prompt } : {}),
      });
      const again = await t.app.inject({ url: `/oauth/auth?${query.toString()}`, headers: { cookie: jar } });
      const location = again.headers.location ?? '';
      expect(location, `prompt=${prompt}`).not.toContain('code=');
    }
  });

  it('a code or refresh token cannot be turned into a token for another resource', async () => {
    const clientId = await register(t.app);
    const { body } = await codeFor(owner, clientId);
    const elsewhere = await token({ ...body, resource: 'https://other.example/api' });
    expect(elsewhere.statusCode).toBe(400);
    expect(elsewhere.json().error).toBe('invalid_target');
    // The library marks the code used before it looks at the resource: that code is spent (the host asks again).
    expect((await token(body)).json().access_token).toBeUndefined();
    const app = await connectApp(t.app, owner);
    const refreshed = await refresh(app, { resource: `${ORIGIN}/v1` });
    expect(refreshed.statusCode).toBe(400);
    expect(refreshed.json().access_token).toBeUndefined();
  });

  it('/mcp takes the token from the Authorization header only, never from the query or the body', async () => {
    const app = await connectApp(t.app, owner);
    const query = await t.app.inject({
      method: 'POST',
      url: `/mcp?access_token=${app.access_token}`,
      headers: { accept: 'application/json, text/event-stream', 'content-type': 'application/json' },
      payload: { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} },
    });
    expect(query.statusCode).toBe(401);
    const body = await t.app.inject({
      method: 'POST',
      url: '/mcp',
      headers: { accept: 'application/json, text/event-stream', 'content-type': 'application/x-www-form-urlencoded' },
      payload: form({ access_token: app.access_token }),
    });
    expect(body.statusCode).toBe(401);
  });

  it('an agent revoked between the approval and the browser\'s return gets no tokens', async () => {
    const clientId = await register(t.app);
    const started = await startAuthorization(t.app, clientId);
    const approved = await t.app.inject({ method: 'POST', url: `/v1/oauth/interactions/${started.uid}/approve`, headers: { ...bearer(owner.ownerToken), cookie: started.cookie }, payload: {} });
    expect(approved.statusCode, approved.body).toBe(200);
    expect((await t.app.inject({ method: 'DELETE', url: `/v1/api-keys/${approved.json().agent.id}`, headers: bearer(owner.ownerToken) })).statusCode).toBe(204);
    const resumed = await t.app.inject({ url: new URL(approved.json().redirect_to).pathname, headers: { cookie: started.cookie } });
    const location = resumed.headers.location ? new URL(resumed.headers.location as string, ORIGIN) : null;
    const code = location?.searchParams.get('code');
    if (code) {
      const tokens = await token({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT, client_id: clientId, code_verifier: started.verifier, resource: RESOURCE });
      expect(tokens.statusCode, tokens.body).toBe(400);
    }
  });
});
