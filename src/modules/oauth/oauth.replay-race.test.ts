import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createOnboardedUser, startTestApp, type OnboardedUser, type TestApp } from '../../../test/helpers.js';
import { connectApp, form, mcp, REDIRECT, register, RESOURCE, startAuthorization } from '../../../test/oauth-flow.js';

/**
 * D44: a code can be used once, and a refresh token once (rotation). Sent several times at once (a thief racing
 * the host, or the host retrying), only one use gives tokens; otherwise the copies become independent token
 * families that outlive the one the host keeps.
 */
describe('OAuth: a code or refresh token used at the same time twice', () => {
  let t: TestApp;
  let owner: OnboardedUser;

  beforeAll(async () => {
    t = await startTestApp({ env: { PUBLIC_URL: 'http://localhost' } });
    owner = await createOnboardedUser(t.app);
  });
  afterAll(async () => t.close());

  const token = (body: Record<string, string>) =>
    t.app.inject({ method: 'POST', url: '/oauth/token', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: form(body) });
  const summary = (answers: { statusCode: number; body: string }[]) => answers.map((a) => `${a.statusCode} ${a.body}`).join('\n');

  it('a code redeemed three times at once gives tokens once', async () => {
    const clientId = await register(t.app);
    const started = await startAuthorization(t.app, clientId);
    const approved = await t.app.inject({ method: 'POST', url: `/v1/oauth/interactions/${started.uid}/approve`, headers: { ...bearer(owner.ownerToken), cookie: started.cookie }, payload: {} });
    const resumed = await t.app.inject({ url: new URL(approved.json().redirect_to).pathname, headers: { cookie: started.cookie } });
    const code = new URL(resumed.headers.location as string).searchParams.get('code')!;
    const body = { grant_type: 'authorization_code', code, redirect_uri: REDIRECT, client_id: clientId, code_verifier: started.verifier, resource: RESOURCE };
    const answers = await Promise.all([token(body), token(body), token(body)]);
    expect(answers.filter((a) => a.statusCode === 200).length, summary(answers)).toBe(1);
    for (const lost of answers.filter((a) => a.statusCode !== 200)) expect(lost.json().error).toBe('invalid_grant');
  });

  it('a refresh token used three times at once gives tokens once', async () => {
    const app = await connectApp(t.app, owner);
    const body = { grant_type: 'refresh_token', refresh_token: app.refresh_token, client_id: app.clientId, resource: RESOURCE };
    const answers = await Promise.all([token(body), token(body), token(body)]);
    expect(answers.filter((a) => a.statusCode === 200).length, summary(answers)).toBe(1);
    for (const lost of answers.filter((a) => a.statusCode !== 200)) expect(lost.json().error).toBe('invalid_grant');
  });

  it('after a refresh token used twice at once, no token of the grant works: the winner\'s end with the family', async () => {
    for (let round = 0; round < 5; round++) {
      const app = await connectApp(t.app, owner);
      const body = { grant_type: 'refresh_token', refresh_token: app.refresh_token, client_id: app.clientId, resource: RESOURCE };
      const answers = await Promise.all([token(body), token(body)]);
      const won = answers.find((a) => a.statusCode === 200);
      if (!won) continue;
      const res = await mcp(t.app, won.json().access_token);
      expect(res.statusCode, `round ${round}`).toBe(401);
      expect((await token({ ...body, refresh_token: won.json().refresh_token })).statusCode, `round ${round}`).toBe(400);
    }
  });
});
