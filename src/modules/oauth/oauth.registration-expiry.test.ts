import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createOnboardedUser, createTestStore, startTestApp, type OnboardedUser, type TestApp } from '../../../test/helpers.js';
import { openStore } from '../../db/database.js';
import { allMigrations, migratorFor } from '../../db/migrate.js';
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

describe('upgrading a database whose registrations never expired', () => {
  it('gives the registrations no agent came from, and every registration access token, a day', async () => {
    const testStore = await createTestStore();
    const store = openStore({ databaseUrl: testStore.config.databaseUrl, sqliteFile: path.join(testStore.config.dataDir, 'wallet.sqlite') });
    try {
      const migrator = (upTo: string) => migratorFor(store, Object.fromEntries(Object.entries(allMigrations).filter(([name]) => name <= upTo)));
      await (await migrator('0024_zzz')).migrateToLatest();
      const at = '2026-11-20T15:00:00.000Z';
      const db = store.db;
      await db.insertInto('users').values({ id: 'usr_a', email: 'a@example.com', name: 'Ana', password_hash: 'x', created_at: at }).execute();
      await db
        .insertInto('api_keys')
        .values({
          id: 'key_a', user_id: 'usr_a', name: 'Host', key_hash: 'h', key_prefix: 'p', created_at: at, deleted_at: null, scopes: '[]', allowlist: '[]',
          per_tx_limit: 0, daily_limit: 0, monthly_limit: 0, expires_at: null, last_used_at: null, kind: 'oauth', oauth_client_id: 'c_used', oauth_grant_id: 'g_1',
        })
        .execute();
      const record = (model: string, id: string, expires_at: number | null = null) => ({ model, id, payload: '{}', grant_id: null, uid: null, user_code: null, expires_at, consumed_at: null });
      const later = Date.now() + 3600_000;
      await db.insertInto('oauth_records').values([record('Client', 'c_used'), record('Client', 'c_unused'), record('RegistrationAccessToken', 'rat_1'), record('Grant', 'g_1', later)]).execute();

      const before = Date.now();
      await (await migrator('9999')).migrateToLatest();
      const rows = await db.selectFrom('oauth_records').select(['model', 'id', 'expires_at']).orderBy('id').execute();
      const expiry = Object.fromEntries(rows.map((r) => [r.id, r.expires_at === null ? null : Number(r.expires_at)]));
      expect(expiry.c_used).toBeNull();
      expect(expiry.g_1).toBe(later);
      for (const id of ['c_unused', 'rat_1']) {
        expect(expiry[id]).toBeGreaterThanOrEqual(before + 24 * 3600_000);
        expect(expiry[id]).toBeLessThanOrEqual(Date.now() + 24 * 3600_000);
      }
    } finally {
      await store.close();
      await testStore.drop();
    }
  });
});

