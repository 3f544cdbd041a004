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
