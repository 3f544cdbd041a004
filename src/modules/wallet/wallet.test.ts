import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bearer,
  createOnboardedUser,
  createUser,
  expectError,
  randomCuit,
  startTestApp,
  type TestApp,
} from '../../../test/helpers.js';
import { isCvu, isAlias } from '../../shared/ar-identifiers.js';
import { listEvents } from '../events/events.service.js';

describe('onboarding (D10)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  const onboard = (token: string, payload: object) =>
    t.app.inject({ method: 'POST', url: '/v1/onboarding', headers: bearer(token), payload });

  it('issues a valid CVU and alias, KYC verified', async () => {
    const u = await createUser(t.app);
    const res = await onboard(u.ownerToken, { legal_id: randomCuit(), legal_name: 'Ana Pérez' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.asset).toBe('ARS');
    expect(body.kyc_status).toBe('verified');
    expect(isCvu(body.cvu)).toBe(true);
    expect(isAlias(body.alias)).toBe(true);
    expect(body.alias.split('.')).toHaveLength(3);
    const cvu = await t.app.inject({ method: 'GET', url: '/v1/cvu', headers: bearer(u.agentToken) });
    expect(cvu.json()).toEqual({ cvu: body.cvu, alias: body.alias, asset: 'ARS' });
  });

  it('accepts dashes in the CUIT and keeps KYC pending for the magic legal ids', async () => {
    const u = await createUser(t.app);
    const res = await onboard(u.ownerToken, { legal_id: '20-99999999-9', legal_name: 'Pending Person' });
    expect(res.statusCode).toBe(200);
    expect(res.json().kyc_status).toBe('pending');
  });

  it('refuses an invalid CUIT with 400 and changes nothing', async () => {
    const u = await createUser(t.app);
    const res = await onboard(u.ownerToken, { legal_id: '20123456787', legal_name: 'X' });
    expectError(res, 400, 'INVALID_REQUEST');
    expect(res.json().message).toContain('legal_id');
    expectError(await t.app.inject({ method: 'GET', url: '/v1/cvu', headers: bearer(u.ownerToken) }), 422, 'ONBOARDING_INCOMPLETE');
    expectError(await onboard(u.ownerToken, { legal_id: randomCuit() }), 400, 'INVALID_REQUEST');
  });

  it('onboards once: a second call, even concurrent, is 409 and opens one account', async () => {
    const u = await createUser(t.app);
    const legal_id = randomCuit();
    const results = await Promise.all([1, 2, 3].map(() => onboard(u.ownerToken, { legal_id, legal_name: 'Once' })));
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409, 409]);
    expect(results.find((r) => r.statusCode === 409)!.json().error).toBe('ALREADY_ONBOARDED');
    const accounts = await t.app.ctx.store.db.selectFrom('rail_accounts').select('id').where('owner_ref', '=', u.id).execute();
    expect(accounts).toHaveLength(1);
  });

  it('the sandbox KYC helper sets the status', async () => {
    const u = await createOnboardedUser(t.app);
    const res = await t.app.inject({ method: 'POST', url: '/v1/sandbox/kyc', headers: bearer(u.ownerToken), payload: { status: 'rejected' } });
    expect(res.json()).toEqual({ kyc_status: 'rejected' });
    expectError(
      await t.app.inject({ method: 'POST', url: '/v1/sandbox/kyc', headers: bearer(u.ownerToken), payload: { status: 'bogus' } }),
      400,
      'INVALID_REQUEST',
    );
    const fresh = await createUser(t.app);
    expectError(
      await t.app.inject({ method: 'POST', url: '/v1/sandbox/kyc', headers: bearer(fresh.ownerToken), payload: { status: 'verified' } }),
      422,
      'ONBOARDING_INCOMPLETE',
    );
  });
});

