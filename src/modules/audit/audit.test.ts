import { CompiledQuery, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bearer,
  createOnboardedUser,
  EXTERNAL_CBU,
  expectError,
  startTestApp,
  withdraw,
  type OnboardedUser,
  type TestApp,
} from '../../../test/helpers.js';

interface Entry {
  id: string;
  action: string;
  subject_id: string | null;
  actor: 'owner' | 'agent';
  api_key_id: string | null;
  api_key_name: string | null;
  data: Record<string, unknown>;
  created_at: string;
}

describe('GET /v1/activity (the dashboard activity screen)', () => {
  let t: TestApp;
  let alice: OnboardedUser;
  let bob: OnboardedUser;
  const held: { id: string; approval_id: string }[] = [];

  beforeAll(async () => {
    t = await startTestApp();
    [alice, bob] = await Promise.all([
      createOnboardedUser(t.app, { fundArs: 1_000_000 }),
      createOnboardedUser(t.app, { fundArs: 1_000_000 }),
    ]);
    // Alice's agent asks for three payouts above the approval threshold (50 000 by default) and one denied one.
    for (const amount of [60_000, 61_000, 62_000]) {
      const res = await withdraw(t.app, alice.agentToken, { amount_ars: amount, destination: EXTERNAL_CBU });
      expect(res.statusCode).toBe(202);
      held.push(res.json());
    }
    expect((await withdraw(t.app, alice.agentToken, { amount_ars: 10_000_000, destination: EXTERNAL_CBU })).statusCode).toBe(422);
    // The owner rejects one from the dashboard; Bob's agent does something too.
    const rej = await t.app.inject({ method: 'POST', url: `/v1/approvals/${held[0]!.approval_id}/reject`, headers: bearer(alice.ownerToken) });
    expect(rej.statusCode).toBe(200);
    expect((await withdraw(t.app, bob.agentToken, { amount_ars: 70_000, destination: EXTERNAL_CBU })).statusCode).toBe(202);
  });
  afterAll(() => t.close());

  const get = (token: string, qs = '') => t.app.inject({ method: 'GET', url: `/v1/activity${qs}`, headers: bearer(token) });

  it('shows the owner who did what, newest first, with the key that asked', async () => {
    const res = await get(alice.ownerToken);
    expect(res.statusCode).toBe(200);
    const { entries, next_cursor } = res.json() as { entries: Entry[]; next_cursor: string | null };
    expect(next_cursor).toBeNull();
    expect(entries.map((e) => e.action)).toEqual(['approval.reject', 'payout.denied', 'payout.requested', 'payout.requested', 'payout.requested', 'sandbox.deposit']);
    const ids = entries.map((e) => e.id);
    expect([...ids].sort().reverse()).toEqual(ids);

    const [reject, denied, requested] = entries;
    expect(reject).toMatchObject({ actor: 'owner', api_key_id: null, api_key_name: null, subject_id: held[0]!.approval_id });
    expect(reject!.data).toMatchObject({ via: 'dashboard', kind: 'payout' });
    expect(denied).toMatchObject({ actor: 'agent', api_key_id: alice.apiKeyId, api_key_name: 'default', subject_id: null });
    expect((denied!.data as { reasons: string[] }).reasons).toContain('absolute_cap');
    expect(requested).toMatchObject({ actor: 'agent', api_key_name: 'default', subject_id: held[2]!.id });
    for (const e of entries) expect(Number.isNaN(Date.parse(e.created_at))).toBe(false);
  });

  it('pages with limit and cursor without skipping or repeating', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res = await get(alice.ownerToken, `?limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      expect(res.statusCode).toBe(200);
      const body = res.json() as { entries: Entry[]; next_cursor: string | null };
      expect(body.entries.length).toBeLessThanOrEqual(2);
      seen.push(...body.entries.map((e) => e.id));
      cursor = body.next_cursor;
      pages++;
    } while (cursor && pages < 10);
    expect(pages).toBe(3); // six entries, two a page
    const all = (await get(alice.ownerToken)).json().entries.map((e: Entry) => e.id);
    expect(seen).toEqual(all);
  });

  it("never shows another user's entries", async () => {
    const bobs = (await get(bob.ownerToken)).json().entries as Entry[];
    expect(bobs.map((e) => e.action)).toEqual(['payout.requested', 'sandbox.deposit']);
    const alices = (await get(alice.ownerToken)).json().entries as Entry[];
    expect(alices.some((e) => e.api_key_id === bob.apiKeyId)).toBe(false);
    // A cursor from another user's history reveals nothing of it either.
    const crossed = (await get(bob.ownerToken, `?cursor=${alices[0]!.id}`)).json().entries as Entry[];
    expect(crossed.every((e) => e.api_key_id !== alice.apiKeyId)).toBe(true);
  });

  it('refuses agent sessions and anonymous callers; validates the query', async () => {
    expectError(await get(alice.agentToken), 403, 'OWNER_SESSION_REQUIRED');
    expectError(await t.app.inject({ method: 'GET', url: '/v1/activity' }), 401, 'UNAUTHENTICATED');
    expectError(await get(alice.ownerToken, '?limit=0'), 400, 'INVALID_REQUEST');
    expectError(await get(alice.ownerToken, '?limit=101'), 400, 'INVALID_REQUEST');
    expectError(await get(alice.ownerToken, '?since=yesterday'), 400, 'INVALID_REQUEST');
  });

  it('pages through the (user_id, id) index, without a scan or a sort of the history', async () => {
    const db = t.app.ctx.store.db;
    const postgres = t.app.ctx.store.dialect === 'postgres';
    const q = db.selectFrom('audit_log').selectAll().where('user_id', '=', alice.id).where('id', '<', 'aud_zzz').orderBy('id', 'desc').limit(51).compile();
    const lines = await db.connection().execute(async (c) => {
      if (postgres) await sql`set enable_seqscan = off`.execute(c);
      const plan = await c.executeQuery(CompiledQuery.raw(`${postgres ? 'explain' : 'explain query plan'} ${q.sql}`, [...q.parameters]));
      if (postgres) await sql`reset enable_seqscan`.execute(c);
      return plan.rows.map((r) => String((r as Record<string, unknown>)[postgres ? 'QUERY PLAN' : 'detail']));
    });
    const text = lines.join('\n');
    expect(text).not.toMatch(postgres ? /Seq Scan/ : /^SCAN audit_log\b/m);
    if (!postgres) {
      expect(text).toContain('audit_log_user_id_idx');
      expect(text).not.toContain('TEMP B-TREE');
    }
  });
});

describe('owner actions in the activity log', () => {
  it('records key, limits, webhook and sandbox changes with who made them, and nothing for a refused change', async () => {
    const t = await startTestApp();
    try {
      const u = await createOnboardedUser(t.app);
      const owner = bearer(u.ownerToken);
      const key = (await t.app.inject({ method: 'POST', url: '/v1/api-keys', headers: owner, payload: { name: 'bot' } })).json();
      await t.app.inject({ method: 'PATCH', url: `/v1/api-keys/${key.id}`, headers: owner, payload: { daily_limit_ars: 100 } });
      await t.app.inject({ method: 'PUT', url: '/v1/thresholds', headers: owner, payload: { per_tx_limit_ars: 5 } });
      await t.app.inject({ method: 'PUT', url: '/v1/webhook', headers: owner, payload: { url: 'http://127.0.0.1:9/h', secret: 'a-secret-of-16-chars' } });
      await t.app.inject({ method: 'POST', url: '/v1/sandbox/kyc', headers: owner, payload: { status: 'verified' } });
      await t.app.inject({ method: 'DELETE', url: `/v1/api-keys/${key.id}`, headers: owner });
      // Refused changes leave no entry.
      await t.app.inject({ method: 'PUT', url: '/v1/thresholds', headers: bearer(u.agentToken), payload: { per_tx_limit_ars: 1 } });
      await t.app.inject({ method: 'PATCH', url: `/v1/api-keys/${key.id}`, headers: owner, payload: { daily_limit_ars: -1 } });
      const entries = (await t.app.inject({ method: 'GET', url: '/v1/activity', headers: owner })).json().entries as { action: string; actor: string; subject_id: string | null }[];
      const mine = entries.filter((e) => !e.action.startsWith('mcp.')).map((e) => `${e.actor} ${e.action}${e.subject_id ? ` ${e.subject_id}` : ''}`);
      expect(mine.slice(0, 6)).toEqual([
        `owner api_key.revoked ${key.id}`,
        'owner sandbox.kyc',
        'owner webhook.set',
        'owner thresholds.replaced',
        `owner api_key.updated ${key.id}`,
        `owner api_key.created ${key.id}`,
      ]);
    } finally {
      await t.close();
    }
  });
});
