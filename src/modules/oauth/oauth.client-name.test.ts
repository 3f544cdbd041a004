import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createOnboardedUser, startTestApp, type OnboardedUser, type TestApp } from '../../../test/helpers.js';
import { register, startAuthorization } from '../../../test/oauth-flow.js';

/**
 * D39, D44: an app names itself at registration, and the consent page shows that name to the owner as the app asking.
 * A name that could mislead the owner (bidi controls that reorder what is shown, zero-width or control characters,
 * blank) is not shown as the app's name: the page gets no name and shows the client id, as the agent it becomes
 * is named.
 */
describe("an OAuth app's name on the consent page", () => {
  let t: TestApp;
  let owner: OnboardedUser;
  beforeAll(async () => {
    t = await startTestApp({ env: { PUBLIC_URL: 'http://localhost' } });
    owner = await createOnboardedUser(t.app);
  });
  afterAll(() => t.close());

  const view = async (name: string) => {
    const clientId = await register(t.app, name);
    const started = await startAuthorization(t.app, clientId);
    const res = await t.app.inject({ url: `/v1/oauth/interactions/${started.uid}`, headers: { ...bearer(owner.ownerToken), cookie: started.cookie } });
    expect(res.statusCode, res.body).toBe(200);
    return { clientId, client: res.json().client as { client_id: string; client_name: string | null } };
  };

  it.each([
    ['a right-to-left override', 'Claude\u202Eedualc'],
    ['an isolate', 'Claude \u2066Oficial\u2069'],
    ['a zero-width space', 'Cla\u200Bude'],
    ['a control character', 'Claude\u0007'],
    ['nothing but spaces', '   '],
  ])('a name with %s is not shown', async (_what, name) => {
    const { clientId, client } = await view(name);
    expect(client.client_id).toBe(clientId);
    expect(client.client_name).toBeNull();
  });

  it('a plain name is shown, trimmed', async () => {
    expect((await view('  Asistente de compras ')).client.client_name).toBe('Asistente de compras');
  });
});
