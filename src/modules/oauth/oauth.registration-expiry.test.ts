import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createOnboardedUser, startTestApp, type OnboardedUser, type TestApp } from '../../../test/helpers.js';
import { finishAuthorization, mcp, ORIGIN, register, startAuthorization } from '../../../test/oauth-flow.js';

/**
 * Anyone may register a client; one the owner never granted anything does not stay forever. Through the real
 * HTTP surface and store; only the library's clock (the wall clock, oauth.adapter.ts) is moved.
 */
describe('OAuth: registrations that never obtained a grant expire', () => {
  let t: TestApp;
  let owner: OnboardedUser;

  beforeAll(async () => {
    t = await startTestApp({ env: { PUBLIC_URL: ORIGIN } });
    owner = await createOnboardedUser(t.app, { fundArs: 1_000 });
  });
  afterAll(async () => t.close());

  const records = (clientId: string) =>
    t.app.ctx.store.db.selectFrom('oauth_records').select('model').where('model', 'in', ['Client']).where('id', '=', clientId).execute();

  it('a day after registering, an unused client is unknown and pruned; a granted one is kept', async () => {
    const unused = await register(t.app, 'Never Used');
    const used = await register(t.app, 'Used Host');
    const app = await finishAuthorization(t.app, owner, used, await startAuthorization(t.app, used));
    expect((await mcp(t.app, app.access_token)).statusCode).toBe(200);
    // Within the day, both are known.
    expect((await startAuthorization(t.app, unused)).uid).toBeTruthy();
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 24 * 3600 * 1000 + 1000 });
    try {
      const late = await startAuthorization(t.app, unused);
      expect(late.uid).toBeUndefined();
      expect(late.res.statusCode).toBe(400);
      expect(late.res.body).toContain('invalid_client');
      expect((await startAuthorization(t.app, used)).uid).toBeTruthy();
      await t.app.jobs.oauthPrune!.runOnce();
      expect(await records(unused)).toEqual([]);
      expect(await records(used)).toHaveLength(1);
    } finally {
      vi.useRealTimers();
    }
    // The unused host registers again, as hosts do when their client id is unknown.
    expect((await startAuthorization(t.app, await register(t.app, 'Never Used'))).uid).toBeTruthy();
  });
});
