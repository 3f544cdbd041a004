import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createOnboardedUser, eventTypes, expectError, startTestApp, type OnboardedUser, type TestApp } from '../../../test/helpers.js';

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

  it('the owner session still works, and the activity entry says how much came in', async () => {
    const dep = await post('/v1/sandbox/deposits', u.ownerToken, { amount_ars: 1234.5 });
    expect(dep.statusCode).toBe(201);
    const entries = (await t.app.inject({ method: 'GET', url: '/v1/activity', headers: bearer(u.ownerToken) })).json().entries;
    expect(entries.find((e: { action: string }) => e.action === 'sandbox.deposit')).toMatchObject({ subject_id: dep.json().id, data: { request: { amount_ars: 1234.5 } } });
    expect((await post('/v1/sandbox/kyc', u.ownerToken, { status: 'verified' })).json()).toEqual({ kyc_status: 'verified' });
  });
});

describe('the sandbox crypto helper moves money, events and activity together', () => {
  let t: TestApp;
  let u: OnboardedUser;
  beforeAll(async () => {
    t = await startTestApp();
    u = await createOnboardedUser(t.app, { fundArs: 100 });
  });
  afterAll(() => t.close());

  const crypto = (payload: Record<string, unknown>) => t.app.inject({ method: 'POST', url: '/v1/sandbox/crypto', headers: bearer(u.ownerToken), payload });
  const state = async () => ({
    balance: (await t.app.inject({ method: 'GET', url: '/v1/balance', headers: bearer(u.ownerToken) })).json(),
    deposits: (await t.app.inject({ method: 'GET', url: '/v1/deposits', headers: bearer(u.ownerToken) })).json(),
    events: (await eventTypes(t.app, u.id)).filter((e) => e.startsWith('crypto.')),
    activity: (await t.app.inject({ method: 'GET', url: '/v1/activity', headers: bearer(u.ownerToken) })).json().entries.filter((e: { action: string }) => e.action === 'sandbox.crypto'),
  });
  /** The store refuses to write one event type, as a store that fails mid-way would: what committed before it shows. */
  const refuseEvent = async (type: string | null) => {
    const db = t.app.ctx.store.db;
    if (t.app.ctx.store.dialect === 'postgres') {
      await sql`drop trigger if exists refuse_event on events`.execute(db);
      if (!type) return;
      await sql.raw(`create or replace function refuse_event() returns trigger language plpgsql as $$ begin raise exception 'refused by the test'; end $$`).execute(db);
      await sql.raw(`create trigger refuse_event before insert on events for each row when (new.type = '${type}') execute function refuse_event()`).execute(db);
    } else {
      await sql`drop trigger if exists refuse_event`.execute(db);
      if (!type) return;
      await sql.raw(`create trigger refuse_event before insert on events when new.type = '${type}' begin select raise(abort, 'refused by the test'); end`).execute(db);
    }
  };

  it('when the off-ramp event cannot be written, no money moves and no crypto event or activity entry is kept', async () => {
    const before = await state();
    await refuseEvent('crypto.offramp.completed');
    expect((await crypto({ asset: 'USDT', amount: 10 })).statusCode).toBeGreaterThanOrEqual(500);
    await refuseEvent(null);
    expect(await state()).toEqual(before);
    expect(before.balance.available).toBe('100.00');
  });

  it('a failed off-ramp keeps both of its events or neither', async () => {
    const before = await state();
    await refuseEvent('crypto.offramp.failed');
    expect((await crypto({ asset: 'USDC', amount: 3, fail: true })).statusCode).toBeGreaterThanOrEqual(500);
    await refuseEvent(null);
    expect(await state()).toEqual(before);
  });

  it('when all goes well, the money, both events and one activity entry are there', async () => {
    const res = await crypto({ asset: 'USDT', amount: 10 });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ status: 'completed', amount_ars: '10000.00' });
    const after = await state();
    expect(after.balance.available).toBe('10100.00');
    expect(after.events).toEqual(['crypto.deposit.completed', 'crypto.offramp.completed']);
    expect(after.activity).toHaveLength(1);
    expect(after.activity[0]).toMatchObject({ subject_id: res.json().offramp_id, actor: 'owner' });
  });
});


