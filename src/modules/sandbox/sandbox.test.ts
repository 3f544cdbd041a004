import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createOnboardedUser, expectError, startTestApp, type OnboardedUser, type TestApp } from '../../../test/helpers.js';

describe('sandbox helpers need the owner session (D28)', () => {
  let t: TestApp;
  let u: OnboardedUser;
  beforeAll(async () => {
    t = await startTestApp();
    u = await createOnboardedUser(t.app, { fundArs: 100 });
  });
  afterAll(() => t.close());

  const post = (url: string, token: string, payload: Record<string, unknown>) =>
    t.app.inject({ method: 'POST', url, headers: bearer(token), payload });
  const state = async () => ({
    balance: (await t.app.inject({ method: 'GET', url: '/v1/balance', headers: bearer(u.ownerToken) })).json(),
    deposits: (await t.app.inject({ method: 'GET', url: '/v1/deposits', headers: bearer(u.ownerToken) })).json(),
    kyc: (await t.app.ctx.store.db.selectFrom('wallets').select('kyc_status').where('user_id', '=', u.id).executeTakeFirstOrThrow()).kyc_status,
  });

  it.each([
    ['/v1/sandbox/deposits', { amount_ars: 5000 }],
    ['/v1/sandbox/crypto', { asset: 'USDT', amount: 10 }],
    ['/v1/sandbox/kyc', { status: 'rejected' }],
  ])('an agent session on %s gets 403 OWNER_SESSION_REQUIRED and nothing changes', async (url, payload) => {
    const before = await state();
    expectError(await post(url, u.agentToken, payload), 403, 'OWNER_SESSION_REQUIRED');
    expect(await state()).toEqual(before);
    expect(before.balance.available).toBe('100.00');
  });

  it('the owner session still works', async () => {
    expect((await post('/v1/sandbox/deposits', u.ownerToken, { amount_ars: 1 })).statusCode).toBe(201);
    expect((await post('/v1/sandbox/kyc', u.ownerToken, { status: 'verified' })).json()).toEqual({ kyc_status: 'verified' });
  });
});
