import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createOnboardedUser, expectError, startTestApp, type OnboardedUser, type TestApp } from '../../../test/helpers.js';
import { finishAuthorization, form, mcp, REDIRECT, register, RESOURCE, startAuthorization } from '../../../test/oauth-flow.js';

/**
 * D44: the owner's approval answers the authorization their own browser started. Someone who starts one in their
 * browser (with a host's real client id and redirect URI, so the consent page shows a trusted app) and sends the
 * /connect/<id> link to an owner must not get, in their own browser, the code of that owner's approval.
 */
describe('OAuth consent bound to the browser that asked', () => {
  let t: TestApp;
  let victim: OnboardedUser;

  beforeAll(async () => {
    t = await startTestApp({ env: { PUBLIC_URL: 'http://localhost' } });
    victim = await createOnboardedUser(t.app, { fundArs: 5_000 });
  });
  afterAll(async () => t.close());

  it("an owner approving a consent link started in someone else's browser gives that browser no code", async () => {
    const clientId = await register(t.app, 'Claude');
    // The attacker's browser starts the authorization and keeps its cookies.
    const attacker = await startAuthorization(t.app, clientId, { scope: 'payouts:read payouts:write wallet:read' });
    expect(attacker.uid).toBeTruthy();
    // The victim opens the link in their own browser (their dashboard session, none of the attacker's cookies) and approves.
    const approved = await t.app.inject({ method: 'POST', url: `/v1/oauth/interactions/${attacker.uid}/approve`, headers: bearer(victim.ownerToken), payload: {} });
    if (approved.statusCode !== 200) return; // refused: nothing for the attacker to resume
    // The attacker's browser comes back to the server with its own cookies.
    const resumed = await t.app.inject({ url: new URL(approved.json().redirect_to).pathname, headers: { cookie: attacker.cookie } });
    const code = resumed.headers.location ? new URL(resumed.headers.location as string).searchParams.get('code') : null;
    if (code) {
      const tokens = await t.app.inject({
        method: 'POST',
        url: '/oauth/token',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: form({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT, client_id: clientId, code_verifier: attacker.verifier, resource: RESOURCE }),
      });
      const balance = tokens.statusCode === 200 ? await mcp(t.app, tokens.json().access_token, 'tools/call', { name: 'get_balance', arguments: {} }) : null;
      expect.soft(balance?.json().result?.structuredContent, "the attacker's host reads the victim's wallet").toBeUndefined();
    }
    expect(code, 'the code of the victim\'s approval went to the browser that started the authorization').toBeNull();
  });

  it('the consent page in another browser shows nothing and decides nothing; the asking browser still can', async () => {
    const clientId = await register(t.app, 'Claude');
    const started = await startAuthorization(t.app, clientId);
    const elsewhere = bearer(victim.ownerToken);
    expectError(await t.app.inject({ url: `/v1/oauth/interactions/${started.uid}`, headers: elsewhere }), 404, 'NOT_FOUND');
    expectError(await t.app.inject({ method: 'POST', url: `/v1/oauth/interactions/${started.uid}/deny`, headers: elsewhere }), 404, 'NOT_FOUND');
    // A cookie of another authorization is no key to this one.
    const another = await startAuthorization(t.app, clientId);
    expectError(await t.app.inject({ method: 'POST', url: `/v1/oauth/interactions/${started.uid}/approve`, headers: { ...elsewhere, cookie: another.cookie }, payload: {} }), 404, 'NOT_FOUND');
    const done = await finishAuthorization(t.app, victim, clientId, started);
    expect((await mcp(t.app, done.access_token)).statusCode).toBe(200);
  });
});