describe('wallet endpoints', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ env: { SANDBOX_CONFIRM_DELAY_MS: '1000' } });
  });
  afterAll(() => t.close());

  const get = (url: string, token?: string) => t.app.inject({ method: 'GET', url, headers: token ? bearer(token) : {} });

  it('balance and cvu answer 422 ONBOARDING_INCOMPLETE before onboarding; deposits answer []', async () => {
    const u = await createUser(t.app);
    expectError(await get('/v1/balance', u.ownerToken), 422, 'ONBOARDING_INCOMPLETE');
    expectError(await get('/v1/cvu', u.agentToken), 422, 'ONBOARDING_INCOMPLETE');
    const dep = await get('/v1/deposits', u.ownerToken);
    expect(dep.statusCode).toBe(200);
    expect(dep.json()).toEqual({ deposits: [] });
    const sd = await t.app.inject({ method: 'POST', url: '/v1/sandbox/deposits', headers: bearer(u.ownerToken), payload: { amount_ars: 10 } });
    expectError(sd, 422, 'ONBOARDING_INCOMPLETE');
  });

  it('every wallet endpoint needs a token', async () => {
    for (const url of ['/v1/balance', '/v1/cvu', '/v1/deposits']) expectError(await get(url), 401, 'UNAUTHENTICATED');
    for (const url of ['/v1/onboarding', '/v1/sandbox/deposits', '/v1/sandbox/kyc']) {
      expectError(await t.app.inject({ method: 'POST', url, payload: {} }), 401, 'UNAUTHENTICATED');
    }
  });

  it('a sandbox deposit shows in the balance and as a credit leg with every Deposit field', async () => {
    const u = await createOnboardedUser(t.app);
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/sandbox/deposits',
      headers: bearer(u.ownerToken),
      payload: { amount_ars: 1500.5, from_name: 'Juan Paz', from_legal_id: '20-12345678-6', from_cbu: '0170099220000067797370' },
    });
    expect(res.statusCode).toBe(201);
    expect((await get('/v1/balance', u.agentToken)).json()).toEqual({ asset: 'ARS', available: '1500.50' });
    const { deposits } = (await get('/v1/deposits', u.agentToken)).json();
    expect(deposits).toHaveLength(1);
    expect(deposits[0]).toEqual({
      id: expect.stringMatching(/^dep_/),
      from: '0170099220000067797370',
      to: u.cvu,
      fromLegalId: '20123456786',
      toLegalId: u.legalId,
      fromName: 'Juan Paz',
      toName: 'Test User',
      amount: '1500.50',
      currency: 'ARS',
      status: 'COMPLETED',
      creationTime: expect.any(String),
      direction: 'credit',
    });
  });

  it.each([
    [{ amount_ars: 0 }],
    [{ amount_ars: -1 }],
    [{ amount_ars: 1.001 }],
    [{ amount_ars: '10' }],
    [{ amount_ars: 10, from_cbu: '2850590940090418135202' }],
    [{ amount_ars: 10, from_legal_id: '20123456787' }],
  ])('refuses the sandbox deposit %j with 400 and credits nothing', async (payload) => {
    const u = await createOnboardedUser(t.app);
    const res = await t.app.inject({ method: 'POST', url: '/v1/sandbox/deposits', headers: bearer(u.ownerToken), payload });
    expect(res.statusCode).toBe(400);
    expect((await get('/v1/balance', u.ownerToken)).json().available).toBe('0.00');
  });

  it('A pays B by alias: a debit leg for A, a credit leg for B, each user sees only their own', async () => {
    const a = await createOnboardedUser(t.app, { name: 'Ana', fundArs: 500 });
    const b = await createOnboardedUser(t.app, { name: 'Beto' });
    t.clock.advance(1000);
    const out = await t.app.ctx.rail.submitTransfer({ reference: `ab-${a.id}`, fromCvu: a.cvu, toKind: 'ALIAS', to: b.alias, amountCentavos: 12345 });
    expect(out.kind).toBe('accepted');

    const aLegs = (await get('/v1/deposits', a.ownerToken)).json().deposits;
    const bLegs = (await get('/v1/deposits', b.ownerToken)).json().deposits;
    expect(aLegs.map((d: { direction: string; amount: string }) => [d.direction, d.amount])).toEqual([
      ['debit', '123.45'],
      ['credit', '500.00'],
    ]);
    expect(bLegs).toHaveLength(1);
    expect(bLegs[0]).toMatchObject({ direction: 'credit', amount: '123.45', from: a.cvu, fromName: 'Ana', to: b.cvu, toName: 'Beto' });
    expect(JSON.stringify(bLegs)).not.toContain('500.00');
    expect((await get('/v1/balance', b.ownerToken)).json().available).toBe('123.45');
    expect((await get('/v1/balance', a.ownerToken)).json().available).toBe('376.55');
  });
});

describe('deposit detection', () => {
  it('records exactly one deposit.detected per incoming leg, also after a restart', async () => {
    const first = await startTestApp({ env: { SANDBOX_CONFIRM_DELAY_MS: '1000' } });
    const store = first.store;
    const a = await createOnboardedUser(first.app, { fundArs: 300 });
    const b = await createOnboardedUser(first.app);
    await first.app.ctx.rail.submitTransfer({ reference: `det-${a.id}`, fromCvu: a.cvu, toKind: 'ALIAS', to: b.alias, amountCentavos: 10000 });
    // A payout that fails after acceptance gives the money back; the reversal is not a deposit.
    await first.app.ctx.rail.submitTransfer({ reference: `rev-${a.id}`, fromCvu: a.cvu, toKind: 'ALIAS', to: 'sandbox.fail', amountCentavos: 100 });

    await first.app.jobs.depositDetection!.runOnce();
    // B's credit is still IN_PROGRESS: not announced until the rail completes it.
    expect(await listEvents(first.app.ctx.store.db, b.id, 'deposit.detected')).toHaveLength(0);
    first.clock.advance(1000);
    await first.app.jobs.railSettlement!.runOnce();
    await Promise.all([first.app.jobs.depositDetection!.runOnce(), first.app.jobs.depositDetection!.runOnce()]);
    await first.app.jobs.depositDetection!.runOnce();

    const bEvents = await listEvents(first.app.ctx.store.db, b.id, 'deposit.detected');
    expect(bEvents).toHaveLength(1);
    expect(bEvents[0]!.data).toMatchObject({ direction: 'credit', amount: '100.00', from: a.cvu, to: b.cvu, cvu: b.cvu });
    expect(await listEvents(first.app.ctx.store.db, a.id, 'deposit.detected')).toHaveLength(1); // the sandbox deposit only
    await first.app.close();

    const second = await startTestApp({ store });
    try {
      await second.app.jobs.depositDetection!.runOnce();
      expect(await listEvents(second.app.ctx.store.db, b.id, 'deposit.detected')).toHaveLength(1);
      expect(await listEvents(second.app.ctx.store.db, a.id, 'deposit.detected')).toHaveLength(1);
    } finally {
      await second.app.close();
      await store.drop();
    }
  });
});
