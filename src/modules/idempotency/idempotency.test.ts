import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bearer,
  createOnboardedUser,
  eventTypes,
  expectError,
  EXTERNAL_CBU,
  PASSWORD,
  setThresholds,
  startTestApp,
  withdraw,
  type OnboardedUser,
  type TestApp,
} from '../../../test/helpers.js';

describe('idempotency of POST /v1/withdraws (contract rules 1-5, D18)', () => {
  let t: TestApp;
  let a: OnboardedUser;
  beforeAll(async () => {
    t = await startTestApp();
    a = await createOnboardedUser(t.app, { fundArs: 1_000_000 });
  });
  afterAll(() => t.close());

  const count = async (userId: string) =>
    (await t.app.ctx.store.db.selectFrom('payouts').select('id').where('user_id', '=', userId).execute()).length;

  it('50 parallel requests with one key create exactly one attempt and one payout.requested event', async () => {
    const u = await createOnboardedUser(t.app, { fundArs: 1000 });
    const results = await Promise.all(
      Array.from({ length: 50 }, () => withdraw(t.app, u.agentToken, { amount_ars: 10, destination: EXTERNAL_CBU }, 'same-key')),
    );
    const ok = results.filter((r) => r.statusCode === 201);
    const busy = results.filter((r) => r.statusCode === 409);
    expect(ok.length + busy.length).toBe(50);
    expect(ok.length).toBeGreaterThanOrEqual(1);
    for (const r of busy) expect(r.json().error).toBe('IDEMPOTENCY_KEY_IN_USE');
    expect(new Set(ok.map((r) => r.json().id)).size).toBe(1);
    expect(await count(u.id)).toBe(1);
    expect((await eventTypes(t.app, u.id)).filter((e) => e === 'payout.requested')).toHaveLength(1);
    expect((await t.app.inject({ method: 'GET', url: '/v1/balance', headers: bearer(u.ownerToken) })).json().available).toBe('990.00');
  });

  it('replays the stored body verbatim with Idempotent-Replayed, without re-evaluating the policy', async () => {
    const first = await withdraw(t.app, a.agentToken, { amount_ars: 60_000, destination: EXTERNAL_CBU }, 'replay-1');
    expect(first.statusCode).toBe(202);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    // Raising the limits would make a fresh evaluation "allow"; the replay must not notice.
    await setThresholds(t.app, a.ownerToken, { require_approval_above_ars: 0 });
    const again = await withdraw(t.app, a.agentToken, { amount_ars: 60_000, destination: EXTERNAL_CBU }, 'replay-1');
    expect(again.statusCode).toBe(202);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toBe(first.body);
    // Even through another session of the same user: one namespace per user.
    const created = await withdraw(t.app, a.ownerToken, { amount_ars: 60_000, destination: EXTERNAL_CBU }, 'replay-1');
    expect(created.body).toBe(first.body);
    // D27: the same key with a different request is refused, not replayed.
    const other = await withdraw(t.app, a.ownerToken, { amount_ars: 1, destination: EXTERNAL_CBU }, 'replay-1');
    expectError(other, 422, 'IDEMPOTENCY_KEY_REUSED');
    await setThresholds(t.app, a.ownerToken, { per_tx_limit_ars: 100000, daily_limit_ars: 500000, monthly_limit_ars: 2000000, require_approval_above_ars: 50000 });
  });

  it('an alias in another case is the same request: replayed, not IDEMPOTENCY_KEY_REUSED (aliases compare case-insensitively, D7)', async () => {
    const b = await createOnboardedUser(t.app);
    const first = await withdraw(t.app, a.agentToken, { amount_ars: 3, destination: b.alias.toLowerCase() }, 'alias-case');
    expect(first.statusCode).toBe(201);
    const again = await withdraw(t.app, a.agentToken, { amount_ars: 3, destination: b.alias.toUpperCase() }, 'alias-case');
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toBe(first.body);
  });

  it('the same literal key of another user is independent', async () => {
    const b = await createOnboardedUser(t.app, { fundArs: 100 });
    const ra = await withdraw(t.app, a.agentToken, { amount_ars: 5, destination: EXTERNAL_CBU }, 'shared-literal');
    const rb = await withdraw(t.app, b.agentToken, { amount_ars: 5, destination: EXTERNAL_CBU }, 'shared-literal');
    expect(ra.statusCode).toBe(201);
    expect(rb.statusCode).toBe(201);
    expect(rb.headers['idempotent-replayed']).toBeUndefined();
    expect(ra.json().id).not.toBe(rb.json().id);
  });

  it('after 24 hours the same key is new; the purge job drops expired keys', async () => {
    const first = await withdraw(t.app, a.agentToken, { amount_ars: 7, destination: EXTERNAL_CBU }, 'day-old');
    t.clock.advance(23 * 3600 * 1000);
    const replay = await withdraw(t.app, a.agentToken, { amount_ars: 7, destination: EXTERNAL_CBU }, 'day-old');
    expect(replay.headers['idempotent-replayed']).toBe('true');
    t.clock.advance(2 * 3600 * 1000); // 25 h after the first; the old JWT has expired too
    const token = (await t.app.inject({ method: 'POST', url: '/v1/auth/token', payload: { api_key: a.apiKey } })).json().token;
    a.agentToken = token;
    a.ownerToken = (await t.app.inject({ method: 'POST', url: '/v1/login', payload: { email: a.email, password: PASSWORD } })).json().token;
    const fresh = await withdraw(t.app, a.agentToken, { amount_ars: 7, destination: EXTERNAL_CBU }, 'day-old');
    expect(fresh.statusCode).toBe(201);
    expect(fresh.headers['idempotent-replayed']).toBeUndefined();
    expect(fresh.json().id).not.toBe(first.json().id);

    await withdraw(t.app, a.agentToken, { amount_ars: 1, destination: EXTERNAL_CBU }, 'to-purge');
    t.clock.advance(24 * 3600 * 1000 + 1);
    await t.app.jobs.idempotencyPurge!.runOnce();
    const left = await t.app.ctx.store.db.selectFrom('idempotency_keys').select('key_hash').where('user_id', '=', a.id).execute();
    expect(left).toEqual([]);
  });

  it('errors are not stored: a denied request can be retried with the same key once fixed', async () => {
    const u = await createOnboardedUser(t.app, { fundArs: 100 });
    await t.app.inject({ method: 'POST', url: '/v1/sandbox/kyc', headers: bearer(u.ownerToken), payload: { status: 'pending' } });
    expect((await withdraw(t.app, u.agentToken, { amount_ars: 5, destination: EXTERNAL_CBU }, 'fix-me')).statusCode).toBe(422);
    await t.app.inject({ method: 'POST', url: '/v1/sandbox/kyc', headers: bearer(u.ownerToken), payload: { status: 'verified' } });
    const ok = await withdraw(t.app, u.agentToken, { amount_ars: 5, destination: EXTERNAL_CBU }, 'fix-me');
    expect(ok.statusCode).toBe(201);
    expect(ok.headers['idempotent-replayed']).toBeUndefined();
  });
});

