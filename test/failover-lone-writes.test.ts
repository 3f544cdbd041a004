import { setTimeout as sleep } from 'node:timers/promises';
import { errors } from 'oidc-provider';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isStoreUnavailable } from '../src/db/store-errors.js';
import { claimInteraction, StoreAdapter } from '../src/modules/oauth/oauth.adapter.js';
import { base, via } from './failover-kit.js';
import { bearer, createOnboardedUser, createTestStore, createUser, randomCuit, startTestApp, type TestApp, type TestStore } from './helpers.js';
import { agentsOf, connectApp, form, mcp, RESOURCE, startAuthorization } from './oauth-flow.js';
import { startPgProxy, type PgProxy } from './pg-proxy.js';

/**
 * Writes that were a lone statement, whose answer a lost connection could take after the server had kept them (D42):
 * the caller was told 503 ("nothing kept") and its retry met what the first try had done. Each now runs in a
 * transaction of its own, so a connection lost before COMMIT keeps nothing and the retry goes through; a COMMIT
 * whose answer is lost is asked of the server (src/db/failover.test.ts).
 * PostgreSQL only (TEST_DATABASE_URL), as src/db/failover.test.ts.
 */
describe.runIf(base)('a lone write whose answer is lost (D42)', () => {
  let proxy: PgProxy;
  let testStore: TestStore;
  let t: TestApp;
  beforeAll(async () => {
    const u = new URL(base!);
    proxy = await startPgProxy({ host: u.hostname, port: Number(u.port || 5432) });
    testStore = await createTestStore();
    t = await startTestApp({ store: via(testStore, (u) => proxy.url(u.toString())), env: { PUBLIC_URL: 'http://localhost' } });
  });
  afterAll(async () => {
    await t.close();
    await proxy.close();
    await testStore.drop();
  });

  /** The app's token request with its refresh token, as an MCP host sends it. */
  const refreshOf = (app: { refresh_token: string; clientId: string }) =>
    t.app.inject({
      method: 'POST',
      url: '/oauth/token',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: form({ grant_type: 'refresh_token', refresh_token: app.refresh_token, client_id: app.clientId, resource: RESOURCE }),
    });

  it('onboarding: the retry opens the wallet (it answered 409 ALREADY_ONBOARDED for a wallet the owner was told failed)', async () => {
    const u = await createUser(t.app);
    const body = { legal_id: randomCuit(), legal_name: 'Ana Pérez' };
    const cut = proxy.cutNextContaining('insert into "wallets"', 'after');
    const first = await t.app.inject({ method: 'POST', url: '/v1/onboarding', headers: bearer(u.ownerToken), payload: body });
    await cut;
    expect(first.statusCode).toBe(503);
    const retry = await t.app.inject({ method: 'POST', url: '/v1/onboarding', headers: bearer(u.ownerToken), payload: body });
    expect(retry.statusCode).toBe(200);
    expect(retry.json().cvu).toMatch(/^\d{22}$/);
  });

  it("OAuth: a refresh token's use lost on the wire can be retried; it does not end the grant as a second use would", async () => {
    const tokens = new StoreAdapter(t.app.ctx.store, 'RefreshToken');
    const grants = new StoreAdapter(t.app.ctx.store, 'Grant');
    await grants.upsert('grant-lost-use', { kind: 'Grant', jti: 'grant-lost-use', accountId: 'usr_x', clientId: 'c1' }, 3600);
    await tokens.upsert('rt-lost-use', { kind: 'RefreshToken', jti: 'rt-lost-use', grantId: 'grant-lost-use' }, 3600);
    const cut = proxy.cutNextContaining('set "consumed_at"', 'after');
    expect(isStoreUnavailable(await tokens.consume('rt-lost-use').catch((e: unknown) => e))).toBe(true);
    await cut;
    await tokens.consume('rt-lost-use');
    expect(await grants.find('grant-lost-use')).toBeDefined();
    // A second use after that is one: the grant ends.
    await expect(tokens.consume('rt-lost-use')).rejects.toBeInstanceOf(errors.InvalidGrant);
    expect(await grants.find('grant-lost-use')).toBeUndefined();
  });

  it('OAuth: a refresh whose new tokens could not be stored answers 503, and its retry with the same refresh token gets tokens (it ended the grant)', async () => {
    const owner = await createOnboardedUser(t.app);
    const app = await connectApp(t.app, owner);
    const refresh = () => refreshOf(app);
    // The refresh token's use is stored; the new refresh token's save is lost on the wire.
    const cut = proxy.cutNextContaining('insert into "oauth_records"', 'after');
    const failed = await refresh();
    await cut;
    expect(failed.statusCode).toBe(503);
    expect(failed.json().error).toBe('temporarily_unavailable');
    // The given-back use is stored by the time the client's retry comes (Retry-After: 1).
    await new Promise((r) => setTimeout(r, 200));
    const retried = await refresh();
    expect(retried.statusCode, retried.body).toBe(200);
    expect((await mcp(t.app, retried.json().access_token)).statusCode).toBe(200);
    // Used once more, it is a second use, as before: refused, and the grant ends.
    expect((await refresh()).json().error).toBe('invalid_grant');
    expect((await mcp(t.app, retried.json().access_token)).statusCode).toBe(401);
  });

  it('OAuth: a give-back of a used refresh token that itself meets a lost connection is tried again, so the retry still gets tokens', async () => {
    const owner = await createOnboardedUser(t.app);
    const app = await connectApp(t.app, owner);
    const refresh = () => refreshOf(app);
    const cutSave = proxy.cutNextContaining('insert into "oauth_records"', 'after');
    const failed = refresh();
    await cutSave;
    // The give-back's first try is lost too (its text ends where the use's own update goes on to `and "consumed_at" is null`).
    const cutGiveBack = proxy.cutNextContaining('set "consumed_at" = $1 where "model" = $2 and "id" = $3\u0000', 'before');
    expect((await failed).statusCode).toBe(503);
    await cutGiveBack;
    await new Promise((r) => setTimeout(r, 1_000));
    const retried = await refresh();
    expect(retried.statusCode, retried.body).toBe(200);
  });

  it('OAuth: an app connecting again whose new grant cannot be stored keeps its agent as it was (503 says nothing was kept)', async () => {
    const owner = await createOnboardedUser(t.app);
    const app = await connectApp(t.app, owner, { per_tx_limit_ars: 1_000 });
    const agentLimit = async () => ((await agentsOf(t.app, owner)).find((a) => a.id === app.agent.id) as unknown as { per_tx_limit_ars: number }).per_tx_limit_ars;
    expect(await agentLimit()).toBe(1_000);
    const again = await startAuthorization(t.app, app.clientId, { scope: 'payouts:write payouts:read wallet:read transactions:read' });
    const cut = proxy.cutNextContaining('insert into "oauth_records"', 'before');
    const approved = await t.app.inject({
      method: 'POST',
      url: `/v1/oauth/interactions/${again.uid}/approve`,
      headers: { ...bearer(owner.ownerToken), cookie: again.cookie },
      payload: { per_tx_limit_ars: 99_000 },
    });
    await cut;
    expect(approved.statusCode).toBe(503);
    expect(await agentLimit()).toBe(1_000);
    // The earlier tokens still work, as that agent.
    expect((await mcp(t.app, app.access_token)).statusCode).toBe(200);
  });

  it("OAuth: an app connecting again whose consent fails after the owner lowered the agent meanwhile keeps the owner's change (the undo put back the old limit)", async () => {
    const owner = await createOnboardedUser(t.app);
    const app = await connectApp(t.app, owner, { per_tx_limit_ars: 1_000, daily_limit_ars: 10_000 });
    const agent = async () => (await agentsOf(t.app, owner)).find((a) => a.id === app.agent.id) as unknown as { per_tx_limit_ars: number; daily_limit_ars: number };
    const again = await startAuthorization(t.app, app.clientId, { scope: 'payouts:write payouts:read wallet:read transactions:read' });
    // While the consent's new grant is on its way (the agent already updated), the owner lowers the agent in
    // another tab, and is answered; then the grant's save is lost.
    let lowered = 0;
    const cut = proxy.cutNextContaining('insert into "oauth_records"', 'before', async () => {
      const patch = await t.app.inject({ method: 'PATCH', url: `/v1/api-keys/${app.agent.id}`, headers: bearer(owner.ownerToken), payload: { per_tx_limit_ars: 500 } });
      lowered = patch.statusCode;
    });
    const approved = await t.app.inject({
      method: 'POST',
      url: `/v1/oauth/interactions/${again.uid}/approve`,
      headers: { ...bearer(owner.ownerToken), cookie: again.cookie },
      payload: { per_tx_limit_ars: 99_000, daily_limit_ars: 50_000 },
    });
    await cut;
    expect(lowered).toBe(200);
    expect(approved.statusCode).toBe(503);
    // The owner's answered change holds (D31); what only the failed consent changed is put back.
    expect(await agent()).toMatchObject({ per_tx_limit_ars: 500, daily_limit_ars: 10_000 });
  });

  it("OAuth: an app connecting again whose consent fails at its last step: once the owner's retry succeeds, the app's earlier tokens end", async () => {
    const owner = await createOnboardedUser(t.app);
    const app = await connectApp(t.app, owner);
    const again = await startAuthorization(t.app, app.clientId, { scope: 'payouts:write payouts:read wallet:read transactions:read' });
    const approve = () =>
      t.app.inject({ method: 'POST', url: `/v1/oauth/interactions/${again.uid}/approve`, headers: { ...bearer(owner.ownerToken), cookie: again.cookie }, payload: {} });
    // The authorization's result is not stored: the new grant was made and named on the agent, then undone.
    const cut = proxy.cutNextContaining('"result":{"login"', 'before');
    expect((await approve()).statusCode).toBe(503);
    await cut;
    expect((await mcp(t.app, app.access_token)).statusCode).toBe(200);
    const retried = await approve();
    expect(retried.statusCode, retried.body).toBe(200);
    // One agent, one set of tokens: the earlier grant's end with the step-up, as when nothing failed.
    expect((await mcp(t.app, app.access_token)).statusCode).toBe(401);
  });

  it('deposit detection whose give-back of a take is lost too: the take is given back at the next pass, and the deposit is detected, not set aside', { timeout: 60_000 }, async () => {
    // A node of its own whose waits for a lock are short.
    const n = await startTestApp({ store: via(testStore, (u) => proxy.url(u.toString())), env: { DATABASE_LOCK_TIMEOUT_MS: '300' } });
    const u = await createOnboardedUser(n.app, { fundArs: 100 }); // its funding is a deposit notice, not yet detected
    const outside = new pg.Client({ connectionString: n.config.databaseUrl });
    await outside.connect();
    try {
      await outside.query('begin');
      await outside.query('lock table wallets in access exclusive mode');
      for (let i = 0; i < 6; i++) {
        // Each pass takes the notice, cannot find its wallet, and loses the statement that gives the take back.
        const pass = n.app.jobs.depositDetection!.runOnce().catch(() => undefined);
        await sleep(100); // taken by now; finding the wallet waits for the lock
        const cut = proxy.cutNextContaining('"attempts" = "attempts" -', 'before');
        await pass;
        await Promise.race([cut, sleep(2_000)]);
        n.clock.advance(61_000);
      }
      await outside.query('rollback');
      await n.app.jobs.depositDetection!.runOnce();
      const detected = await n.app.ctx.store.db.selectFrom('events').select('id').where('user_id', '=', u.id).where('type', '=', 'deposit.detected').execute();
      expect(detected).toHaveLength(1);
    } finally {
      await outside.query('rollback').catch(() => undefined);
      await outside.end();
      await n.close();
    }
  });

  it("OAuth: the owner's consent claimed on a lost connection can be decided again (it answered 409 for nothing decided)", async () => {
    const interactions = new StoreAdapter(t.app.ctx.store, 'Interaction');
    await interactions.upsert('int-lost-claim', { kind: 'Interaction', jti: 'int-lost-claim', uid: 'int-lost-claim' }, 600);
    const cut = proxy.cutNextContaining('set "consumed_at"', 'after');
    expect(isStoreUnavailable(await claimInteraction(t.app.ctx.store, 'int-lost-claim').catch((e: unknown) => e))).toBe(true);
    await cut;
    expect(await claimInteraction(t.app.ctx.store, 'int-lost-claim')).toBe(true);
    expect(await claimInteraction(t.app.ctx.store, 'int-lost-claim')).toBe(false);
  });
});
