import { afterEach, describe, expect, it } from 'vitest';
import { bearer, createOnboardedUser, createUser, EXTERNAL_CBU, expectError, startTestApp, withdraw, type TestApp } from '../../../test/helpers.js';

async function keysOf(t: TestApp, userId: string) {
  return t.app.ctx.store.db.selectFrom('idempotency_keys').select(['key_hash', 'state', 'payout_id']).where('user_id', '=', userId).execute();
}

/**
 * A key is claimed only with the attempt it creates, in the decision's transaction: a request that ends without an
 * attempt must leave the key as it found it (D18), even with others racing on the same key.
 */
describe('idempotency claims of requests that create nothing', () => {
  let t: TestApp;
  afterEach(async () => {
    await t?.close();
  });

  it('parallel requests with one key from a user with no wallet: all 422, no key left', async () => {
    t = await startTestApp();
    const u = await createUser(t.app);
    const rs = await Promise.all(Array.from({ length: 10 }, () => withdraw(t.app, u.agentToken, { amount_ars: 1, destination: EXTERNAL_CBU }, 'nw')));
    for (const r of rs) expectError(r, 422, 'ONBOARDING_INCOMPLETE');
    expect(await keysOf(t, u.id)).toEqual([]);
  });

  it('parallel denied requests with one key: all denied, no key left; the fixed request then goes through', async () => {
    t = await startTestApp();
    const u = await createOnboardedUser(t.app, { fundArs: 100 });
    await t.app.inject({ method: 'POST', url: '/v1/sandbox/kyc', headers: bearer(u.ownerToken), payload: { status: 'pending' } });
    const rs = await Promise.all(Array.from({ length: 10 }, () => withdraw(t.app, u.agentToken, { amount_ars: 5, destination: EXTERNAL_CBU }, 'dn')));
    for (const r of rs) expectError(r, 422, 'PAYOUT_DENIED');
    expect(await keysOf(t, u.id)).toEqual([]);
    await t.app.inject({ method: 'POST', url: '/v1/sandbox/kyc', headers: bearer(u.ownerToken), payload: { status: 'verified' } });
    expect((await withdraw(t.app, u.agentToken, { amount_ars: 5, destination: EXTERNAL_CBU }, 'dn')).statusCode).toBe(201);
    expect(await keysOf(t, u.id)).toHaveLength(1);
  });

  it('parallel requests with one key and no approval channel: all 503, no key left', async () => {
    t = await startTestApp({ env: { APPROVAL_CHANNELS: '' } });
    const u = await createOnboardedUser(t.app, { fundArs: 100_000 });
    const rs = await Promise.all(Array.from({ length: 10 }, () => withdraw(t.app, u.agentToken, { amount_ars: 60_000, destination: EXTERNAL_CBU }, 'nc')));
    for (const r of rs) expectError(r, 503, 'APPROVAL_NOT_CONFIGURED');
    expect(await keysOf(t, u.id)).toEqual([]);
  });

  it('parallel requests with one key, some denied (too large) and some allowed: one attempt, the key is its own', async () => {
    t = await startTestApp();
    const u = await createOnboardedUser(t.app, { fundArs: 1000 });
    const rs = await Promise.all(
      Array.from({ length: 12 }, (_, i) => withdraw(t.app, u.agentToken, { amount_ars: i % 2 ? 10 : 10_000_000, destination: EXTERNAL_CBU }, 'mx')),
    );
    const created = rs.filter((r) => r.statusCode === 201 && r.headers['idempotent-replayed'] === undefined);
    expect(created).toHaveLength(1);
    const payouts = await t.app.ctx.store.db.selectFrom('payouts').select('id').where('user_id', '=', u.id).execute();
    expect(payouts).toHaveLength(1);
    const keys = await keysOf(t, u.id);
    expect(keys).toHaveLength(1);
    expect(keys[0]!.payout_id).toBe(payouts[0]!.id);
  });
});

/**
 * D18: a request that reuses a key already taken by an attempt answers from the key (409 while in flight, else the
 * replay), even when the attempt it duplicates changed what the policy would now say (its amount counts against the
 * limits). It must never answer an error that says nothing was created.
 */
describe('duplicates of a request that created an attempt', () => {
  let t: TestApp;
  afterEach(async () => {
    await t?.close();
  });

  const expectOnlyTheFirst = async (rs: Awaited<ReturnType<typeof withdraw>>[], userId: string) => {
    const payouts = await t.app.ctx.store.db.selectFrom('payouts').select('id').where('user_id', '=', userId).execute();
    expect(payouts).toHaveLength(1);
    for (const r of rs) {
      if (r.statusCode === 409) expectError(r, 409, 'IDEMPOTENCY_KEY_IN_USE');
      else expect([r.statusCode, r.json().id]).toEqual([201, payouts[0]!.id]);
    }
    const refused = await t.app.ctx.store.db
      .selectFrom('audit_log')
      .select('action')
      .where('user_id', '=', userId)
      .where('action', 'in', ['payout.denied', 'payout.approval_unavailable'])
      .execute();
    expect(refused).toEqual([]);
  };

  it('parallel requests with one key whose first used up the daily limit, no approval channel: never 503', async () => {
    t = await startTestApp({ env: { APPROVAL_CHANNELS: '' } });
    const u = await createOnboardedUser(t.app, { fundArs: 1000 });
    await t.app.inject({
      method: 'PUT',
      url: '/v1/thresholds',
      headers: bearer(u.ownerToken),
      payload: { per_tx_limit_ars: 0, daily_limit_ars: 150, monthly_limit_ars: 0, require_approval_above_ars: 0 },
    });
    const rs = await Promise.all(Array.from({ length: 20 }, () => withdraw(t.app, u.agentToken, { amount_ars: 100, destination: EXTERNAL_CBU }, 'lim')));
    await expectOnlyTheFirst(rs, u.id);
  });

});