describe('limits under concurrency (D16)', () => {
  it('20 parallel payouts that each fit the daily limit but together exceed it: allowed ones sum to at most the limit', async () => {
    const t = await startTestApp();
    try {
      const u = await createOnboardedUser(t.app, { fundArs: 100_000 });
      await setThresholds(t.app, u.ownerToken, { per_tx_limit_ars: 0, daily_limit_ars: 1000, monthly_limit_ars: 0, require_approval_above_ars: 0 });
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, i) => withdraw(t.app, u.agentToken, { amount_ars: 150, destination: EXTERNAL_CBU }, `race-${i}`)),
      );
      const allowed = results.filter((r) => r.statusCode === 201);
      const pending = results.filter((r) => r.statusCode === 202);
      expect(allowed.length + pending.length).toBe(20);
      expect(allowed.length * 150).toBeLessThanOrEqual(1000);
      expect(allowed.length).toBe(6);
      for (const p of pending) expect(p.json().reasons).toEqual(['daily_limit']);
    } finally {
      await t.close();
    }
  });

  it('counts pending approvals against the limit, and rejected ones stop counting', async () => {
    const t = await startTestApp();
    try {
      const u = await createOnboardedUser(t.app, { fundArs: 100_000 });
      await setThresholds(t.app, u.ownerToken, { daily_limit_ars: 1000, require_approval_above_ars: 500 });
      const big = await withdraw(t.app, u.agentToken, { amount_ars: 800, destination: EXTERNAL_CBU });
      expect(big.statusCode).toBe(202);
      const small = await withdraw(t.app, u.agentToken, { amount_ars: 300, destination: EXTERNAL_CBU });
      expect(small.json().reasons).toEqual(['daily_limit']);
      await t.app.inject({ method: 'POST', url: `/v1/approvals/${big.json().approval_id}/reject`, headers: bearer(u.ownerToken) });
      await t.app.inject({ method: 'POST', url: `/v1/approvals/${small.json().approval_id}/reject`, headers: bearer(u.ownerToken) });
      expect((await withdraw(t.app, u.agentToken, { amount_ars: 300, destination: EXTERNAL_CBU })).statusCode).toBe(201);
    } finally {
      await t.close();
    }
  });
});