describe('the sandbox crypto helper keeps amounts countable', () => {
  it('an off-ramp worth more than a sandbox deposit may bring is refused and moves nothing; the largest allowed is announced', async () => {
    const t = await startTestApp();
    try {
      const u = await createOnboardedUser(t.app, { fundArs: 100 });
      const crypto = (payload: Record<string, unknown>) => t.app.inject({ method: 'POST', url: '/v1/sandbox/crypto', headers: bearer(u.ownerToken), payload });
      const balance = async () => (await t.app.inject({ method: 'GET', url: '/v1/balance', headers: bearer(u.ownerToken) })).json().available;
      // 1e7 USDT at 1e7 ARS is 1e16 centavos, past the integers the service counts exactly: it was credited, and
      // its deposit.detected (and history entry) could then never be recorded.
      const res = await crypto({ asset: 'USDT', amount: 1e7, ars_rate: 1e7 });
      expectError(res, 400, 'INVALID_REQUEST');
      expect(res.json().message).toMatch(/^body\.amount: /);
      expect(await balance()).toBe('100.00');
      expect((await eventTypes(t.app, u.id)).filter((e) => e.startsWith('crypto.'))).toEqual([]);
      // The most a sandbox deposit may bring (100,000,000,000 ARS) still goes through and is announced.
      expect((await crypto({ asset: 'USDC', amount: 1e4, ars_rate: 1e7 })).json()).toMatchObject({ status: 'completed', amount_ars: '100000000000.00' });
      await t.app.jobs.depositDetection!.runOnce();
      const history = (await t.app.inject({ method: 'GET', url: '/v1/transactions', headers: bearer(u.ownerToken) })).json().transactions;
      expect(history.map((x: { amount: number }) => x.amount)).toEqual([1e11, 100]);
    } finally {
      await t.close();
    }
  });
});

describe('a wallet never holds more than the service counts exactly (D5)', () => {
  it('a deposit or payout that would take a balance past 2^53 − 1 centavos is refused and moves nothing', async () => {
    const t = await startTestApp({ env: { SANDBOX_CONFIRM_DELAY_MS: '0', OWNER_RATE_LIMIT_PER_MINUTE: '5000' } });
    try {
      const u = await createOnboardedUser(t.app);
      const payer = await createOnboardedUser(t.app, { fundArs: 1000 });
      const deposit = (amount_ars: number) => t.app.inject({ method: 'POST', url: '/v1/sandbox/deposits', headers: bearer(u.ownerToken), payload: { amount_ars } });
      const balance = async () => (await t.app.inject({ method: 'GET', url: '/v1/balance', headers: bearer(u.ownerToken) })).json().available;
      for (let i = 0; i < 900; i++) expect((await deposit(1e11)).statusCode).toBe(201);
      expect(await balance()).toBe('90000000000000.00');
      // 1e11 more would be 9,010,000,000,000,000 centavos: credited, it read back rounded.
      const over = await deposit(1e11);
      expectError(over, 400, 'INVALID_REQUEST');
      expect(over.json().message).toMatch(/^body\.amount_ars: /);
      expect(await balance()).toBe('90000000000000.00');
      // Up to the last exact centavo still arrives.
      expect((await deposit(71_992_547_409.91)).statusCode).toBe(201);
      expect(await balance()).toBe('90071992547409.91');
      expectError(await deposit(0.01), 400, 'INVALID_REQUEST');
      expectError(await t.app.inject({ method: 'POST', url: '/v1/sandbox/crypto', headers: bearer(u.ownerToken), payload: { asset: 'USDT', amount: 1 } }), 400, 'INVALID_REQUEST');
      // A payout to the full wallet is the bank rejecting it: the payer keeps the money.
      const paid = await t.app.inject({
        method: 'POST',
        url: '/v1/withdraws',
        headers: { ...bearer(payer.agentToken), 'idempotency-key': 'to-full' },
        payload: { amount_ars: 10, destination: u.cvu },
      });
      expectError(paid, 502, 'WITHDRAW_FAILED');
      expect((await t.app.inject({ method: 'GET', url: '/v1/balance', headers: bearer(payer.ownerToken) })).json().available).toBe('1000.00');
      expect(await balance()).toBe('90071992547409.91');
      await t.app.jobs.depositDetection!.runOnce();
      expect((await eventTypes(t.app, u.id)).filter((e) => e === 'deposit.detected')).toHaveLength(901);
    } finally {
      await t.close();
    }
  }, 120_000);
});
